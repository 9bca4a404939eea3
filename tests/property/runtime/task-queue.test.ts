import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import type { TaskExecutor } from '../../../actors/runtime/task-attempt.ts';
import { openTaskQueue, type TaskQueue } from '../../../actors/runtime/task-queue.ts';
import type { TaskLogRecord } from '../../../actors/runtime/task-queue-log.ts';
import type { TaskSpecInput } from '../../../protocol/runtime/task-spec.ts';

/** What one attempt of a task does: succeed, fail transiently or for good after `ms`, or hang past its limit. */
type Behaviour = { kind: 'ok' | 'transient' | 'fatal' | 'hang'; ms: number };
const TYPES = ['a', 'b', 'c'] as const;
const MAX_ATTEMPTS = 3;
const TIME_LIMIT = 100;

const scenario = fc.integer({ min: 1, max: 18 }).chain((n) =>
  fc.record({
    concurrency: fc.record({
      a: fc.integer({ min: 1, max: 3 }),
      b: fc.integer({ min: 1, max: 3 }),
      c: fc.integer({ min: 1, max: 3 }),
    }),
    tasks: fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        fc.record({
          type: fc.constantFrom(...TYPES),
          priority: fc.nat(4),
          deps: fc.uniqueArray(fc.nat(Math.max(0, i - 1)), { maxLength: i === 0 ? 0 : 3 }),
          behaviours: fc.array(
            fc.record({
              kind: fc.constantFrom('ok', 'ok', 'transient', 'fatal', 'hang'),
              ms: fc.integer({ min: 1, max: 60 }),
            }),
            { minLength: MAX_ATTEMPTS, maxLength: MAX_ATTEMPTS },
          ) as fc.Arbitrary<Behaviour[]>,
        }),
      ),
    ),
    batches: fc.integer({ min: 1, max: 3 }),
    crashAt: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }),
    compactAfter: fc.constantFrom(4, 10, 10_000),
  }),
);
type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

/** The final status a task must reach, from its behaviours and its dependencies' (no restart). */
function expectedStatuses(tasks: Scenario['tasks']): string[] {
  const out: string[] = [];
  tasks.forEach((task, i) => {
    if (task.deps.some((d) => out[d] !== 'completed')) return void out.push('blocked');
    const first = task.behaviours.findIndex((b) => b.kind === 'ok' || b.kind === 'fatal');
    out[i] = first >= 0 && task.behaviours[first]!.kind === 'ok' ? 'completed' : 'failed';
  });
  return out;
}

async function runScenario(s: Scenario) {
  const clock = new SimulatedClock();
  const journal = createMemoryJournal<TaskLogRecord>();
  const running = new Map<string, number>();
  const starts: string[] = [];
  const violations: string[] = [];
  let queue: TaskQueue;
  let unsubscribe = () => {};
  /** Counts executions under way per agent type, from inside the executor: the limit is about these. */
  const executor: TaskExecutor = (task, { attempt, signal }) =>
    new Promise((resolve, reject) => {
      const index = Number(task.task_id.slice(1));
      const { type, behaviours } = s.tasks[index]!;
      running.set(type, (running.get(type) ?? 0) + 1);
      if (running.get(type)! > s.concurrency[type]) violations.push(`${running.get(type)} ${type} tasks running`);
      let over = false;
      const end = () => {
        if (!over) running.set(type, running.get(type)! - 1);
        over = true;
      };
      signal.addEventListener('abort', () => {
        end();
        reject(signal.reason);
      });
      const behaviour = behaviours[attempt - 1]!;
      if (behaviour.kind === 'hang') return;
      clock.setTimeout(() => {
        if (over) return;
        end();
        if (behaviour.kind === 'ok') resolve({ index });
        else reject(Object.assign(new Error(behaviour.kind), { transient: behaviour.kind === 'transient' }));
      }, behaviour.ms);
    });
  const open = async () => {
    queue = await openTaskQueue({
      journal,
      name: 'prop',
      clock,
      compactAfter: s.compactAfter,
      random: () => 0.5,
      workers: Object.fromEntries(
        TYPES.map((type) => [
          type,
          {
            concurrency: s.concurrency[type],
            executor,
            timeLimitMs: TIME_LIMIT,
            retry: { maxAttempts: MAX_ATTEMPTS, backoff: { baseMs: 10, maxMs: 40 } },
          },
        ]),
      ),
    });
    unsubscribe = queue.subscribe((event) => {
      if (event.type === 'task.started') {
        starts.push(event.taskId);
        const view = queue.get(event.taskId)!;
        for (const dependency of view.dependencies) {
          const status = queue.get(dependency)?.status;
          if (status !== 'completed') violations.push(`${event.taskId} started while ${dependency} was ${status}`);
        }
      }
    });
  };
  await open();
  const specs: TaskSpecInput[] = s.tasks.map((task, i) => ({
    task_id: `t${i}`,
    agent_type: task.type,
    input_data: i,
    priority: task.priority,
    dependencies: task.deps.map((d) => `t${d}`),
  }));
  const size = Math.ceil(specs.length / s.batches);
  for (let from = 0; from < specs.length; from += size) {
    expect((await queue!.submit(specs.slice(from, from + size))).status).toBe('accepted');
  }
  for (let t = 0; t <= 2_000; t += 5) {
    if (t === s.crashAt) {
      queue!.close();
      unsubscribe();
      await new Promise((resolve) => setImmediate(resolve));
      await open();
    }
    clock.increment(5);
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(violations).toEqual([]);
  return { queue: queue!, starts, journal, clock };
}

describe('task queue (model-based, simulated clock)', () => {
  it('never runs more than the limit per agent type, never starts a task before its dependencies completed, and ends as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { queue, starts, journal, clock } = await runScenario({ ...s, crashAt: undefined });
        const expected = expectedStatuses(s.tasks);
        s.tasks.forEach((_, i) => {
          const view = queue.get(`t${i}`)!;
          expect(view.status).toBe(expected[i]);
          if (view.status === 'blocked') {
            expect(queue.get(view.blocked_by!)?.status).toBe('failed'); // the root of a block is a failed task
            expect(starts).not.toContain(`t${i}`); // blocked tasks never start
          }
          expect(view.attempts).toBeLessThanOrEqual(MAX_ATTEMPTS);
        });
        expect(queue.stats().unfinished).toBe(expected.filter((x) => x === 'blocked').length);
        // the journal (compacted or not) rebuilds exactly what the live queue holds
        const reopened = await openTaskQueue({ journal, name: 'prop', clock, workers: {} });
        s.tasks.forEach((_, i) => expect(reopened.get(`t${i}`)).toEqual(queue.get(`t${i}`)));
      }),
      { numRuns: 150 },
    );
  });

  it('keeps those rules across a restart, and every task still ends completed, failed or blocked', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { queue } = await runScenario({ ...s, crashAt: s.crashAt ?? 100 });
        for (let i = 0; i < s.tasks.length; i++) {
          const view = queue.get(`t${i}`)!;
          expect(['completed', 'failed', 'blocked']).toContain(view.status);
          if (view.status === 'completed') expect(view.result).toEqual({ index: i });
          if (view.status === 'blocked') expect(queue.get(view.blocked_by!)?.status).toBe('failed');
          // a task fails only for a reason its behaviours or the restart gave it
          if (view.status === 'failed' && view.error?.code !== 'interrupted') {
            expect(s.tasks[i]!.behaviours.some((b) => b.kind !== 'ok')).toBe(true);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
