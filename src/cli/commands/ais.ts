import type { Io } from '../io.ts';
import type { DataFlags } from './data.ts';
import { withSession } from './common.ts';
import { UsageError } from '../../errors.ts';
import type { Operation } from '../../client/operations.ts';
import { AIS_READS } from './ais-reads.ts';

/** `obtpp ais RESOURCE [accountId] [statementId]`: one read of UK Read/Write v3.1.11's account information. */
export async function ais(io: Io, resource: string, accountId: string | undefined, statementId: string | undefined, flags: DataFlags): Promise<void> {
  const read = AIS_READS[resource];
  if (!read) throw new UsageError(`obtpp ais ${resource}: expected one of ${Object.keys(AIS_READS).join(', ')}`);
  if (read.statement && (!accountId || !statementId)) throw new UsageError(`obtpp ais ${resource} needs the account and the StatementId: obtpp ais ${resource} ACCOUNT STATEMENT`);
  if (!read.statement && statementId) throw new UsageError(`obtpp ais ${resource} takes no StatementId`);
  const op = (accountId ? read.one : read.every) as Operation | undefined;
  if (!op) throw new UsageError(accountId ? `the standard has no per-account read of ${resource} (leave the account out)` : `the standard has no bulk read of ${resource}: give the account`);
  const ids = [accountId, statementId].filter((x): x is string => x !== undefined);
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent('ais', flags.consent);
    const result = await out.step(`reading ${resource}${accountId ? ` of ${accountId}` : ''}`, () => session.withUserToken(record, async (token) => session.check(await session.client.invoke(op, [...ids, { token }]), [200])));
    if (!result.json) {
      // A statement's file (a PDF): its type and size, not its bytes on the terminal.
      const file = { contentType: result.headers['content-type'] ?? null, bytes: Buffer.byteLength(result.text) };
      if (out.json) return out.document(file);
      return out.line(`${resource}: ${file.contentType ?? 'no content type'}, ${file.bytes} bytes`);
    }
    if (out.json) return out.document(result.body);
    const data = (result.body as { Data?: Record<string, unknown> } | undefined)?.Data ?? {};
    for (const [key, value] of Object.entries(data)) {
      const items = Array.isArray(value) ? value : [value];
      out.line(`${items.length} ${key}`);
      for (const item of items) {
        const scalars = Object.entries(item as Record<string, unknown>).filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
        out.line(`  ${scalars.map(([k, v]) => `${k}=${v}`).join('  ')}`);
      }
    }
  });
}
