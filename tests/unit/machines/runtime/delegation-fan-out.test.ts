import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import type { FanOutGroup } from '../../../../machines/runtime/delegation-tree-state.ts';
import { openDelegationTree, type DelegationTreeOptions } from '../../../../machines/runtime/delegation-tree.ts';
import type { AggregatedOutcome, AggregationStrategy } from '../../../../protocol/runtime/aggregated-outcome.ts';
import type { DelegationRecord } from '../../../../protocol/runtime/delegation-record.ts';

/** A tree on a memory journal and a simulated clock, recording the aggregates it tells. */
async function setup(options: Partial<DelegationTreeOptions> = {}) {
  const clock = new SimulatedClock();
  const journal = createMemoryJournal<DelegationRecord>();
  const told: [string, AggregatedOutcome][] = [];
  const open = () =>
    openDelegationTree({
      journal,
      partition: 'tree',
      clock,
      partialResults: (node) => `partial of ${node.id}`,
      onAggregated: (group: Readonly<FanOutGroup>, aggregate) => told.push([group.id, aggregate]),
      ...options,
    });
  const tree = await open();
  const kinds = async () => (await journal.read('tree')).map((entry) => entry.data.kind);
  return { clock, journal, tree, told, open, kinds };
}

const three = (timeoutMs = 30_000) => [
  { id: 'msg-002', target: 'python-lora', timeoutMs },
  { id: 'msg-003', target: 'python-lora', timeoutMs },
  { id: 'msg-004', target: 'test-lora', timeoutMs },
];

