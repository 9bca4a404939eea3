import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import type { Journal } from '../../../../actors/runtime/journal.ts';
import {
  openDelegationTree,
  type DelegationNodeView,
  type DelegationTreeOptions,
} from '../../../../machines/runtime/delegation-tree.ts';
import type { DelegationRecord } from '../../../../protocol/runtime/delegation-record.ts';

/** A tree on a memory journal and a simulated clock at t = 1000, recording what its hooks hear. */
async function setup(options: Partial<DelegationTreeOptions> = {}) {
  const clock = options.clock ?? Object.assign(new SimulatedClock(), {});
  if (!options.clock) (clock as SimulatedClock).set(1_000);
  const journal = (options.journal ?? createMemoryJournal<DelegationRecord>()) as Journal<DelegationRecord>;
  const settled: DelegationNodeView[] = [];
  const retries: [string, number][] = [];
  const errors: unknown[] = [];
  const open = (more: Partial<DelegationTreeOptions> = {}) =>
    openDelegationTree({
      journal,
      partition: 'tree-1',
      clock,
      random: () => 0,
      onSettled: (node) => settled.push(node),
      onRetry: (node, attempt) => retries.push([node.id, attempt]),
      onError: (error) => errors.push(error),
      ...options,
      ...more,
    });
  const tree = await open();
  const records = async () => (await journal.read('tree-1')).map((entry) => entry.data);
  return { clock: clock as SimulatedClock, journal, tree, settled, retries, errors, open, records };
}

