import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../../actors/runtime/shared-state/open-shared-state.ts';
import type { SharedState } from '../../../../actors/runtime/shared-state/shared-state.ts';
import { outcomePayload } from '../../../../actors/tiers/tier-envelopes.ts';
import type { OutcomeBounds } from '../../../../actors/tiers/monitor/outcome-bounds.ts';
import type { RoutingAccuracy } from '../../../../actors/tiers/monitor/routing-accuracy.ts';
import type { GraphSubtask, TaskGraph } from '../../../../machines/tiers/dispatch-graph.ts';
import { recordOutcome } from '../../../../machines/tiers/monitor-records.ts';
import type { TaskContext } from '../../../../machines/tiers/task-context.ts';
import { BEADS_SCHEMA } from '../../../../protocol/tiers/beads.ts';

/** Holds every caller of `get(key)` until `parties` of them wait, then lets them all read at once (the first time only). */
function barrier(parties: number) {
  let waiting = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return async () => {
    waiting += 1;
    if (waiting === parties) open();
    await opened;
  };
}

/** A task's Beads view whose first read of `key` waits at `gate`: every task reads before any writes. */
function gated(state: SharedState, key: string, gate: () => Promise<void>): SharedState {
  let first = true;
  return {
    clock: state.clock,
    get: async (k) => {
      if (k === key && first) {
        first = false;
        await gate();
      }
      return state.get(k);
    },
    list: (prefix) => state.list(prefix),
    write: (role, writes) => state.write(role, writes),
    history: (k) => state.history(k),
    rollback: (role, k, to) => state.rollback(role, k, to),
    watch: (prefix, listener) => state.watch(prefix, listener),
    close: () => state.close(),
  };
}

const subtask = (status: GraphSubtask['status']): GraphSubtask => ({
  key: 'solve',
  task_type: 'execute_code',
  objective: 'solve',
  constraints: [],
  specialist_hint: 'js-solver',
  depends_on: [],
  task_data: {},
  specialist: 'js-solver',
  excluded: [],
  attempts: ['d-1'],
  status,
  confidence: 0.9,
  settled_order: 0,
  artifacts: [],
  error: null,
  tokens: { input: 0, output: 0 },
});

describe('the Monitor’s per-user records', () => {
  it('loses no update when two of a user’s tasks settle at once (compare-and-set, learning again on a conflict)', async () => {
    const journal = createMemoryJournal<unknown>();
    const clock = new SimulatedClock() as SimulatedClock & { now(): number };
    const gate = barrier(2);
    const contexts = await Promise.all(
      (['success', 'failed'] as const).map(async (status, i) => {
        const taskId = `task-${i}`;
        const state = openSharedState({ journal, schema: BEADS_SCHEMA, scopes: { task: taskId, user: 'ada' }, clock });
        const graph: TaskGraph = {
          delegation: `d-${i}`,
          strategy: 'all_success',
          subtasks: [subtask(status)],
          settled: 1,
          tokens: { input: 0, output: 0 },
        };
        await state.write('DISPATCHER', [{ key: 'routing/task-graph', value: graph }]);
        const ctx = {
          taskId,
          user: 'ada',
          beads: gated(state, 'system/routing-accuracy', gate),
          tree: { node: () => undefined },
          clock,
        } as unknown as TaskContext;
        return { ctx, status, state };
      }),
    );
    await Promise.all(
      contexts.map(({ ctx, status }) =>
        recordOutcome(ctx, outcomePayload({ status, summary: status, confidence: 0.5, execution_time_ms: 10 })),
      ),
    );
    const state = contexts[0]!.state;
    const accuracy = (await state.get('system/routing-accuracy'))!.value as RoutingAccuracy;
    expect(accuracy.specialists['js-solver']!['execute_code']!.outcomes).toBe(2);
    expect(accuracy.specialists['js-solver']!['execute_code']!.accuracy).toBeCloseTo(0.5);
    const bounds = (await state.get('history/outcome-bounds'))!.value as OutcomeBounds;
    expect(bounds['solve']!.outcomes).toBe(2);
    expect(bounds['solve']!.successes).toBe(1);
  });
});
