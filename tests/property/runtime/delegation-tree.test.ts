import fc from 'fast-check';
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../actors/runtime/shared-state/open-shared-state.ts';
import {
  openDelegationTree,
  type DelegationNodeView,
  type DelegationTree,
} from '../../../machines/runtime/delegation-tree.ts';
import { emptyTree } from '../../../machines/runtime/delegation-tree-state.ts';
import { applyDelegationRecord } from '../../../machines/runtime/delegation-tree-steps.ts';
import { createIdempotentHandler } from '../../../machines/runtime/idempotent-handler.ts';
import type { DelegationRecord } from '../../../protocol/runtime/delegation-record.ts';
import { AggregationStrategySchema } from '../../../protocol/runtime/aggregated-outcome.ts';
import { OutcomeStatusSchema, type OutcomeStatus } from '../../../protocol/runtime/outcome-status.ts';
import { BEADS_SCHEMA as beadsSchema } from '../../../protocol/tiers/beads.ts';

const NUM_RUNS = 300;
const statuses = OutcomeStatusSchema.options;

/*
 * Random trees under random outcomes, duplicate deliveries, timeouts, cancellations (cascading or
 * not) and restarts. A `deliver` runs the target's handler through the idempotent handler (so
 * duplicates, also two at once, also after a restart, must not run it again) and reports what it
 * answered; a `report` is a stray outcome straight from the wire.
 */
const commandArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('delegate' as const),
      // Among the last few delegations, so that trees grow deep as well as wide.
      parent: fc.option(fc.nat({ max: 3 }), { freq: 4 }),
      timeoutMs: fc.integer({ min: 1, max: 12_000 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deliver' as const), node: fc.nat(), twice: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('report' as const),
      node: fc.nat(),
      status: fc.constantFrom(...statuses),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      // `up` levels above one of the last few delegations: cancellations that reach open subtrees.
      recent: fc.nat({ max: 3 }),
      up: fc.nat({ max: 3 }),
      cascade: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 1_500 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redelegate' as const), node: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('fanOut' as const),
      parent: fc.option(fc.nat({ max: 3 }), { freq: 3 }),
      strategy: fc.constantFrom(...AggregationStrategySchema.options),
      timeouts: fc.array(fc.integer({ min: 1, max: 12_000 }), { minLength: 1, maxLength: 3 }),
    }),
  },
);
type Command = typeof commandArb extends fc.Arbitrary<infer C> ? C : never;

/** What a cascading cancellation promised: each descendant ends cancelled or as it was then. */
interface CascadeCheck {
  before: Map<string, DelegationNodeView['status']>;
}

