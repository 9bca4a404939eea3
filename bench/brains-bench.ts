/**
 * CPU of the offline nutrition brains per full offline run (issue 10): every brain of an initial
 * run (and, for the varied cases, a DIETITIAN/CHEF re-run), driven directly on the handlers, in
 * ms of `process.cpuUsage` inside the handlers per case. With `--old <dir>` (a copy of an older tree with its own
 * `actors/` and `protocol/`), the old and the current handlers run interleaved in this process,
 * round after round, and the ratio new/old is reported.
 *
 *   node --import tsx bench/brains-bench.ts [--old /tmp/brains-old] [--rounds 8] [--cases 40]
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OFFLINE_HANDLERS } from '../actors/nutrition/offline-brains.ts';
import type { BrainHandler } from '../actors/nutrition/nutrition-brain.ts';
import { runChain, sampleChainCases, type ChainCase } from '../tests/support/nutrition/offline-brain-chain.ts';
import { VALID_PAYLOADS } from '../tests/unit/protocol/nutrition/fixtures.ts';

type Handlers = typeof OFFLINE_HANDLERS;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/**
 * CPU ms (user + system) per case of one pass over `cases`, counted inside the handlers only
 * (the chain's own work, recording every output as JSON, is left out).
 */
async function cpuPerCase(handlers: Handlers, cases: readonly ChainCase[]): Promise<number> {
  let micros = 0;
  const timed = Object.fromEntries(
    Object.entries(handlers).map(([agent, handle]) => [
      agent,
      (async (request, tools) => {
        const started = process.cpuUsage();
        try {
          return await handle(request, tools);
        } finally {
          const used = process.cpuUsage(started);
          micros += used.user + used.system;
        }
      }) satisfies BrainHandler,
    ]),
  ) as Handlers;
  for (const chainCase of cases) await runChain(timed, chainCase);
  return micros / 1000 / cases.length;
}

async function main() {
  const { values } = parseArgs({
    options: { old: { type: 'string' }, rounds: { type: 'string' }, cases: { type: 'string' } },
  });
  const rounds = Number(values.rounds ?? 8);
  const count = Number(values.cases ?? 40);
  const sets: Record<string, (round: number) => ChainCase[]> = {
    // The bench's own intake, initial run only (what bench/pipeline-bench.ts repeats), 20 times.
    fixed: () => Array.from({ length: 20 }, () => ({ intake: VALID_PAYLOADS.intake_data, rerun: { kind: 'none' } })),
    // Varied intakes with re-runs, new ones every round (seeds other than the golden test's), so
    // that the scaler's memo only helps within a run (the CHEF asking what the DIETITIAN asked).
    varied: (round) => sampleChainCases(1000 + round, count),
  };
  const impls: [string, Handlers][] = [['new', OFFLINE_HANDLERS]];
  if (values.old) {
    const url = pathToFileURL(resolve(values.old, 'actors/nutrition/offline-brains.ts')).href;
    impls.unshift(['old', ((await import(url)) as { OFFLINE_HANDLERS: Handlers }).OFFLINE_HANDLERS]);
  }
  for (const [name, casesOf] of Object.entries(sets)) {
    const times = new Map<string, number[]>(impls.map(([impl]) => [impl, []]));
    for (const [, handlers] of impls) await cpuPerCase(handlers, casesOf(-1)); // warm-up
    let size = 0;
    for (let round = 0; round < rounds; round++) {
      const batch = casesOf(round);
      size = batch.length;
      // Alternate the order, so that neither copy always runs first.
      const order = round % 2 === 0 ? impls : [...impls].reverse();
      for (const [impl, handlers] of order) times.get(impl)!.push(await cpuPerCase(handlers, batch));
    }
    const medians = Object.fromEntries([...times].map(([impl, xs]) => [impl, Number(median(xs).toFixed(2))]));
    const ratio = medians.old ? { new_over_old: Number((medians.new! / medians.old).toFixed(3)) } : {};
    console.log(JSON.stringify({ set: name, cases: size, rounds, cpu_ms_per_case: medians, ...ratio }));
  }
}

await main();