describe('DelegationTree.fanOut', () => {
  it("aggregates spec 002's example once the last child ends: two successes and a timeout are partial", async () => {
    const { tree, clock, told, kinds } = await setup();
    await tree.delegate({ id: 'msg-001', owner: 'ARCHITECT', target: 'DISPATCHER', timeoutMs: 60_000 });
    const children = await tree.fanOut({
      parent: 'msg-001',
      owner: 'DISPATCHER',
      strategy: 'all_success',
      children: three(),
    });
    expect(children.map((child) => [child.id, child.group?.id, child.parent])).toEqual([
      ['msg-002', 'fan-out/msg-002', 'msg-001'],
      ['msg-003', 'fan-out/msg-002', 'msg-001'],
      ['msg-004', 'fan-out/msg-002', 'msg-001'],
    ]);
    await tree.report('msg-003', { status: 'success', confidence: 0.9 });
    await tree.report('msg-002', { status: 'success', confidence: 0.92 });
    expect(tree.aggregate('fan-out/msg-002')).toBeUndefined();
    clock.increment(30_000); // test-lora never answers
    await tree.idle();
    const aggregate = tree.aggregate('fan-out/msg-002')!;
    expect(aggregate).toMatchObject({
      aggregated_status: 'partial',
      succeeded: 2,
      failed: 1,
      strategy_used: 'all_success',
    });
    expect(aggregate.child_outcomes.map((child) => [child.message_id, child.status, child.specialist])).toEqual([
      ['msg-003', 'success', 'python-lora'],
      ['msg-002', 'success', 'python-lora'],
      ['msg-004', 'timeout', 'test-lora'],
    ]);
    expect(aggregate.aggregated_confidence).toBeCloseTo((0.9 + 0.92) / 3, 10);
    expect(told).toEqual([['fan-out/msg-002', aggregate]]);
    expect(await kinds()).toEqual([
      'delegated',
      'delegated',
      'delegated',
      'delegated',
      'outcome',
      'outcome',
      'timed_out',
      'aggregated',
    ]);
  });

  it('under first_success, the first success cancels the others (and their subtrees) with partial results', async () => {
    const { tree, told } = await setup();
    await tree.fanOut({ owner: 'DISPATCHER', strategy: 'first_success', group: 'race', children: three() });
    await tree.delegate({ id: 'deep', parent: 'msg-004', owner: 'test-lora', target: 'tool', timeoutMs: 1_000 });
    await tree.report('msg-002', { status: 'failed', confidence: 0.1 });
    await tree.report('msg-003', { status: 'success', confidence: 0.8 });
    expect(tree.node('msg-004')).toMatchObject({ status: 'cancelled', result: 'partial of msg-004' });
    expect(tree.node('deep')?.status).toBe('cancelled');
    expect((await tree.report('msg-004', { status: 'success' })).late).toBe(true);
    await tree.idle();
    expect(told).toHaveLength(1);
    expect(told[0]![1]).toMatchObject({ aggregated_status: 'success', succeeded: 1, aggregated_confidence: 0.8 });
    expect(told[0]![1].child_outcomes.map((child) => child.status)).toEqual(['failed', 'success', 'cancelled']);
  });

  it('does not cancel siblings under the other strategies', async () => {
    const { tree } = await setup();
    await tree.fanOut({ owner: 'D', strategy: 'any_success', children: three() });
    await tree.report('msg-002', { status: 'success' });
    expect(tree.node('msg-003')?.status).toBe('open');
    expect(tree.aggregate('fan-out/msg-002')).toBeUndefined();
  });

  it('journals the aggregate but tells nobody once the parent has ended', async () => {
    const cascade = await setup();
    await cascade.tree.delegate({ id: 'p', owner: 'A', target: 'D', timeoutMs: 60_000 });
    await cascade.tree.fanOut({ parent: 'p', owner: 'D', strategy: 'majority', children: three() });
    await cascade.tree.cancel('p', { reason: 'revised', cascade: true });
    await cascade.tree.idle();
    expect(cascade.tree.aggregate('fan-out/msg-002')).toMatchObject({ aggregated_status: 'failed', escalate: true });
    expect(cascade.told).toEqual([]);

    const abandoned = await setup();
    await abandoned.tree.delegate({ id: 'p', owner: 'A', target: 'D', timeoutMs: 60_000 });
    await abandoned.tree.fanOut({ parent: 'p', owner: 'D', strategy: 'majority', children: three() });
    await abandoned.tree.cancel('p', { reason: 'revised', cascade: false });
    for (const id of ['msg-002', 'msg-003', 'msg-004']) await abandoned.tree.report(id, { status: 'success' });
    await abandoned.tree.idle();
    expect(abandoned.tree.aggregate('fan-out/msg-002')?.aggregated_status).toBe('success');
    expect(abandoned.told).toEqual([]);
  });

  it('refuses an empty fan-out, a child id already used and a group id already used, delegating nothing', async () => {
    const { tree, kinds } = await setup();
    await expect(tree.fanOut({ owner: 'D', strategy: 'majority', children: [] })).rejects.toThrow(/at least one child/);
    await tree.delegate({ id: 'msg-003', owner: 'A', target: 'B' });
    await expect(tree.fanOut({ owner: 'D', strategy: 'majority', children: three() })).rejects.toMatchObject({
      code: 'delegation_exists',
      message: expect.stringMatching(/msg-003 already exists/),
    });
    const twice = [
      { id: 'x', target: 't' },
      { id: 'x', target: 't' },
    ];
    await expect(tree.fanOut({ owner: 'D', strategy: 'majority', children: twice })).rejects.toMatchObject({
      code: 'delegation_exists',
    });
    await tree.fanOut({ owner: 'D', strategy: 'majority', group: 'g', children: [{ id: 'y', target: 't' }] });
    await expect(
      tree.fanOut({ owner: 'D', strategy: 'majority', group: 'g', children: [{ id: 'z', target: 't' }] }),
    ).rejects.toMatchObject({ code: 'fan_out_exists' });
    expect(await kinds()).toEqual(['delegated', 'delegated']);
  });

  it('after a restart, finishes what a stop cut short: the winner cancels the rest, the last end aggregates', async () => {
    const journal = createMemoryJournal<DelegationRecord>();
    const group = { id: 'race', strategy: 'first_success' as const };
    const delegated = (
      id: string,
      groupRef: { id: string; strategy: AggregationStrategy } = group,
    ): DelegationRecord => ({
      kind: 'delegated',
      id,
      parent: null,
      owner: 'D',
      target: 'lora',
      deadline: 60_000,
      clamped: false,
      at: 0,
      group: groupRef,
    });
    const all = { id: 'all', strategy: 'all_success' as const };
    await journal.appendMany('tree', [
      delegated('a'),
      delegated('b'),
      delegated('c'),
      { kind: 'outcome', id: 'b', status: 'success', confidence: 0.7, at: 5, late: false },
      delegated('d', all),
      { kind: 'outcome', id: 'd', status: 'success', at: 6, late: false },
    ]);
    const { tree, told } = await setup({ journal });
    expect(tree.node('a')).toMatchObject({ status: 'cancelled', result: 'partial of a' });
    expect(tree.node('c')?.status).toBe('cancelled');
    expect(tree.aggregate('race')).toMatchObject({ aggregated_status: 'success', aggregated_confidence: 0.7 });
    expect(told.map(([id]) => id).sort()).toEqual(['all', 'race']);
    const again = await setup({ journal });
    expect(again.told).toEqual([]);
    expect(again.tree.aggregate('all')?.aggregated_status).toBe('success');
  });

  it('refuses a confidence outside 0..1', async () => {
    const { tree } = await setup();
    await tree.delegate({ id: 'a', owner: 'A', target: 'B' });
    await expect(tree.report('a', { status: 'success', confidence: 1.5 })).rejects.toThrow(/within 0\.\.1/);
    expect(tree.node('a')?.status).toBe('open');
  });
});