async function run(commands: Command[], answers: OutcomeStatus[]) {
  const clock = new SimulatedClock();
  const journal = createMemoryJournal<DelegationRecord>();
  // Seen responses live in spec 002's shared state, on a journal of its own that outlives restarts.
  const stateJournal = createMemoryJournal();
  const openState = () => openSharedState({ journal: stateJournal, schema: beadsSchema, scopes: { user: 'u' }, clock });
  let cache = openState();
  const notified = new Map<string, number>();
  const handlerRuns = new Map<string, number>();
  const ids: string[] = [];
  const checks: CascadeCheck[] = [];
  const firstTerminal = new Map<string, string>();

  const open = () =>
    openDelegationTree({
      journal,
      partition: 'tree',
      clock,
      random: () => 0.5,
      retry: { policy: { baseMs: 50, maxMs: 400 }, maxRetries: 2 },
      partialResults: (node) => ({ partOf: node.id }),
      onSettled: (node) => notified.set(node.id, (notified.get(node.id) ?? 0) + 1),
      onError: (error) => {
        throw error;
      },
    });
  const handlerFor = (tree: DelegationTree) =>
    createIdempotentHandler<string, { status: OutcomeStatus }>({
      cache,
      role: 'MONITOR',
      keyPrefix: 'system/seen-messages',
      scope: 'TARGET',
      clock,
      isTerminal: (outcome) => outcome.status !== 'throttled',
      handle: async (id) => {
        handlerRuns.set(id, (handlerRuns.get(id) ?? 0) + 1);
        expect(tree.node(id)).toBeDefined();
        return { status: answers[ids.indexOf(id) % answers.length]! };
      },
    });
  let tree = await open();
  let handler = handlerFor(tree);
  const pick = (n: number) => ids[n % ids.length]!;

  const observe = () => {
    for (const node of tree.nodes()) {
      const seen = firstTerminal.get(node.id);
      if (seen)
        expect(node.status).toBe(seen); // a terminal outcome never changes
      else if (node.status !== 'open') firstTerminal.set(node.id, node.status);
    }
  };

  for (const command of commands) {
    switch (command.kind) {
      case 'delegate': {
        const id = `n${ids.length}`;
        const parent =
          command.parent === null || ids.length === 0 ? null : ids[Math.max(0, ids.length - 1 - command.parent)]!;
        const parentNode = parent === null ? undefined : tree.node(parent);
        if (parentNode && parentNode.status !== 'open') {
          await expect(
            tree.delegate({ id, parent, owner: 'o', target: 't', timeoutMs: command.timeoutMs }),
          ).rejects.toMatchObject({ code: 'delegation_ended' });
          break;
        }
        const node = await tree.delegate({ id, parent, owner: 'o', target: 't', timeoutMs: command.timeoutMs });
        if (parentNode) expect(node.deadline).toBeLessThanOrEqual(parentNode.deadline);
        expect(node.deadline).toBeLessThanOrEqual(clock.now() + command.timeoutMs);
        ids.push(id);
        break;
      }
      case 'fanOut': {
        const parent =
          command.parent === null || ids.length === 0 ? null : ids[Math.max(0, ids.length - 1 - command.parent)]!;
        const children = command.timeouts.map((timeoutMs, i) => ({ id: `n${ids.length + i}`, target: 't', timeoutMs }));
        const request = { parent, owner: 'o', strategy: command.strategy, children };
        if (parent !== null && tree.node(parent)!.status !== 'open') {
          await expect(tree.fanOut(request)).rejects.toMatchObject({ code: 'delegation_ended' });
          break;
        }
        await tree.fanOut(request);
        ids.push(...children.map((child) => child.id));
        break;
      }
      case 'redelegate': {
        if (ids.length === 0) break;
        const id = pick(command.node);
        const before = tree.node(id);
        expect(await tree.delegate({ id, owner: 'x', target: 'y', timeoutMs: 1 })).toEqual(before);
        break;
      }
      case 'deliver': {
        if (ids.length === 0) break;
        const id = pick(command.node);
        const deliveries = command.twice ? [handler.handle(id, id), handler.handle(id, id)] : [handler.handle(id, id)];
        const outcomes = await Promise.all(deliveries);
        expect(new Set(outcomes.map((outcome) => outcome.status)).size).toBe(1);
        for (const outcome of outcomes) await tree.report(id, outcome);
        break;
      }
      case 'report': {
        if (ids.length === 0) break;
        await tree.report(pick(command.node), { status: command.status });
        break;
      }
      case 'cancel': {
        if (ids.length === 0) break;
        let id = ids[Math.max(0, ids.length - 1 - command.recent)]!;
        for (let up = command.up; up > 0 && tree.node(id)!.parent !== null; up--) id = tree.node(id)!.parent!;
        if (command.cascade) {
          const before = new Map(tree.nodes().map((node) => [node.id, node.status] as const));
          const under = new Set<string>();
          const walk = (at: string) => tree.node(at)!.children.forEach((child) => (under.add(child), walk(child)));
          walk(id);
          under.add(id);
          checks.push({ before: new Map([...before].filter(([node]) => under.has(node))) });
        }
        await tree.cancel(id, { reason: 'property', cascade: command.cascade });
        break;
      }
      case 'advance': {
        clock.increment(command.ms);
        await tree.idle();
        break;
      }
      case 'restart': {
        await tree.close();
        await cache.close();
        cache = openState();
        tree = await open();
        handler = handlerFor(tree);
        break;
      }
    }
    observe();
  }

  // Let every watchdog fire: nothing stays open.
  clock.increment(1_000_000);
  await tree.idle();
  observe();

  const final = new Map(tree.nodes().map((node) => [node.id, node] as const));
  expect([...final.keys()]).toEqual(ids);
  for (const node of final.values()) {
    expect(node.status).not.toBe('open');
    expect(node.retryAt).toBeNull();
    // Told once, unless abandoned (its result is ignored), then never.
    expect(notified.get(node.id) ?? 0).toBe(node.abandoned ? 0 : 1);
  }
  for (const { before } of checks) {
    for (const [id, status] of before) {
      const end = final.get(id)!.status;
      if (status === 'open') expect(end).toBe('cancelled');
      else expect(end).toBe(status);
    }
  }
  // The handler ran once per request id whose answer was terminal (a throttled answer is not cached).
  for (const [id, runs] of handlerRuns) {
    if (answers[ids.indexOf(id) % answers.length] !== 'throttled') expect(runs).toBe(1);
  }
  // Replaying the journal settles each node exactly once, to the same outcome.
  const replayed = emptyTree();
  const settledCount = new Map<string, number>();
  for (const { data } of await journal.read('tree')) {
    for (const node of applyDelegationRecord(replayed, data).settled) {
      settledCount.set(node.id, (settledCount.get(node.id) ?? 0) + 1);
    }
  }
  for (const [id, node] of final) {
    expect(settledCount.get(id)).toBe(1);
    expect(replayed.nodes.get(id)?.status).toBe(node.status);
  }
  // Every fan-out was aggregated once, over all its children; a first_success race has one winner at most.
  const aggregated = (await journal.read('tree')).filter((entry) => entry.data.kind === 'aggregated');
  expect(aggregated).toHaveLength(replayed.groups.size);
  for (const group of replayed.groups.values()) {
    const aggregate = tree.aggregate(group.id)!;
    expect(aggregate.child_outcomes.map((child) => child.message_id).sort()).toEqual([...group.members].sort());
    const winners = group.members.filter((id) => final.get(id)!.status === 'success');
    if (group.strategy === 'first_success') expect(winners.length).toBeLessThanOrEqual(1);
  }
  await tree.close();
}

