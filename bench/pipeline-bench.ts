/**
 * Pipeline benchmarks: a full initial run on the offline brains (median ms), and a run whose
 * brains sleep the §9 mid-range durations scaled 1 s -> 10 ms, against its critical path (the
 * nutrition chain; COACH overlaps it) and the spec's sequential sum. The same chain of sleeps
 * without the runtime, in the same process, shows what the machine's timers add by themselves.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileJournal } from '../actors/runtime/file-journal.ts';
import { openLowdbStore } from '../actors/runtime/lowdb-store.ts';
import { offlineNutritionBrains } from '../actors/nutrition/offline-brains.ts';
import type { RoutedRecord } from '../protocol/runtime/routing.ts';
import { PipelineRuns } from '../server/nutrition/pipeline-runs.ts';
import { embeddedPipelineHost } from '../server/nutrition/embedded-pipeline-host.ts';
import { VALID_PAYLOADS } from '../tests/unit/protocol/nutrition/fixtures.ts';

/** §9 mid-range durations in seconds, scaled 1 s -> 10 ms. INTAKE is the questionnaire: no model. */
const SCALE_MS_PER_S = 10;
const MID_RANGE_S = { SCIENTIST: 7.5, NUTRITIONIST: 7.5, DIETITIAN: 11.5, CHEF: 12.5, COACH: 10 } as const;
const latencyMs = Object.fromEntries(Object.entries(MID_RANGE_S).map(([agent, s]) => [agent, s * SCALE_MS_PER_S]));
const CRITICAL_PATH_MS =
  (MID_RANGE_S.SCIENTIST + MID_RANGE_S.NUTRITIONIST + MID_RANGE_S.DIETITIAN + MID_RANGE_S.CHEF) * SCALE_MS_PER_S;
const SEQUENTIAL_SUM_MS = Object.values(MID_RANGE_S).reduce((a, b) => a + b, 0) * SCALE_MS_PER_S;

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;
const median = (xs: number[]) => quantile(xs, 0.5);
const round = (x: number) => Number(x.toFixed(1));

/**
 * The nutrition chain's sleeps one after the other, with no runtime around them: the critical
 * path as this machine's timers realise it at that moment (it runs beside each measured run).
 */
async function timeBareChain() {
  const started = performance.now();
  for (const agent of ['SCIENTIST', 'NUTRITIONIST', 'DIETITIAN', 'CHEF'] as const) await delay(latencyMs[agent]!);
  return performance.now() - started;
}

/** Times `count` runs; with `baseline`, times it beside each run too (both see the machine as it is then). */
async function timeRuns(
  count: number,
  brains: ReturnType<typeof offlineNutritionBrains>,
  baseline?: () => Promise<number>,
) {
  const dir = await mkdtemp(join(tmpdir(), 'pipeline-bench-'));
  const store = await openLowdbStore(join(dir, 'store'));
  const journal = await openFileJournal<RoutedRecord>(join(dir, 'journal'));
  const runs = await PipelineRuns.open(store, embeddedPipelineHost({ store, journal, brains }));
  const times: number[] = [];
  const baselines: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const beside = baseline?.();
      const started = performance.now();
      const { pipeline_run_id } = await runs.create(`user-${i}`, VALID_PAYLOADS.intake_data);
      await runs.settled(`user-${i}`, pipeline_run_id);
      times.push(performance.now() - started);
      if ((await runs.view(`user-${i}`, pipeline_run_id)).state !== 'output_ready')
        throw new Error('A benchmark run did not complete.');
      if (beside) baselines.push(await beside);
    }
  } finally {
    await runs.close();
    await journal.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
  return { times, baselines };
}

export async function runPipelineBench(options: { runs?: number } = {}) {
  const count = options.runs ?? 15;
  await timeRuns(3, offlineNutritionBrains()); // warm-up
  const offline = (await timeRuns(count, offlineNutritionBrains())).times;
  // The first runs of a fresh data directory also create its folders and files: a warm-up, not measured.
  const paired = await timeRuns(count + 3, offlineNutritionBrains({ latencyMs }), timeBareChain);
  const scaled = paired.times.slice(3);
  const bare = paired.baselines.slice(3);
  const scaledMedian = median(scaled);
  const bareMedian = median(bare);
  const ratioToBareChain = scaledMedian / bareMedian;
  return {
    name: 'pipeline',
    offlineFullRun: { runs: count, medianMs: round(median(offline)) },
    scaledLatencyRun: {
      runs: scaled.length,
      brainLatencyMs: latencyMs,
      medianWallMs: round(scaledMedian),
      p25WallMs: round(quantile(scaled, 0.25)),
      p75WallMs: round(quantile(scaled, 0.75)),
      criticalPathMs: CRITICAL_PATH_MS,
      sequentialSumMs: SEQUENTIAL_SUM_MS,
      ratioToCriticalPath: Number((scaledMedian / CRITICAL_PATH_MS).toFixed(3)),
      bareChainMedianMs: round(bareMedian),
      ratioToBareChain: Number(ratioToBareChain.toFixed(3)),
    },
    target:
      'scaled wall time <= 1.05 x the critical path, measured as the bare chain of the same sleeps timed beside each run',
    pass: ratioToBareChain <= 1.05,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runPipelineBench(), null, 2));
}
