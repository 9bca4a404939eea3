import { describe, expect, it } from 'vitest';
import { createMemoryJournal, type MemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { openDelegationTree } from '../../../../machines/runtime/delegation-tree.ts';
import type { DelegationRecord } from '../../../../protocol/runtime/delegation-record.ts';
import { TimerClock } from '../../../support/timer-clock.ts';

/** A tree on `journal` and a counting clock at `start`, recording the retries it sends. */
async function setup(journal: MemoryJournal<DelegationRecord> = createMemoryJournal(), start = 1_000) {
  const clock = new TimerClock();
  clock.set(start);
  const retries: [string, number, number][] = [];
  const tree = await openDelegationTree({
    journal,
    partition: 'tree',
    clock,
    random: () => 0,
    retry: { policy: { baseMs: 100, maxMs: 1_000 } },
    onRetry: (node, attempt) => retries.push([node.id, attempt, clock.now()]),
    onError: (error) => {
      throw error;
    },
  });
  const kinds = async () => (await journal.read('tree')).map((entry) => `${entry.data.kind}`);
  return { clock, tree, armed: () => clock.armed(), retries, journal, kinds };
}

describe('the timers of a delegation tree', () => {
  it('holds one watchdog per open delegation, one more while a retry waits, and none for a node that ended', async () => {
    const { tree, armed, clock } = await setup();
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 5_000 });
    await tree.delegate({ id: 'b', parent: 'a', owner: 'B', target: 'C', timeoutMs: 5_000 });
    await tree.fanOut({
      owner: 'A',
      strategy: 'all_success',
      children: [
        { id: 'x', target: 'X', timeoutMs: 5_000 },
        { id: 'y', target: 'Y', timeoutMs: 5_000 },
      ],
    });
    expect(armed()).toBe(4);
    await tree.report('b', { status: 'throttled' });
    expect(armed()).toBe(5);
    await tree.report('b', { status: 'success' });
    expect(armed()).toBe(3);
    await tree.report('x', { status: 'throttled' });
    await tree.cancel('a', { reason: 'done', cascade: true });
    expect(armed()).toBe(3);
    clock.increment(100); // x's retry goes out
    await tree.idle();
    expect(armed()).toBe(2);
    await tree.report('x', { status: 'failed' });
    await tree.report('y', { status: 'success' });
    await tree.idle();
    expect(tree.aggregate('fan-out/x')?.aggregated_status).toBe('partial');
    expect(armed()).toBe(0);
  });

  it('re-arms after a reopen only what is still open, and times out only those whose deadline passed', async () => {
    const journal = createMemoryJournal<DelegationRecord>();
    const before = await setup(journal);
    await before.tree.delegate({ id: 'done', owner: 'A', target: 'B', timeoutMs: 1_000 });
    await before.tree.delegate({ id: 'later', owner: 'A', target: 'B', timeoutMs: 9_000 });
    await before.tree.delegate({ id: 'gone', owner: 'A', target: 'B', timeoutMs: 9_000 });
    await before.tree.delegate({ id: 'due', owner: 'A', target: 'B', timeoutMs: 1_000 });
    await before.tree.report('done', { status: 'success' });
    await before.tree.report('gone', { status: 'failed' });
    await before.tree.close();

    const after = await setup(journal, 5_000);
    expect(after.tree.node('due')?.status).toBe('timeout');
    expect(after.armed()).toBe(1); // the watchdog of `later`
    expect((await after.kinds()).slice(6)).toEqual(['timed_out']);
    expect((await after.journal.read('tree')).at(-1)?.data).toEqual({ kind: 'timed_out', id: 'due', at: 5_000 });
  });

  it('sends the retry of a throttled answer after its backoff, also when it comes right after a reopen', async () => {
    const journal = createMemoryJournal<DelegationRecord>();
    const before = await setup(journal);
    await before.tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 10_000 });
    await before.tree.close();

    const after = await setup(journal, 2_000);
    expect(after.armed()).toBe(1);
    expect((await after.tree.report('a', { status: 'throttled' })).node.retryAt).toBe(2_100);
    after.clock.increment(0);
    await after.tree.idle();
    expect(after.retries).toEqual([]);
    after.clock.increment(100);
    await after.tree.idle();
    expect(after.retries).toEqual([['a', 1, 2_100]]);
  });

  it('sends a retry at the retryAt the node shows: a second throttled answer while one waits moves it', async () => {
    const journal = createMemoryJournal<DelegationRecord>();
    const running = await setup(journal);
    await running.tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 10_000 });
    await running.tree.report('a', { status: 'throttled' });
    running.clock.increment(50);
    const second = await running.tree.report('a', { status: 'throttled' });
    expect(second.node).toMatchObject({ throttled: 2, retryAt: 1_250 });
    expect(running.armed()).toBe(2);

    // The same records, reopened before either retry went out: the retry goes out at retryAt.
    const reopened = await setup(createMemoryJournal(journal.dump()), 1_050);
    for (const run of [running, reopened]) {
      run.clock.increment(1_249 - run.clock.now());
      await run.tree.idle();
      expect(run.retries).toEqual([]);
      run.clock.increment(1);
      await run.tree.idle();
      expect(run.retries).toEqual([['a', 2, 1_250]]);
      expect(run.tree.node('a')?.retryAt).toBeNull();
    }
  });
});
