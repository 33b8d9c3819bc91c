import type { Profile } from '../profile/types.ts';
import { loadSigningKey, readKeyInput } from './keys.ts';
import type { Waiver, WaiverOutcome } from '../conformance/waivers.ts';
import type { DiffableSummary, SummaryDiff } from '../conformance/diff.ts';

/** The gates `obtpp conform` can add around a run: sign it, waive known failures, compare with a baseline. */
export interface GateOptions {
  /** `--attest KEY`: a key file, or `${env:NAME}`. */
  attest?: string;
  /** `--waivers FILE`. */
  waivers?: string;
  /** `--baseline DIR`: an earlier report dir (or its summary.json). */
  baseline?: string;
  strict?: boolean;
}

export interface GateReport {
  exitCode: number;
  /** Lines for stdout (the diff) and stderr (waivers, attestation). */
  stdout: string[];
  stderr: string[];
  waivers?: WaiverOutcome;
  diff?: SummaryDiff;
  attestation?: { file: string; kid: string; alg: string };
}

export interface Gates {
  /** Applies the waivers: give it to the runner so summary.json and the reports carry them. */
  transformSummary: <S>(summary: S) => S;
  /** Once the reports are written (the runner calls it): signs the report dir, last. */
  afterReports: (run: { summary: any; reportDir: string; profile?: Profile }) => Promise<void>;
  /** After the run: the waivers' lines and exit code, the comparison with the baseline. */
  finish(result: { summary: any; reportDir: string; exitCode: number }): Promise<GateReport>;
}

/**
 * Reads and checks everything the gates need before the run starts, so that a bad key, waiver
 * file or baseline is exit 2 in one line and not a wasted run.
 */
export async function prepareGates(options: GateOptions, ctx: { env: Record<string, string | undefined>; cwd: string; now?: () => Date }): Promise<Gates> {
  const now = ctx.now ?? (() => new Date());
  let key: string | undefined;
  if (options.attest) {
    key = await readKeyInput(options.attest, { env: ctx.env, cwd: ctx.cwd });
    await loadSigningKey(key);
  }
  let waivers: Waiver[] | undefined;
  let waiversMod: typeof import('../conformance/waivers.ts') | undefined;
  if (options.waivers) {
    waiversMod = await import('../conformance/waivers.ts');
    waivers = await waiversMod.loadWaivers(options.waivers, ctx.cwd);
  }
  let baseline: DiffableSummary | undefined;
  let diffMod: typeof import('../conformance/diff.ts') | undefined;
  if (options.baseline) {
    diffMod = await import('../conformance/diff.ts');
    // Read now: the run may be about to overwrite that very folder.
    baseline = await diffMod.readSummary(options.baseline, ctx.cwd);
  }
  let outcome: WaiverOutcome | undefined;
  let attestation: GateReport['attestation'] & { files: number } | undefined;

  return {
    transformSummary: <S>(summary: S): S => {
      if (!waivers || !waiversMod) return summary;
      const applied = waiversMod.applyWaivers(summary as any, waivers, now(), options.waivers);
      outcome = applied.waivers;
      return applied as S;
    },
    afterReports: async (run) => {
      if (!key) return;
      const { createAttestation } = await import('./attest.ts');
      const made = await createAttestation({ reportDir: run.reportDir, privateKey: key, meta: { summary: run.summary, profile: run.profile, endedAt: now() } });
      attestation = { file: made.file, kid: made.kid, alg: made.alg, files: made.manifest.files.length };
    },
    async finish(result) {
      const report: GateReport = { exitCode: result.exitCode, stdout: [], stderr: [] };
      if (waiversMod && outcome) {
        const lines = waiversMod.waiverLines(outcome, options.strict);
        report.stderr.push(...lines.notes, ...lines.warnings.map((l) => `warning: ${l}`), ...lines.errors.map((l) => `obtpp: ${l}`));
        report.exitCode = waiversMod.exitCodeWithWaivers(report.exitCode, result.summary, outcome, options.strict);
        report.waivers = outcome;
      }
      if (attestation) {
        report.attestation = { file: attestation.file, kid: attestation.kid, alg: attestation.alg };
        report.stderr.push(`attested: ${attestation.file} (${attestation.alg}, kid ${attestation.kid}, ${attestation.files} files)`);
      }
      if (baseline && diffMod) {
        const diff = diffMod.diffSummaries(baseline, result.summary);
        report.diff = diff;
        report.stdout.push(diffMod.renderDiff(diff, { old: options.baseline!, new: result.reportDir }));
        if (diff.regressed && (report.exitCode === 0 || report.exitCode === 1)) report.exitCode = 1;
      }
      return report;
    },
  };
}
