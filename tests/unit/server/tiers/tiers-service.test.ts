import { afterEach, describe, expect, it, vi } from 'vitest';
import { TiersEnvelopeSchema } from '../../../../protocol/tiers/envelope.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import { solved, stubSpecialists } from '../../../support/tiers/stub-specialists.ts';
import type { Journal } from '../../../../actors/runtime/journal.ts';
import { BINARY_SEARCH_TASK, openTiers, settledTask, tiersData } from '../../../support/tiers/tiers-harness.ts';

/**
 * `data`'s journals as a process sees them that dies right after a given write: once the tree
 * journaled its `outcomes`-th outcome, and then (with `thenBeads`) Beads took one more write,
 * every later write never completes.
 */
function dyingAfter(data: ReturnType<typeof tiersData>, outcomes: number, thenBeads: boolean) {
  let seen = 0;
  let dead = false;
  const never = () => new Promise<never>(() => {});
  const dying = <T>(journal: Journal<T>, name: 'trees' | 'beads' | 'journal'): Journal<T> => ({
    ...journal,
    append: (partition, record) => {
      if (dead) return never();
      const written = journal.append(partition, record);
      if (name === 'trees' && (record as { kind?: string }).kind === 'outcome') seen++;
      if (seen === outcomes && name === (thenBeads ? 'beads' : 'trees')) dead = true;
      return written;
    },
    appendMany: (partition, records) => (dead ? never() : journal.appendMany(partition, records)),
  });
  return {
    ...data,
    journal: dying(data.journal, 'journal'),
    trees: dying(data.trees, 'trees'),
    beads: dying(data.beads, 'beads'),
    dead: () => dead,
  };
}

const open: TiersServiceImpl[] = [];
afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
});

describe('TiersServiceImpl', () => {
  it('solves a task through the four tiers: Monitor, Architect, Dispatcher, fleet and back', async () => {
    const data = tiersData();
    const service = await openTiers(data);
    open.push(service);
    const { task_id, status } = await service.submit('ada', BINARY_SEARCH_TASK);
    expect(status).toBe('working');
    const view = await settledTask(service, 'ada', task_id);
    expect(view.status).toBe('success');
    expect(view.outcome?.artifacts.map((a) => a.artifact_type)).toEqual(
      expect.arrayContaining(['code', 'test_result']),
    );
    const messages = (await service.messages('ada', task_id))!;
    for (const message of messages) expect(TiersEnvelopeSchema.safeParse(message).success).toBe(true);
    const edges = messages.map((m) => `${m.source_tier}>${m.target_tier}`);
    expect(edges[0]).toBe('PROGRESS_MONITOR>ABSTRACT_ARCHITECT');
    expect(edges).toContain('ROUTING_DISPATCHER>SPECIALIZED_FLEET');
    expect(edges.at(-1)).toBe('ABSTRACT_ARCHITECT>PROGRESS_MONITOR');
    const root = view.tree[0]!;
    expect(root.status).toBe('success');
    expect(root.children[0]!.target_tier).toBe('ROUTING_DISPATCHER');
    expect(root.children[0]!.children.map((c) => c.specialist).sort()).toEqual([
      'js-solver',
      'reviewer',
      'test-designer',
    ]);
    const keys = (await service.beads('ada', task_id))!.map((e) => e.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'task/current-objective',
        'task/constraints',
        'routing/task-graph',
        'routing/assignments',
        'system/routing-accuracy',
        'system/bottlenecks',
        'system/loaded-loras',
      ]),
    );
    expect(keys.some((k) => k.startsWith('execution/outputs/'))).toBe(true);
    expect(keys.some((k) => k.startsWith('execution/logs/'))).toBe(true);
    expect(view.outcome?.resources_used).toMatchObject({
      specialists_used: expect.arrayContaining(['js-solver']),
      attempts: 3,
      tokens: { input: 0, output: 0 },
    });
  });
});

describe('TiersServiceImpl across a restart', () => {
  it('resumes an unfinished task: what was not handled is handed over again, nothing handled twice', async () => {
    const data = tiersData();
    let reached!: () => void;
    const stuck = new Promise<void>((resolve) => (reached = resolve));
    const first = await openTiers(data, {
      brains: {
        specialists: stubSpecialists({
          'js-solver': () => {
            reached();
            return new Promise(() => {});
          },
        }),
      },
    });
    const { task_id } = await first.submit('ada', BINARY_SEARCH_TASK);
    await stuck;
    await first.close();
    const solves: number[] = [];
    const second = await openTiers(data, {
      brains: { specialists: stubSpecialists({ 'js-solver': (r) => (solves.push(1), solved(r)) }) },
    });
    open.push(second);
    const view = await settledTask(second, 'ada', task_id);
    expect(view.status).toBe('success');
    expect(solves).toHaveLength(1);
    const messages = (await second.messages('ada', task_id))!;
    expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
    expect(messages.filter((m) => m.source_tier === 'ABSTRACT_ARCHITECT' && 'task_type' in m.payload)).toHaveLength(1);
  });

  it('resumes every task accepted before the restart even when they are more than the host now admits', async () => {
    const data = tiersData();
    let reached = 0;
    const stuck = stubSpecialists({
      'js-solver': () => {
        reached++;
        return new Promise(() => {});
      },
    });
    const first = await openTiers(data, { brains: { specialists: stuck } });
    const a = await first.submit('ada', BINARY_SEARCH_TASK);
    const b = await first.submit('ada', BINARY_SEARCH_TASK);
    await vi.waitFor(() => expect(reached).toBe(2));
    await first.close();
    const second = await openTiers(data, { admission: { maxWorking: 1, maxPerOwner: 1 } });
    open.push(second);
    for (const { task_id } of [a, b]) expect((await settledTask(second, 'ada', task_id)).status).toBe('success');
    // The recovered tasks counted: a new one is admitted once they have ended.
    await vi.waitFor(() =>
      expect(second.submit('ada', BINARY_SEARCH_TASK)).resolves.toMatchObject({ status: 'working' }),
    );
  });

  it.each([
    ['the solver’s outcome was journaled, nothing after it', 1, false],
    ['the last specialist’s outcome and the graph were journaled, not the answer up', 3, true],
  ] as const)(
    'finishes the reaction cut short by a crash (%s), without waiting for a watchdog',
    async (_, outcomes, thenBeads) => {
      const data = tiersData();
      const dying = dyingAfter(data, outcomes, thenBeads);
      const first = await openTiers(dying);
      const { task_id } = await first.submit('ada', BINARY_SEARCH_TASK);
      await vi.waitFor(() => expect(dying.dead()).toBe(true));
      // The first process is gone (its writes never complete); the second opens the same data at the same instant.
      const second = await openTiers(data);
      open.push(second);
      const startedAt = data.clock.now();
      const view = await settledTask(second, 'ada', task_id);
      expect(view.status).toBe('success');
      expect(data.clock.now()).toBe(startedAt); // no watchdog had to fire: the clock never moved
      const fleet = view.tree[0]!.children[0]!.children;
      expect(fleet.map((c) => [c.specialist, c.status]).sort()).toEqual([
        ['js-solver', 'success'],
        ['reviewer', 'success'],
        ['test-designer', 'success'],
      ]);
      const messages = (await second.messages('ada', task_id))!;
      expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
    },
  );
});