/**
 * A tree built all at once, some nodes ended first, then one cancellation (cascading or not) and
 * stray outcomes, timeouts and restarts after it: the cascade claim checked on every run.
 */
async function cancelOnce(input: {
  parents: (number | null)[];
  before: [number, OutcomeStatus][];
  target: number;
  cascade: boolean;
  after: ([number, OutcomeStatus] | 'restart' | number)[];
}) {
  const clock = new SimulatedClock();
  const journal = createMemoryJournal<DelegationRecord>();
  const open = () => openDelegationTree({ journal, partition: 'tree', clock, random: () => 0.5 });
  let tree = await open();
  const ids = input.parents.map((_, i) => `n${i}`);
  for (const [i, parent] of input.parents.entries()) {
    const timeoutMs = 5_000 + 1_000 * i;
    await tree.delegate({
      id: ids[i]!,
      parent: parent === null ? null : ids[parent % i],
      owner: 'o',
      target: 't',
      timeoutMs,
    });
  }
  const at = (n: number) => ids[n % ids.length]!;
  for (const [n, status] of input.before) await tree.report(at(n), { status });
  const target = at(input.target);
  const before = new Map(tree.nodes().map((node) => [node.id, node] as const));
  const subtree = new Set<string>();
  const walk = (id: string): void => before.get(id)!.children.forEach((child) => (subtree.add(child), walk(child)));
  walk(target);
  await tree.cancel(target, { reason: 'property', cascade: input.cascade });
  for (const event of input.after) {
    if (event === 'restart') {
      await tree.close();
      tree = await open();
    } else if (typeof event === 'number') {
      clock.increment(event);
      await tree.idle();
    } else {
      await tree.report(at(event[0]), { status: event[1] });
    }
  }
  clock.increment(1_000_000);
  await tree.idle();
  const end = (id: string) => tree.node(id)!;
  const targetBefore = before.get(target)!.status;
  expect(end(target).status).toBe(targetBefore === 'open' ? 'cancelled' : targetBefore);
  for (const id of subtree) {
    const was = before.get(id)!;
    if (input.cascade) {
      expect(end(id).status).toBe(was.status === 'open' ? 'cancelled' : was.status);
      if (was.status === 'open') expect(end(id).settledAt).toBe(0);
    } else if (was.status !== 'open') {
      expect(end(id).status).toBe(was.status);
    } else {
      // Abandoned children (and their subtrees) run on to an outcome of their own.
      expect(end(id).status).not.toBe('open');
      expect(end(id).abandoned).toBe(was.parent === target && targetBefore === 'open');
    }
  }
  await tree.close();
}

describe('delegation tree (property)', () => {
  it('ends every node once; a cascade ends each descendant cancelled or as it was; handlers run once per id', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(commandArb, { minLength: 1, maxLength: 50, size: 'max' }),
        fc.array(fc.constantFrom(...statuses), { minLength: 1, maxLength: 5 }),
        run,
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('ends each descendant of a cascading cancellation cancelled, or with the outcome it had before', async () => {
    const reported = fc.tuple(fc.nat(), fc.constantFrom(...statuses));
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          parents: fc
            .array(fc.option(fc.nat(), { freq: 6 }), { minLength: 1, maxLength: 25 })
            .map((parents) => [null, ...parents.slice(1)]),
          before: fc.array(reported, { maxLength: 10 }),
          target: fc.nat(),
          cascade: fc.boolean(),
          after: fc.array(fc.oneof(reported, fc.constant('restart' as const), fc.integer({ min: 0, max: 4_000 })), {
            maxLength: 20,
          }),
        }),
        cancelOnce,
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
