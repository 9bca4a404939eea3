import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedClock } from 'xstate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../../actors/runtime/file-journal.ts';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { openDelegationTree, type DelegationNodeView } from '../../../../machines/runtime/delegation-tree.ts';
import type { DelegationRecord } from '../../../../protocol/runtime/delegation-record.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'delegation-tree-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const clockAt = (now: number) => {
  const clock = new SimulatedClock();
  clock.set(now);
  return clock;
};

/** Opens the tree journaled in `dir` on a clock at `now`, recording what its hooks hear. */
async function openAt(now: number) {
  const journal = await openFileJournal<DelegationRecord>(join(dir, 'journal'), { warn: () => {} });
  const clock = clockAt(now);
  const settled: DelegationNodeView[] = [];
  const retries: [string, number][] = [];
  const tree = await openDelegationTree({
    journal,
    partition: 'delegations/root',
    clock,
    random: () => 0,
    retry: { policy: { baseMs: 1_000, maxMs: 1_000 } },
    onSettled: (node) => settled.push(node),
    onRetry: (node, attempt) => retries.push([node.id, attempt]),
  });
  return { journal, clock, tree, settled, retries };
}

describe('openDelegationTree after a restart', () => {
  it('rebuilds the tree from the file journal and re-arms each watchdog from its absolute deadline', async () => {
    const before = await openAt(0);
    await before.tree.delegate({ id: 'root', owner: 'A', target: 'B', timeoutMs: 10_000 });
    await before.tree.delegate({ id: 'c1', parent: 'root', owner: 'B', target: 'C', timeoutMs: 2_000 });
    await before.tree.delegate({ id: 'c2', parent: 'root', owner: 'B', target: 'C', timeoutMs: 5_000 });
    await before.tree.delegate({ id: 'c3', parent: 'root', owner: 'B', target: 'C', timeoutMs: 5_000 });
    await before.tree.report('c3', { status: 'success', result: 'done' });
    await before.tree.report('c3', { status: 'failed' }); // late
    await before.tree.cancel('c2', { reason: 'redundant', cascade: false });
    const expected = before.tree.nodes();
    await before.journal.close(); // the process stops here: no close of the tree, its timers die with it

    const after = await openAt(1_000);
    expect(after.tree.nodes()).toEqual(expected);
    expect(after.settled).toEqual([]);
    after.clock.increment(999);
    await after.tree.idle();
    expect(after.tree.node('c1')?.status).toBe('open');
    after.clock.increment(1);
    await after.tree.idle();
    expect(after.settled.map((node) => `${node.id}:${node.status}@${node.settledAt}`)).toEqual(['c1:timeout@2000']);
    after.clock.increment(8_000);
    await after.tree.idle();
    expect(after.settled.map((node) => node.id)).toEqual(['c1', 'root']);
    await after.journal.close();
  });

  it('times out at once what passed its deadline while down', async () => {
    const before = await openAt(0);
    await before.tree.delegate({ id: 'root', owner: 'A', target: 'B', timeoutMs: 10_000 });
    await before.tree.delegate({ id: 'short', parent: 'root', owner: 'B', target: 'C', timeoutMs: 1_000 });
    await before.tree.delegate({ id: 'due', parent: 'root', owner: 'B', target: 'C', timeoutMs: 4_000 });
    await before.journal.close();

    const after = await openAt(4_000);
    // Timed out inside open (also the one due right now), journaled, before any clock turn.
    expect(after.tree.node('short')).toMatchObject({ status: 'timeout', settledAt: 4_000 });
    expect(after.tree.node('due')).toMatchObject({ status: 'timeout', settledAt: 4_000 });
    expect(after.tree.node('root')?.status).toBe('open');
    expect(after.settled.map((node) => node.id)).toEqual(['short', 'due']);
    await after.journal.close();

    const again = await openAt(4_500);
    expect(again.tree.node('short')).toMatchObject({ status: 'timeout', settledAt: 4_000 });
    expect(again.settled).toEqual([]);
    await again.journal.close();
  });

  it('re-arms a pending retry, and sends it at once if its time passed', async () => {
    const before = await openAt(0);
    await before.tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 60_000 });
    await before.tree.delegate({ id: 'b', owner: 'A', target: 'B', timeoutMs: 60_000 });
    await before.tree.report('a', { status: 'throttled' }); // retry at 1000
    await before.tree.report('b', { status: 'throttled' }); // retry at 1000
    before.clock.increment(1_000);
    await before.tree.idle();
    expect(before.retries).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    await before.tree.report('a', { status: 'throttled' }); // retry at 2000
    await before.journal.close();

    const after = await openAt(1_500);
    expect(after.tree.node('a')).toMatchObject({ retryAt: 2_000, throttled: 2 });
    expect(after.tree.node('b')).toMatchObject({ retryAt: null, throttled: 1 });
    after.clock.increment(499);
    await after.tree.idle();
    expect(after.retries).toEqual([]);
    await after.journal.close(); // down again before the retry went out

    const late = await openAt(3_000);
    expect(late.retries).toEqual([]);
    late.clock.increment(0);
    await late.tree.idle();
    expect(late.retries).toEqual([['a', 2]]);
    await late.journal.close();

    const last = await openAt(3_500);
    last.clock.increment(0);
    await last.tree.idle();
    expect(last.retries).toEqual([]); // the retry was journaled as sent
    await last.journal.close();
  });

  it('refuses a partition holding something that is not a delegation record, naming it', async () => {
    const journal = createMemoryJournal<DelegationRecord>();
    await journal.append('p', { kind: 'delegated', id: 'a' } as DelegationRecord);
    await expect(openDelegationTree({ journal, partition: 'p', clock: clockAt(0) })).rejects.toMatchObject({
      code: 'data_file_corrupt',
      message: expect.stringMatching(/journal partition p .*entry 1 is not a delegation record/),
    });
  });
});
