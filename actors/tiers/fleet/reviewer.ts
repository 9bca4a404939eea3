import { ABORTED, untilAborted } from './abortable.ts';
import { ALGORITHM_FAMILIES } from './algorithm-families.ts';
import type { AlgorithmFamily } from './algorithm-family.ts';
import {
  bandOf,
  claimBand,
  claimFromText,
  growthExponent,
  judgeClaim,
  slopeAgreement,
  type Timing,
} from './complexity-classifier.ts';
import type { FleetSandbox } from './fleet-sandbox.ts';
import { recogniseProblem } from './recognize-problem.ts';
import { seededRandom } from './seeded-random.ts';
import {
  cancelledResult,
  isJavaScript,
  missingCode,
  unsupportedLanguage,
  unsupportedProblem,
} from './specialist-refusals.ts';
import type { SpecialistArtifact, SpecialistRequest, SpecialistResult, Specialist } from './specialist-result.ts';

/** How the reviewer times a solution (defaults in REVIEW_PLAN). */
export interface ReviewPlan {
  /** The first input size; each next one doubles it. */
  startSize: number;
  /** At most this many sizes. */
  maxSizes: number;
  /** Fewer sizes than this and no verdict is given. */
  minSizes: number;
  /** Stop doubling once one call takes this long (keeps quadratic solutions short). */
  slowCallMs: number;
  /** Each sample repeats the call for at least this long (after one warm-up sample). */
  sampleMs: number;
  /** Samples per size; the fastest is the size's timing (load only ever adds time). */
  samples: number;
  /** Time limit of one size's sandbox run. */
  timeoutMs: number;
}

export const REVIEW_PLAN: ReviewPlan = {
  startSize: 512,
  maxSizes: 8,
  minSizes: 4,
  slowCallMs: 25,
  sampleMs: 2,
  samples: 15,
  timeoutMs: 5000,
};

const TIMER = '__fleet_review_timer__';

/**
 * The solution plus a timer function: it calls the solution over and over (in batches that double
 * up to 1024, reading the clock between batches) until `minMs` have passed, and returns how many
 * calls it made. The sandbox times the timer's call as a whole, so per-call time is its duration
 * over that count: the fixed cost of a sandbox call (about 0.1 ms: the vm's timeout watchdog),
 * which would drown a sub-microsecond call, is spread over thousands of calls.
 */
function timedCode(code: string, functionName: string): string {
  return `${code}
;function ${TIMER}(args, minMs) {
  const start = Date.now();
  let calls = 0;
  let last;
  for (let batch = 1; ; batch = Math.min(batch * 2, 1024)) {
    for (let i = 0; i < batch; i++) last = ${functionName}(...args);
    calls += batch;
    if (Date.now() - start >= minMs) return typeof last === 'symbol' ? -calls : calls;
  }
}
`;
}

function analysis(claim: string | undefined, timings: Timing[], verdict: string): SpecialistArtifact {
  const exponent = timings.length >= 2 ? Math.round(growthExponent(timings) * 1000) / 1000 : null;
  const measured = exponent === null ? null : bandOf(exponent).label;
  return {
    artifact_type: 'complexity_review',
    content: JSON.stringify({ claimed: claim ?? null, measured, slope: exponent, verdict, timings }),
    metadata: { claimed: claim ?? null, measured, slope: exponent, verdict, sizes: timings.map((t) => t.n) },
  };
}

/**
 * Times `code` on the family's worst-case inputs at doubling sizes (a fresh sandbox run per
 * size, the call repeated so a sample lasts about `sampleMs`, the fastest of `samples`), until a call
 * is slow or the sizes run out. Returns the timings and, if the run broke, why.
 */
async function measure(
  sandbox: FleetSandbox,
  family: AlgorithmFamily,
  request: SpecialistRequest,
  plan: ReviewPlan,
  log: string[],
): Promise<{ timings: Timing[]; stopped?: string; aborted?: boolean }> {
  const timings: Timing[] = [];
  const code = timedCode(request.code!, request.problem.function_name);
  for (let k = 0, n = plan.startSize; k < plan.maxSizes; k++, n *= 2) {
    if (request.signal?.aborted) return { timings, aborted: true };
    const args = family.generate(n, seededRandom(n));
    // One warm-up sample (the JIT's first pass), then the measured ones.
    const calls = Array.from({ length: plan.samples + 1 }, () => [args, plan.sampleMs]);
    const limits = { timeoutMs: plan.timeoutMs };
    const run = sandbox.runCalls({ code, functionName: TIMER, calls, limits, signal: request.signal });
    const report = await untilAborted(run, request.signal);
    if (report === ABORTED) return { timings, aborted: true };
    const failed = report.results.find((r) => !r.ok || !(Number.isInteger(r.value) && (r.value as number) > 0));
    if (report.verdict !== 'ok' || failed) {
      const why =
        report.verdict !== 'ok'
          ? `${report.verdict}${report.detail ? `: ${report.detail}` : ''}`
          : failed!.ok
            ? `a timer count of ${JSON.stringify(failed!.value)}`
            : `threw ${failed!.error}`;
      log.push(`n = ${n}: run stopped (${why})`);
      return { timings, stopped: `at n = ${n} the run ended with ${why}` };
    }
    const perCall = report.results.slice(1).map((r) => r.durationMs / (r.value as number));
    const ms = Math.min(...perCall);
    timings.push({ n, ms });
    const counts = report.results.slice(1).map((r) => r.value as number);
    log.push(
      `n = ${n}: ${ms.toPrecision(4)} ms per call (fastest of ${plan.samples} samples of ${Math.min(...counts)}-${Math.max(...counts)} calls)`,
    );
    if (ms >= plan.slowCallMs && timings.length >= plan.minSizes) break;
  }
  return { timings };
}

