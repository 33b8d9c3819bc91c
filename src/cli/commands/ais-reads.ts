/**
 * The resources of `obtpp ais`, each with its bulk and per-account operations: the catalogues'
 * read groups (`group: { kind: 'read', of: 'direct-debits', as: 'every' }`), in catalogue order
 * (light: the command's definition reads it for --help, and the catalogues are data).
 */
import { groupOf, groupsOf } from '../../dialects/operation-spec.ts';
import { standards } from '../../standards/registry.ts';

export interface AisRead {
  /** The bulk read (every consented account), if the standard has one. */
  every?: string;
  /** The per-account read (or per statement, with `statement`). */
  one?: string;
  /** The read needs a StatementId as well. */
  statement?: boolean;
}

/** Every registered standard's reads, by the resource's name (the first standard that has one wins). */
function reads(): Record<string, AisRead> {
  const found: Record<string, AisRead> = {};
  for (const { catalogue } of standards()) {
    for (const of of groupsOf(catalogue, 'read')) {
      if (found[of]) continue;
      const { every, one } = groupOf(catalogue, 'read', of);
      const statement = one !== undefined && catalogue[one]!.ids.includes('statementId');
      found[of] = { ...(every ? { every } : {}), ...(one ? { one } : {}), ...(statement ? { statement } : {}) };
    }
  }
  return found;
}

export const AIS_READS: Readonly<Record<string, AisRead>> = reads();
