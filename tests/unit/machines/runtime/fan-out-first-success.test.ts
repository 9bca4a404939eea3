import fc from 'fast-check';
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import {
  emptyTree,
  type DelegationTreeState,
  type FanOutGroup,
} from '../../../../machines/runtime/delegation-tree-state.ts';
import { applyDelegationRecord } from '../../../../machines/runtime/delegation-tree-steps.ts';
import { openDelegationTree } from '../../../../machines/runtime/delegation-tree.ts';
import { planFanOut, siblingsToCancel, winnerOf } from '../../../../machines/runtime/fan-out-steps.ts';
import type { AggregationStrategy } from '../../../../protocol/runtime/aggregated-outcome.ts';
import type { DelegationRecord } from '../../../../protocol/runtime/delegation-record.ts';
import type { TerminalStatus } from '../../../../protocol/runtime/outcome-status.ts';

/** A tree holding one fan-out `race` of `members` under `strategy`, then each outcome in `outcomes` in turn. */
function raceOf(strategy: AggregationStrategy, members: string[], outcomes: [string, TerminalStatus][] = []) {
  const tree = emptyTree();
  const children = members.map((id) => ({ id, target: `lora-${id}`, timeoutMs: 10_000 }));
  for (const record of planFanOut(tree, { owner: 'D', strategy, group: 'race', children }, 0, 60_000)) {
    applyDelegationRecord(tree, record);
  }
  for (const [id, status] of outcomes) applyDelegationRecord(tree, { kind: 'outcome', id, status, at: 1, late: false });
  return tree;
}

const idsOf = (nodes: { id: string }[]) => nodes.map((node) => node.id);
const node = (tree: DelegationTreeState, id: string) => tree.nodes.get(id)!;

describe('winnerOf', () => {
  it('is the member of a first_success fan-out that succeeded first, in the order outcomes arrived', () => {
    const members = ['a', 'b', 'c', 'd'];
    fc.assert(
      fc.property(fc.shuffledSubarray(members, { minLength: 1 }), (succeeded) => {
        const tree = raceOf(
          'first_success',
          members,
          succeeded.map((id) => [id, 'success']),
        );
        expect(winnerOf(tree, 'race')?.id).toBe(succeeded[0]);
      }),
      { numRuns: 100 },
    );
  });

  it('is none before a success, under any other strategy, and for an unknown fan-out', () => {
    expect(winnerOf(raceOf('first_success', ['a', 'b'], [['a', 'failed']]), 'race')).toBeUndefined();
    for (const strategy of ['all_success', 'any_success', 'majority'] as const) {
      expect(winnerOf(raceOf(strategy, ['a', 'b'], [['b', 'success']]), 'race')).toBeUndefined();
    }
    expect(winnerOf(raceOf('first_success', ['a'], [['a', 'success']]), 'elsewhere')).toBeUndefined();
  });
});

describe('siblingsToCancel', () => {
  it("are a first_success winner's siblings still open: not the winner, not those that ended", () => {
    const tree = raceOf(
      'first_success',
      ['a', 'b', 'c', 'd'],
      [
        ['b', 'failed'],
        ['c', 'success'],
      ],
    );
    expect(idsOf(siblingsToCancel(tree, node(tree, 'c')))).toEqual(['a', 'd']);
  });

  it('are none for a member that failed, a success under another strategy, or a node outside any fan-out', () => {
    const race = raceOf('first_success', ['a', 'b'], [['a', 'failed']]);
    expect(siblingsToCancel(race, node(race, 'a'))).toEqual([]);
    for (const strategy of ['all_success', 'any_success', 'majority'] as const) {
      const tree = raceOf(strategy, ['a', 'b', 'c'], [['a', 'success']]);
      expect(siblingsToCancel(tree, node(tree, 'a'))).toEqual([]);
    }
    const lone = emptyTree();
    applyDelegationRecord(lone, {
      kind: 'delegated',
      id: 'x',
      parent: null,
      owner: 'A',
      target: 'B',
      deadline: 10,
      clamped: false,
      at: 0,
    });
    applyDelegationRecord(lone, { kind: 'outcome', id: 'x', status: 'success', at: 1, late: false });
    expect(siblingsToCancel(lone, node(lone, 'x'))).toEqual([]);
  });
});

describe('a first_success fan-out in a delegation tree', () => {
  async function setup() {
    const clock = new SimulatedClock();
    const journal = createMemoryJournal<DelegationRecord>();
    const told: Readonly<FanOutGroup>[] = [];
    const tree = await openDelegationTree({
      journal,
      partition: 'tree',
      clock,
      onAggregated: (group) => told.push(group),
    });
    const records = async () => (await journal.read('tree')).map((entry) => entry.data);
    return { tree, told, records };
  }

  it("journals why it cancelled each open sibling, once, and leaves the winner's own work running", async () => {
    const { tree, records } = await setup();
    await tree.fanOut({
      owner: 'DISPATCHER',
      strategy: 'first_success',
      group: 'race',
      children: ['a', 'b', 'c', 'd'].map((id) => ({ id, target: 'lora', timeoutMs: 30_000 })),
    });
    await tree.delegate({ id: 'b-tool', parent: 'b', owner: 'lora', target: 'tool', timeoutMs: 1_000 });
    await tree.delegate({ id: 'c-tool', parent: 'c', owner: 'lora', target: 'tool', timeoutMs: 1_000 });
    await tree.report('a', { status: 'failed' });
    await tree.report('c', { status: 'success' });
    await tree.idle();
    expect(tree.node('c-tool')?.status).toBe('open');
    expect(tree.node('b-tool')?.status).toBe('cancelled');
    const cancellations = (await records()).filter((record) => record.kind === 'cancelled');
    expect(cancellations.map((record) => [record.id, record.reason, record.cascade])).toEqual([
      ['b', 'first_success: c succeeded first', true],
      ['d', 'first_success: c succeeded first', true],
    ]);
  });

  it('tells the aggregate with the fan-out it belongs to, members in the order delegated', async () => {
    const { tree, told } = await setup();
    await tree.delegate({ id: 'p', owner: 'ARCHITECT', target: 'DISPATCHER', timeoutMs: 60_000 });
    await tree.fanOut({
      parent: 'p',
      owner: 'DISPATCHER',
      strategy: 'first_success',
      children: ['m2', 'm3'].map((id) => ({ id, target: 'lora' })),
    });
    await tree.report('m3', { status: 'success' });
    await tree.idle();
    expect(told).toEqual([{ id: 'fan-out/m2', strategy: 'first_success', parent: 'p', members: ['m2', 'm3'] }]);
  });

  it('refuses a second fan-out with the same group id, saying to choose another', async () => {
    const { tree } = await setup();
    await tree.fanOut({ owner: 'D', strategy: 'majority', group: 'g', children: [{ id: 'a', target: 't' }] });
    await expect(
      tree.fanOut({ owner: 'D', strategy: 'majority', group: 'g', children: [{ id: 'b', target: 't' }] }),
    ).rejects.toThrow('Fan-out g already exists: give the new one another group id.');
  });
});