/**
 * The offline reviewer: checks a complexity claim (`claimed_complexity`, else one named in the
 * constraints) by timing the solution over doubling input sizes and reading the growth band of the
 * log-log slope (complexity-classifier.ts). A claim slower than measured by a band or more fails.
 *
 * @example await createReviewer(realSandbox)({ problem, code, claimed_complexity: 'O(log n)', task_type: 'review_complexity', objective, constraints: [] });
 */
export function createReviewer(sandbox: FleetSandbox, plan: ReviewPlan = REVIEW_PLAN): Specialist {
  return async function reviewer(request: SpecialistRequest): Promise<SpecialistResult> {
    const { problem } = request;
    const log: string[] = [];
    if (!isJavaScript(problem.language)) return unsupportedLanguage('reviewer', problem.language, log);
    if (!request.code) return missingCode('reviewer', log);
    const [match] = recogniseProblem(
      problem,
      ALGORITHM_FAMILIES,
      [request.objective, ...request.constraints].join('\n'),
    );
    if (!match) return unsupportedProblem('reviewer', problem.function_name, log);
    const claim = request.claimed_complexity ?? claimFromText(request.constraints);
    const band = claim === undefined ? undefined : claimBand(claim);
    if (band === null) {
      log.push(`claim ${claim} cannot be timed`);
      return {
        status: 'failed',
        summary: `The claim ${claim} is not one the reviewer can time.`,
        confidence: 0,
        artifacts: [],
        log,
        error_type: 'unsupported_claim',
        error_detail: `Claim "${claim}" is not a power of n with an optional log factor; state it as O(1), O(log n), O(n), O(n log n), O(n^2) or O(n^3).`,
        recoverable: false,
      };
    }
    log.push(`timing ${match.family.id} inputs; claim: ${claim ?? 'none'}`);
    const { timings, stopped, aborted } = await measure(sandbox, match.family, request, plan, log);
    if (aborted)
      return cancelledResult('reviewer', timings.length >= 2 ? [analysis(claim, timings, 'cancelled')] : [], log);
    if (timings.length < plan.minSizes) {
      return {
        status: 'failed',
        summary: `Too few timings to judge growth (${timings.length} of ${plan.minSizes} sizes).`,
        confidence: 0,
        artifacts: timings.length >= 2 ? [analysis(claim, timings, 'inconclusive')] : [],
        log,
        error_type: 'timing_failed',
        error_detail: `The solution could not be timed ${stopped ?? 'at enough sizes'}; fix the solution or shorten its inputs.`,
        recoverable: stopped?.includes('timeout') ?? false,
      };
    }
    const exponent = growthExponent(timings);
    const measured = bandOf(exponent);
    const confidence = slopeAgreement(timings);
    const verdict = band ? judgeClaim(band, exponent) : 'measured';
    const slope = exponent.toFixed(2);
    log.push(`log-log slope ${slope}: ${measured.label}; verdict ${verdict}`);
    const artifacts = [analysis(claim, timings, verdict)];
    if (verdict === 'violated') {
      return {
        status: 'failed',
        summary: `Claimed ${claim}, but the time grows like ${measured.label} (log-log slope ${slope}).`,
        confidence,
        artifacts,
        log,
        error_type: 'complexity_claim_violated',
        error_detail: `Doubling n from ${timings[0]!.n} to ${timings[timings.length - 1]!.n} multiplied the time by about 2^${slope}: that is ${measured.label}, not ${claim}.`,
        recoverable: false,
      };
    }
    const note =
      verdict === 'holds'
        ? `the claim ${claim} holds`
        : verdict === 'loose'
          ? `the claim ${claim} holds as an upper bound but is loose`
          : 'no claim to check';
    return {
      status: 'success',
      summary: `Time grows like ${measured.label} (slope ${slope}): ${note}.`,
      confidence,
      artifacts,
      log,
    };
  };
}