describe('openDelegationTree', () => {
  it('turns silence into timeout at the deadline, once, and journals it', async () => {
    const { clock, tree, settled, records } = await setup();
    await tree.delegate({ id: 'a', owner: 'ARCHITECT', target: 'DISPATCHER', timeoutMs: 500 });
    clock.increment(499);
    await tree.idle();
    expect(tree.node('a')?.status).toBe('open');
    clock.increment(1);
    await tree.idle();
    expect(tree.node('a')).toMatchObject({ status: 'timeout', settledBy: 'watchdog', settledAt: 1_500 });
    expect(settled.map((node) => [node.id, node.status])).toEqual([['a', 'timeout']]);
    clock.increment(10_000);
    await tree.idle();
    expect(settled).toHaveLength(1);
    expect((await records()).map((record) => record.kind)).toEqual(['delegated', 'timed_out']);
  });

  it("clamps a child's deadline to its parent's and times both out by then", async () => {
    const { clock, tree, settled } = await setup();
    await tree.delegate({ id: 'p', owner: 'A', target: 'B', timeoutMs: 1_000 });
    clock.increment(600);
    const child = await tree.delegate({ id: 'c', parent: 'p', owner: 'B', target: 'C', timeoutMs: 30_000 });
    expect(child).toMatchObject({ deadline: 2_000, clamped: true, parent: 'p' });
    const short = await tree.delegate({ id: 's', parent: 'p', owner: 'B', target: 'C', timeoutMs: 100 });
    expect(short).toMatchObject({ deadline: 1_700, clamped: false });
    expect(tree.node('p')?.children).toEqual(['c', 's']);
    clock.increment(400);
    await tree.idle();
    expect(settled.map((node) => node.id).sort()).toEqual(['c', 'p', 's']);
    expect(settled.every((node) => node.status === 'timeout')).toBe(true);
  });

  it('uses the default timeout when a delegation names none, and inherits the parent deadline below it', async () => {
    const { tree } = await setup({ defaultTimeoutMs: 2_000 });
    await tree.delegate({ id: 'p', owner: 'A', target: 'B' });
    expect(tree.node('p')?.deadline).toBe(3_000);
    expect((await tree.delegate({ id: 'c', parent: 'p', owner: 'B', target: 'C' })).deadline).toBe(3_000);
    await expect(tree.delegate({ id: 'z', owner: 'A', target: 'B', timeoutMs: 0 })).rejects.toThrow(/positive number/);
  });

  it('records the first outcome and journals a later one as late, changing nothing', async () => {
    const { clock, tree, settled, records } = await setup();
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 500 });
    const first = await tree.report('a', { status: 'success', result: { answer: 42 } });
    expect(first.late).toBe(false);
    expect(first.node).toMatchObject({ status: 'success', result: { answer: 42 }, settledBy: 'target' });
    const late = await tree.report('a', { status: 'failed', result: 'nope' });
    expect(late.late).toBe(true);
    expect(late.node).toMatchObject({ status: 'success', result: { answer: 42 }, lateOutcomes: 1 });
    clock.increment(1_000);
    await tree.idle();
    expect(tree.node('a')?.status).toBe('success');
    expect(settled.map((node) => node.status)).toEqual(['success']);
    expect((await records()).filter((record) => record.kind === 'outcome').map((record) => record.late)).toEqual([
      false,
      true,
    ]);
  });

  it('journals a reply after a timeout as late', async () => {
    const { clock, tree } = await setup();
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 10 });
    clock.increment(10);
    await tree.idle();
    const receipt = await tree.report('a', { status: 'success' });
    expect(receipt).toMatchObject({ late: true, node: { status: 'timeout' } });
  });

  it('cascades a cancellation to every open descendant, with partial results, keeping outcomes already reached', async () => {
    const partialsAsked: string[] = [];
    const { tree, settled, clock } = await setup({
      partialResults: (node) => {
        partialsAsked.push(node.id);
        return node.id === 'c1' ? { draft: 'half' } : undefined;
      },
    });
    await tree.delegate({ id: 'root', owner: 'A', target: 'B', timeoutMs: 1_000 });
    await tree.delegate({ id: 'c1', parent: 'root', owner: 'B', target: 'C', timeoutMs: 1_000 });
    await tree.delegate({ id: 'c2', parent: 'root', owner: 'B', target: 'C', timeoutMs: 1_000 });
    await tree.delegate({ id: 'g1', parent: 'c2', owner: 'C', target: 'D', timeoutMs: 1_000 });
    await tree.report('c2', { status: 'success' }); // ended before the cancellation; its child still runs
    const receipt = await tree.cancel('root', { reason: 'strategy revised', cascade: true });
    expect(receipt).toEqual({ late: false, cancelled: ['root', 'c1', 'g1'], abandoned: [] });
    expect(partialsAsked).toEqual(['root', 'c1', 'g1']);
    expect(tree.node('c1')).toMatchObject({
      status: 'cancelled',
      result: { draft: 'half' },
      settledBy: 'cancellation',
    });
    expect(tree.node('c2')?.status).toBe('success');
    expect(tree.node('g1')?.status).toBe('cancelled');
    await tree.report('c1', { status: 'success' });
    clock.increment(5_000);
    await tree.idle();
    expect(tree.node('c1')?.status).toBe('cancelled');
    expect(settled.map((node) => `${node.id}:${node.status}`)).toEqual([
      'c2:success',
      'root:cancelled',
      'c1:cancelled',
      'g1:cancelled',
    ]);
  });

  it('without cascade, abandons the children: they run on, and nobody hears their results', async () => {
    const { tree, settled, clock } = await setup();
    await tree.delegate({ id: 'root', owner: 'A', target: 'B', timeoutMs: 1_000 });
    await tree.delegate({ id: 'c1', parent: 'root', owner: 'B', target: 'C', timeoutMs: 1_000 });
    await tree.delegate({ id: 'c2', parent: 'root', owner: 'B', target: 'C', timeoutMs: 1_000 });
    await tree.delegate({ id: 'g1', parent: 'c1', owner: 'C', target: 'D', timeoutMs: 1_000 });
    await tree.report('c2', { status: 'failed' });
    const receipt = await tree.cancel('root', { reason: 'not needed', cascade: false });
    expect(receipt).toEqual({ late: false, cancelled: ['root'], abandoned: ['c1'] });
    expect(tree.node('c1')).toMatchObject({ status: 'open', abandoned: true });
    expect(tree.node('g1')).toMatchObject({ status: 'open', abandoned: false });
    await tree.report('g1', { status: 'success' }); // c1's own child still reports to c1's owner
    await tree.report('c1', { status: 'success' });
    expect(tree.node('c1')?.status).toBe('success');
    clock.increment(5_000);
    await tree.idle();
    expect(settled.map((node) => `${node.id}:${node.status}`)).toEqual(['c2:failed', 'root:cancelled', 'g1:success']);
  });

  it('leaves an ended node as it was when a cancellation arrives late', async () => {
    const { tree } = await setup();
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 1_000 });
    await tree.delegate({ id: 'b', parent: 'a', owner: 'B', target: 'C', timeoutMs: 1_000 });
    await tree.report('a', { status: 'partial' });
    expect(await tree.cancel('a', { reason: 'late', cascade: false })).toEqual({
      late: true,
      cancelled: [],
      abandoned: [],
    });
    expect(tree.node('b')).toMatchObject({ status: 'open', abandoned: false });
    expect(tree.node('a')?.status).toBe('partial');
  });

  it('refuses a child under an ended delegation, and names unknown ids', async () => {
    const { tree } = await setup();
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 1_000 });
    await tree.report('a', { status: 'blocked' });
    await expect(tree.delegate({ id: 'b', parent: 'a', owner: 'B', target: 'C' })).rejects.toMatchObject({
      code: 'delegation_ended',
      status: 409,
      message: expect.stringMatching(/already ended \(blocked\).*new delegation/),
    });
    await expect(tree.delegate({ id: 'b', parent: 'zz', owner: 'B', target: 'C' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/Delegation zz .*delegate it first/),
    });
    await expect(tree.report('zz', { status: 'success' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(tree.cancel('zz', { reason: 'x', cascade: true })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers a duplicate delegation with the existing node, journaling nothing', async () => {
    const { tree, records } = await setup();
    const first = await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 1_000 });
    const again = await tree.delegate({ id: 'a', owner: 'X', target: 'Y', timeoutMs: 5 });
    expect(again).toEqual(first);
    expect(await records()).toHaveLength(1);
  });

  it('retries a throttled delegation with backoff inside its deadline, then fails it when no retry fits', async () => {
    const { tree, clock, retries, settled, records } = await setup({
      retry: { policy: { baseMs: 100, maxMs: 1_000 }, maxRetries: 3 },
    });
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 350 });
    expect((await tree.report('a', { status: 'throttled' })).node).toMatchObject({ status: 'open', retryAt: 1_100 });
    clock.increment(99);
    await tree.idle();
    expect(retries).toEqual([]);
    clock.increment(1);
    await tree.idle();
    expect(retries).toEqual([['a', 1]]);
    expect(tree.node('a')?.retryAt).toBeNull();
    expect((await tree.report('a', { status: 'throttled' })).node.retryAt).toBe(1_300);
    clock.increment(200);
    await tree.idle();
    expect(retries).toEqual([
      ['a', 1],
      ['a', 2],
    ]);
    // The third retry would go out at 1300 + 400, after the deadline (1350): the node fails now.
    const spent = await tree.report('a', { status: 'throttled', result: 'busy' });
    expect(spent.node).toMatchObject({ status: 'failed', settledBy: 'retries', throttled: 3, result: 'busy' });
    expect(settled.map((node) => node.status)).toEqual(['failed']);
    expect((await records()).map((record) => record.kind)).toEqual([
      'delegated',
      'outcome',
      'retried',
      'outcome',
      'retried',
      'outcome',
    ]);
  });

  it('stops retrying after maxRetries', async () => {
    const { tree, clock, retries } = await setup({ retry: { policy: { baseMs: 10, maxMs: 10 }, maxRetries: 1 } });
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 10_000 });
    await tree.report('a', { status: 'throttled' });
    clock.increment(10);
    await tree.idle();
    expect((await tree.report('a', { status: 'throttled' })).node.status).toBe('failed');
    expect(retries).toEqual([['a', 1]]);
  });

  it('cancels a pending retry when the node ends', async () => {
    const { tree, clock, retries } = await setup({ retry: { policy: { baseMs: 100, maxMs: 100 } } });
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 10_000 });
    await tree.report('a', { status: 'throttled' });
    await tree.cancel('a', { reason: 'gave up', cascade: true });
    clock.increment(1_000);
    await tree.idle();
    expect(retries).toEqual([]);
  });

  it('tells hooks only once the record is journaled', async () => {
    const journal = createMemoryJournal<DelegationRecord>();
    let durable = 0;
    const counting: Journal<DelegationRecord> = {
      ...journal,
      append: (partition, data) => journal.append(partition, data).then((entry) => ((durable = entry.seq), entry)),
    };
    const seen: number[] = [];
    const { tree } = await setup({ journal: counting, onSettled: () => seen.push(durable) });
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 10 });
    await tree.report('a', { status: 'success' });
    expect(seen).toEqual([2]);
  });

  it('takes nothing more once its journal failed, and says to reopen', async () => {
    const journal = createMemoryJournal<DelegationRecord>();
    let fail = false;
    const flaky: Journal<DelegationRecord> = {
      ...journal,
      append: (partition, data) => (fail ? Promise.reject(new Error('disk full')) : journal.append(partition, data)),
    };
    const { tree, clock, errors } = await setup({ journal: flaky });
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 100 });
    fail = true;
    await expect(tree.report('a', { status: 'success' })).rejects.toMatchObject({
      code: 'delegation_journal_failed',
      message: expect.stringMatching(/disk full.*reopen the tree/),
    });
    await expect(tree.delegate({ id: 'b', owner: 'A', target: 'B' })).rejects.toMatchObject({
      code: 'delegation_journal_failed',
    });
    clock.increment(1_000);
    await tree.idle();
    expect(errors).toEqual([]); // the watchdog was stopped with the tree
  });

  it('reports a throwing hook to onError and goes on', async () => {
    const { tree, errors } = await setup({
      onSettled: () => {
        throw new Error('hook broke');
      },
    });
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 100 });
    await tree.report('a', { status: 'success' });
    await tree.delegate({ id: 'b', owner: 'A', target: 'B', timeoutMs: 100 });
    expect(errors.map(String)).toEqual(['Error: hook broke']);
  });

  it('refuses work after close and stops its timers', async () => {
    const { tree, clock, settled } = await setup();
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 100 });
    await tree.close();
    clock.increment(1_000);
    expect(settled).toEqual([]);
    await expect(tree.report('a', { status: 'success' })).rejects.toThrow(/closed; reopen it/);
  });

  it('knows the message that ended a node when it comes again (a redelivery), also after a restart; another one is late', async () => {
    const { tree, records, open } = await setup();
    await tree.delegate({ id: 'a', owner: 'ARCHITECT', target: 'DISPATCHER', timeoutMs: 500 });
    const first = await tree.report('a', { status: 'success', messageId: 'out-1' });
    expect(first).toMatchObject({
      late: false,
      repeated: false,
      node: { status: 'success', settledByMessage: 'out-1' },
    });
    const again = await tree.report('a', { status: 'success', messageId: 'out-1' });
    expect(again).toMatchObject({ late: false, repeated: true, node: { status: 'success', lateOutcomes: 0 } });
    expect((await records()).filter((r) => r.kind === 'outcome')).toHaveLength(1); // a repeat is not journaled
    await tree.close();
    const reopened = await open();
    expect(await reopened.report('a', { status: 'success', messageId: 'out-1' })).toMatchObject({ repeated: true });
    const other = await reopened.report('a', { status: 'failed', messageId: 'out-2' });
    expect(other).toMatchObject({ late: true, repeated: false, node: { status: 'success', lateOutcomes: 1 } });
    const unnamed = await reopened.report('a', { status: 'success' });
    expect(unnamed).toMatchObject({ late: true, repeated: false });
    await reopened.close();
  });
});
