import { SimulatedClock } from 'xstate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { openDelegationTree, type DelegationTreeOptions } from '../../../../machines/runtime/delegation-tree.ts';
import type { DelegationRecord } from '../../../../protocol/runtime/delegation-record.ts';

/** A tree on a memory journal and a simulated clock at t = 0, with only the options given. */
async function setup(options: Partial<DelegationTreeOptions> = {}) {
  const clock = new SimulatedClock();
  const retries: [number, number][] = [];
  const tree = await openDelegationTree({
    journal: createMemoryJournal<DelegationRecord>(),
    partition: 'tree',
    clock,
    random: () => 0,
    onRetry: (_, attempt) => retries.push([attempt, clock.now()]),
    ...options,
  });
  return { clock, tree, retries };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('openDelegationTree defaults', () => {
  it("backs a throttled delegation off from 1 s, doubling up to 10 s (spec 002's policy)", async () => {
    const { clock, tree, retries } = await setup({ retry: { maxRetries: 5 } });
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 100_000 });
    for (const delay of [1_000, 2_000, 4_000, 8_000, 10_000]) {
      const at = clock.now();
      expect((await tree.report('a', { status: 'throttled' })).node.retryAt).toBe(at + delay);
      clock.increment(delay);
      await tree.idle();
    }
    expect(retries).toEqual([
      [1, 1_000],
      [2, 3_000],
      [3, 7_000],
      [4, 15_000],
      [5, 25_000],
    ]);
    expect((await tree.report('a', { status: 'throttled' })).node).toMatchObject({ status: 'failed', throttled: 6 });
  });

  it('retries a throttled delegation 3 times at most', async () => {
    const { clock, tree, retries } = await setup();
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 100_000 });
    for (let i = 0; i < 3; i++) {
      await tree.report('a', { status: 'throttled' });
      clock.increment(10_000);
      await tree.idle();
    }
    expect(retries.map(([attempt]) => attempt)).toEqual([1, 2, 3]);
    expect((await tree.report('a', { status: 'throttled' })).node).toMatchObject({ status: 'failed' });
  });

  it('reports what failed without a caller to console.error when no onError is given', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broke = new Error('hook broke');
    const { tree } = await setup({
      onSettled: () => {
        throw broke;
      },
    });
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 100 });
    await tree.report('a', { status: 'success' });
    expect(logged.mock.calls).toEqual([[broke]]);
  });

  it('runs without any hook', async () => {
    const errors: unknown[] = [];
    const clock = new SimulatedClock();
    const tree = await openDelegationTree({
      journal: createMemoryJournal<DelegationRecord>(),
      partition: 'tree',
      clock,
      random: () => 0,
      onError: (error) => errors.push(error),
    });
    await tree.delegate({ id: 'p', owner: 'A', target: 'B', timeoutMs: 60_000 });
    await tree.fanOut({
      parent: 'p',
      owner: 'B',
      strategy: 'all_success',
      children: [
        { id: 'a', target: 'C' },
        { id: 'b', target: 'C' },
      ],
    });
    await tree.report('a', { status: 'throttled' });
    clock.increment(1_000);
    await tree.report('a', { status: 'success' });
    await tree.report('b', { status: 'failed' });
    await tree.cancel('p', { reason: 'done', cascade: true });
    await tree.idle();
    expect(tree.aggregate('fan-out/a')?.aggregated_status).toBe('partial');
    expect(tree.nodes().map((node) => node.status)).toEqual(['cancelled', 'success', 'failed']);
    expect(errors).toEqual([]);
  });

  it('answers a node as a frozen copy, and nothing for an id it never saw', async () => {
    const { tree } = await setup();
    await tree.delegate({ id: 'p', owner: 'A', target: 'B', timeoutMs: 1_000 });
    await tree.delegate({ id: 'c', parent: 'p', owner: 'B', target: 'C', timeoutMs: 1_000 });
    const node = tree.node('p')!;
    expect(Object.isFrozen(node)).toBe(true);
    expect(node.children).toEqual(['c']);
    await tree.delegate({ id: 'd', parent: 'p', owner: 'B', target: 'C', timeoutMs: 1_000 });
    expect(node.children).toEqual(['c']);
    expect(tree.node('zz')).toBeUndefined();
  });
});
