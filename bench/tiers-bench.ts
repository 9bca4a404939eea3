/**
 * Tiers throughput: delegations/s through the four tiers (Monitor -> Architect -> Dispatcher ->
 * fleet and back, every envelope validated, journaled and delivered by the task's supervisor,
 * every delegation journaled in its tree, Beads and the dedup service on disk) with zero-latency
 * brains (the offline planners and specialists that answer at once), against the supervisor's
 * routing rate (envelopes/s) in the same process and run. One task makes 5 delegations (root,
 * decompose, solve, tests, review) and 10 envelopes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileJournal } from '../actors/runtime/file-journal.ts';
import { openLowdbStore } from '../actors/runtime/lowdb-store.ts';
import { offlineArchitect } from '../actors/tiers/planning/offline-architect.ts';
import { offlineDispatcher } from '../actors/tiers/planning/offline-dispatcher.ts';
import type { FleetSpecialist, SpecialistRequestShape } from '../machines/tiers/task-context.ts';
import type { DelegationRecord } from '../protocol/runtime/delegation-record.ts';
import type { RoutedRecord } from '../protocol/runtime/routing.ts';
import type { TaskRequest } from '../protocol/tiers/task-request.ts';
import { TiersServiceImpl } from '../server/tiers/tiers-service.ts';
import { supervisedRoutingRate } from './routing-bench.ts';

/** A specialist that answers at once: the bench measures the tiers, not the sandbox. */
const instant = (taskType: string): FleetSpecialist => ({
  taskTypes: [taskType],
  run: async (request: SpecialistRequestShape) => ({
    status: 'success',
    summary: 'done',
    confidence: 0.9,
    artifacts: [
      {
        artifact_type: taskType === 'execute_code' ? 'code' : 'analysis',
        content: `function ${request.problem.function_name}() {}`,
        metadata: {},
      },
    ],
    log: [],
  }),
});

const TASK: TaskRequest = {
  objective: 'Implement binary search',
  problem: {
    statement: 'Return the index of target in sorted nums, or -1.',
    function_name: 'search',
    language: 'javascript',
    test_cases: [{ input: [[1, 3, 5], 3], expected: 1 }],
  },
};

/** Delegations/s for `tasks` tasks submitted together, over file journals and a file store in `dir`. */
async function tiersRate(tasks: number, dir: string): Promise<{ rate: number; delegations: number }> {
  const store = await openLowdbStore(join(dir, 'store'));
  const journal = await openFileJournal<RoutedRecord>(join(dir, 'tiers'));
  const trees = await openFileJournal<DelegationRecord>(join(dir, 'trees'));
  const beads = await openFileJournal(join(dir, 'beads'));
  const service = await TiersServiceImpl.open({
    store,
    journal,
    trees,
    beads,
    brains: {
      architect: offlineArchitect,
      dispatcher: offlineDispatcher,
      specialists: {
        'js-solver': instant('execute_code'),
        'test-designer': instant('design_tests'),
        reviewer: instant('review_complexity'),
      },
    },
    admission: { maxWorking: tasks + 1, maxPerOwner: tasks + 1 },
  });
  const started = performance.now();
  const ids = await Promise.all(Array.from({ length: tasks }, (_, i) => service.submit(`user-${i % 8}`, TASK)));
  let delegations = 0;
  await Promise.all(
    ids.map(async ({ task_id }, i) => {
      const controller = new AbortController();
      for await (const event of service.events(`user-${i % 8}`, task_id, {
        untilSettled: true,
        signal: controller.signal,
      })!) {
        if (event.type === 'settled' && event.data.status !== 'success')
          throw new Error(`Task ${task_id} ended ${event.data.status}.`);
      }
      const view = await service.get(`user-${i % 8}`, task_id);
      const count = (nodes: NonNullable<typeof view>['tree']): number =>
        nodes.reduce((n, node) => n + 1 + count(node.children), 0);
      delegations += count(view!.tree);
    }),
  );
  const rate = delegations / ((performance.now() - started) / 1000);
  await service.close();
  await Promise.all([journal.close(), trees.close(), beads.close(), store.close()]);
  return { rate, delegations };
}

/** Alternates the two sides for `rounds` pairs and reports the median of the per-pair ratios. */
export async function runTiersBench(options: { tasks?: number; rounds?: number } = {}) {
  const tasks = options.tasks ?? 40;
  const rounds = options.rounds ?? 3;
  const dir = await mkdtemp(join(tmpdir(), 'tiers-bench-'));
  const tierRates: number[] = [];
  const routingRates: number[] = [];
  const ratios: number[] = [];
  try {
    await tiersRate(8, join(dir, 'warm-tiers'));
    await supervisedRoutingRate(2_000, join(dir, 'warm-routing'));
    for (let round = 0; round < rounds; round++) {
      const tiersFirst = round % 2 === 0;
      const before = tiersFirst ? await tiersRate(tasks, join(dir, `tiers-${round}`)) : undefined;
      const routing = await supervisedRoutingRate(10_000, join(dir, `routing-${round}`));
      const tiers = before ?? (await tiersRate(tasks, join(dir, `tiers-${round}`)));
      tierRates.push(tiers.rate);
      routingRates.push(routing);
      ratios.push(tiers.rate / routing);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return {
    name: 'tiers',
    tasks,
    rounds,
    tiers: { delegationsPerSec: Math.round(median(tierRates)), envelopesPerDelegation: 2 },
    supervisor: { envelopesPerSec: Math.round(median(routingRates)) },
    ratio: Number(median(ratios).toFixed(4)),
    ratioRange: [Number(Math.min(...ratios).toFixed(4)), Number(Math.max(...ratios).toFixed(4))],
    target: 'reported: delegations/s through the four tiers over the supervisor envelopes/s (median of paired rounds)',
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runTiersBench(), null, 2));
}
