import { ABORTED, untilAborted } from './abortable.ts';
import type { AlgorithmFamily } from './algorithm-family.ts';
import type { Timing } from './complexity-classifier.ts';
import type { CallResult, CallsReport, FleetSandbox } from './fleet-sandbox.ts';
import { seededRandom } from './seeded-random.ts';

/** How the reviewer times a solution (defaults in REVIEW_PLAN). */
export interface ReviewPlan {
  /** The first input size; each next one doubles it. */
  startSize: number;
  /** At most this many sizes. */
  maxSizes: number;
  /** Fewer sizes than this and no verdict is given. */
  minSizes: number;
  /** Sizes stop once one (cold) call takes this long: a quadratic solution stays short. */
  slowCallMs: number;
  /** Each sample repeats the call for at least this long. */
  sampleMs: number;
  /** Rounds of samples (after one warm-up round), fewer when the calls are slow; the fastest sample is a size's timing. */
  samples: number;
  /** The measuring run aims to last about this long. */
  budgetMs: number;
  /** Time limit of the probe run; the measuring run gets more when its calls are slow. */
  timeoutMs: number;
}

/**
 * Sizes 128 to 4096. Larger inputs leave the caches and V8's young generation, and an
 * allocation-heavy linear solution then slows per element (two sum with a Map: 0.09 ms at 4096,
 * 1.4 ms at 8192 in plain Node), which would read as O(n^2). Up to 15 rounds of 2 ms samples.
 */
export const REVIEW_PLAN: ReviewPlan = {
  startSize: 128,
  maxSizes: 6,
  minSizes: 4,
  slowCallMs: 25,
  sampleMs: 2,
  samples: 15,
  budgetMs: 1500,
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

const counted = (result: CallResult | undefined): result is CallResult & { value: number } =>
  result !== undefined && result.ok && Number.isInteger(result.value) && (result.value as number) > 0;

function whyStopped(report: CallsReport, index: number): string {
  const result = report.results[index];
  if (result && !result.ok) return `threw ${result.error}`;
  if (result) return `a timer count of ${JSON.stringify(result.value)}`;
  return `${report.verdict}${report.detail ? `: ${report.detail}` : ''}`;
}

export interface GrowthMeasurement {
  timings: Timing[];
  stopped?: string;
  aborted?: boolean;
}

/**
 * Times a solution on the family's worst-case inputs at doubling sizes, in two sandbox runs: a
 * probe (one cold call per size, ascending) picks the affordable sizes, then a measuring run
 * takes every kept size once per round, so that a slow spell of a loaded machine hits all sizes
 * alike; a size's timing is its fastest sample (load only ever adds time).
 *
 * @example const { timings } = await measureGrowth(sandbox, binarySearch, { code, functionName: 'search' }, REVIEW_PLAN, log);
 */
export async function measureGrowth(
  sandbox: FleetSandbox,
  family: AlgorithmFamily,
  solution: { code: string; functionName: string; signal?: AbortSignal | undefined },
  plan: ReviewPlan,
  log: string[],
): Promise<GrowthMeasurement> {
  const code = timedCode(solution.code, solution.functionName);
  const { signal } = solution;
  const run = (calls: unknown[][], timeoutMs: number) =>
    untilAborted(sandbox.runCalls({ code, functionName: TIMER, calls, limits: { timeoutMs }, signal }), signal);
  const sizes = Array.from({ length: plan.maxSizes }, (_, k) => plan.startSize * 2 ** k);
  const inputs = sizes.map((n) => family.generate(n, seededRandom(n)));

  const probe = await run(
    inputs.map((args) => [args, 0]),
    plan.timeoutMs,
  );
  if (probe === ABORTED) return { timings: [], aborted: true };
  const kept: number[] = [];
  let probeMs = 0;
  for (let i = 0; i < sizes.length && counted(probe.results[i]); i++) {
    kept.push(i);
    probeMs += probe.results[i]!.durationMs;
    if (probe.results[i]!.durationMs >= plan.slowCallMs && kept.length >= plan.minSizes) break;
  }
  log.push(`probe: sizes ${kept.map((i) => sizes[i]).join(', ')} affordable (${probeMs.toFixed(1)} ms cold)`);
  if (kept.length < plan.minSizes) {
    return {
      timings: [],
      stopped: `at n = ${sizes[kept.length]} the run ended with ${whyStopped(probe, kept.length)}`,
    };
  }

  const roundMs = probeMs + kept.length * plan.sampleMs;
  const rounds = Math.max(3, Math.min(plan.samples, Math.floor(plan.budgetMs / roundMs)));
  const calls = Array.from({ length: rounds + 1 }, () => kept.map((i) => [inputs[i], plan.sampleMs])).flat();
  const report = await run(calls, Math.min(20_000, Math.max(plan.timeoutMs, 3 * (rounds + 1) * roundMs)));
  if (report === ABORTED) {
    // What the probe saw (one cold call per size) is all there is.
    return { timings: kept.map((i) => ({ n: sizes[i]!, ms: probe.results[i]!.durationMs })), aborted: true };
  }
  const broken = calls.findIndex((_, index) => !counted(report.results[index]));
  if (broken !== -1) {
    const n = sizes[kept[broken % kept.length]!];
    return { timings: [], stopped: `at n = ${n} the run ended with ${whyStopped(report, broken)}` };
  }
  const timings = kept.map((sizeIndex, k) => {
    const samples = Array.from({ length: rounds }, (_, r) => report.results[(r + 1) * kept.length + k]!);
    const ms = Math.min(...samples.map((s) => s.durationMs / (s.value as number)));
    log.push(`n = ${sizes[sizeIndex]}: ${ms.toPrecision(4)} ms per call (fastest of ${rounds} samples)`);
    return { n: sizes[sizeIndex]!, ms };
  });
  return { timings };
}
