/**
 * Shared-state throughput: durable writes/s (file journal, group commit) against the
 * supervisor's routing rate (envelopes/s, validated, deduplicated and journaled), in the same
 * process and run. The writes are issued together by eight views (one scope instance each),
 * each setting one of 100 keys with a payload like the routing bench's, so the cost of
 * compaction (a snapshot every 1000 writes per scope instance) is included.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileJournal } from '../actors/runtime/file-journal.ts';
import { openSharedState } from '../actors/runtime/shared-state/open-shared-state.ts';
import type { SharedStateSchema } from '../actors/runtime/shared-state/shared-state-schema.ts';
import { supervisedRoutingRate } from './routing-bench.ts';

const SCHEMA: SharedStateSchema = { namespaces: { task: { scope: 'task', access: { WORKER: 'RW' } } } };
const SCOPES = 8;

async function sharedStateRate(writes: number, dir: string): Promise<{ rate: number; snapshots: number }> {
  const journal = await openFileJournal(dir);
  const views = Array.from({ length: SCOPES }, (_, i) =>
    openSharedState({ journal, schema: SCHEMA, scopes: { task: `run-${i}` } }),
  );
  await Promise.all(views.map((view) => view.get('task/k0'))); // each scope instance read once, as a run's would be
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writes }, (_, n) =>
      views[n % SCOPES]!.write('WORKER', [
        { key: `task/k${n % 100}`, value: { sensor: 'scale', value: n, unit: 'kg' } },
      ]),
    ),
  );
  const rate = writes / ((performance.now() - started) / 1000);
  await Promise.all(views.map((view) => view.close()));
  const snapshots = (await journal.partitions()).filter((key) => key.includes('#')).length;
  await journal.close();
  return { rate, snapshots };
}

/** Alternates the two sides for `rounds` pairs and reports the median of the per-pair ratios. */
export async function runSharedStateBench(options: { writes?: number; rounds?: number } = {}) {
  const writes = options.writes ?? 10_000;
  const rounds = options.rounds ?? 5;
  const dir = await mkdtemp(join(tmpdir(), 'shared-state-bench-'));
  const stateRates: number[] = [];
  const routingRates: number[] = [];
  const ratios: number[] = [];
  let snapshots = 0;
  try {
    await sharedStateRate(2_000, join(dir, 'warm-state'));
    await supervisedRoutingRate(2_000, join(dir, 'warm-routing'));
    for (let round = 0; round < rounds; round++) {
      const stateFirst = round % 2 === 0;
      const before = stateFirst ? await sharedStateRate(writes, join(dir, `state-${round}`)) : undefined;
      const routing = await supervisedRoutingRate(writes, join(dir, `routing-${round}`));
      const state = before ?? (await sharedStateRate(writes, join(dir, `state-${round}`)));
      snapshots = state.snapshots;
      stateRates.push(state.rate);
      routingRates.push(routing);
      ratios.push(state.rate / routing);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = median(ratios);
  return {
    name: 'shared-state',
    writes,
    rounds,
    sharedState: { durableWritesPerSec: Math.round(median(stateRates)), snapshotsPerRound: snapshots },
    supervisor: { envelopesPerSec: Math.round(median(routingRates)) },
    ratio: Number(ratio.toFixed(3)),
    ratioRange: [Number(Math.min(...ratios).toFixed(3)), Number(Math.max(...ratios).toFixed(3))],
    target: 'shared-state durable writes/s >= 0.5 x supervisor envelopes/s (median of paired rounds)',
    pass: ratio >= 0.5,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runSharedStateBench(), null, 2));
}
