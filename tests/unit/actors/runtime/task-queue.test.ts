import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import type { TaskLogRecord } from '../../../../actors/runtime/task-queue-log.ts';
import { openTestQueue, scriptedExecutor, settle, transientError } from '../../../support/task-queue-harness.ts';

const started = (events: { type: string; taskId?: string }[]) =>
  events.filter((e) => e.type === 'task.started').map((e) => e.taskId);

describe('task queue: order and workers', () => {
  it('starts the most urgent ready task first, first in first out within a priority, at most `concurrency` at once', async () => {
    const worker = scriptedExecutor();
    const { queue, events } = await openTestQueue({ workers: { w: { concurrency: 2, ...worker } } });
    await queue.submit([
      { task_id: 'a', agent_type: 'w', input_data: 1, priority: 3 },
      { task_id: 'b', agent_type: 'w', input_data: 2, priority: 3 },
      { task_id: 'c', agent_type: 'w', input_data: 3, priority: 0 },
      { task_id: 'd', agent_type: 'w', input_data: 4, priority: 3 },
      { task_id: 'e', agent_type: 'w', input_data: 5, priority: 1 },
    ]);
    await settle();
    expect(started(events)).toEqual(['c', 'e']);
    expect(queue.stats()).toEqual({ unfinished: 5, running: { w: 2 }, ready: { w: 3 } });
    worker.calls[0]!.resolve('A');
    await settle();
    worker.calls[1]!.resolve('B');
    await settle();
    worker.calls[2]!.resolve('C');
    await settle();
    expect(started(events)).toEqual(['c', 'e', 'a', 'b', 'd']);
    expect(queue.get('c')).toMatchObject({ status: 'completed', result: 'A', attempts: 1 });
    expect(queue.get('d')?.status).toBe('running');
    expect(queue.get('b')?.status).toBe('running');
  });

  it('starts a task only once its dependencies completed, and hands it their results', async () => {
    const worker = scriptedExecutor();
    const { queue, events } = await openTestQueue({ workers: { w: { concurrency: 5, ...worker } } });
    await queue.submit([
      { task_id: 'x', agent_type: 'w', input_data: null },
      { task_id: 'y', agent_type: 'w', input_data: null },
      { task_id: 'z', agent_type: 'w', input_data: null, dependencies: ['x', 'y'] },
    ]);
    await settle();
    expect(queue.get('z')?.status).toBe('waiting');
    worker.calls[0]!.resolve({ from: 'x' });
    await settle();
    expect(started(events)).toEqual(['x', 'y']);
    worker.calls[1]!.resolve({ from: 'y' });
    await settle();
    expect(started(events)).toEqual(['x', 'y', 'z']);
    expect(worker.calls[2]!.context.dependencyResults).toEqual({ x: { from: 'x' }, y: { from: 'y' } });
    worker.calls[2]!.resolve('done');
    await expect(queue.settled('z')).resolves.toMatchObject({ status: 'completed', result: 'done' });
  });
});

describe('task queue: submission', () => {
  const workers = { w: { concurrency: 1, executor: async () => 'ok' } };

  it('refuses a dependency cycle, naming it, and writes nothing', async () => {
    const { queue, journal } = await openTestQueue({ workers });
    await expect(
      queue.submit([
        { task_id: 'a', agent_type: 'w', input_data: 0, dependencies: ['c'] },
        { task_id: 'b', agent_type: 'w', input_data: 0, dependencies: ['a'] },
        { task_id: 'c', agent_type: 'w', input_data: 0, dependencies: ['b'] },
      ]),
    ).rejects.toMatchObject({ code: 'dependency_cycle', message: expect.stringContaining('a -> c -> b -> a') });
    await expect(
      queue.submit({ task_id: 's', agent_type: 'w', input_data: 0, dependencies: ['s'] }),
    ).rejects.toMatchObject({ code: 'dependency_cycle', message: expect.stringContaining('s -> s') });
    expect(await journal.partitions()).toEqual([]);
    expect(queue.get('a')).toBeUndefined();
  });

  it('refuses an unknown dependency, an unknown agent type, a taken id and a bad priority, saying how to fix each', async () => {
    const { queue } = await openTestQueue({ workers });
    await expect(
      queue.submit({ task_id: 'a', agent_type: 'w', input_data: 0, dependencies: ['nope'] }),
    ).rejects.toMatchObject({
      code: 'unknown_dependency',
      message: expect.stringContaining('submit nope first'),
    });
    await expect(queue.submit({ task_id: 'a', agent_type: 'other', input_data: 0 })).rejects.toMatchObject({
      code: 'unknown_agent_type',
      message: expect.stringContaining('use one of w'),
    });
    await expect(queue.submit({ task_id: 'a', agent_type: 'w', input_data: 0, priority: 5 })).rejects.toMatchObject({
      code: 'validation_failed',
      issues: [expect.objectContaining({ path: 'tasks.0.priority' })],
    });
    await queue.submit({ task_id: 'a', agent_type: 'w', input_data: 0 });
    await expect(queue.submit({ task_id: 'a', agent_type: 'w', input_data: 0 })).rejects.toMatchObject({
      code: 'task_exists',
    });
    await expect(queue.submit([])).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('answers `throttled` with a retry delay beyond maxQueued, writing nothing, and accepts again once tasks finish', async () => {
    const worker = scriptedExecutor();
    const { queue, journal } = await openTestQueue({
      workers: { w: { concurrency: 1, ...worker } },
      maxQueued: 3,
      throttleRetryAfterMs: 250,
    });
    expect(await queue.submit([1, 2].map((n) => ({ task_id: `t${n}`, agent_type: 'w', input_data: n })))).toEqual({
      status: 'accepted',
      taskIds: ['t1', 't2'],
    });
    const before = (await journal.read('q~0')).length;
    const answer = await queue.submit([3, 4].map((n) => ({ task_id: `t${n}`, agent_type: 'w', input_data: n })));
    expect(answer).toEqual({ status: 'throttled', retryAfterMs: 250, queued: 2, maxQueued: 3 });
    expect((await journal.read('q~0')).length).toBe(before);
    expect(queue.get('t3')).toBeUndefined();
    expect((await queue.submit({ task_id: 't3', agent_type: 'w', input_data: 3 })).status).toBe('accepted');
    await settle();
    worker.calls[0]!.resolve('done');
    await settle();
    expect((await queue.submit({ task_id: 't4', agent_type: 'w', input_data: 4 })).status).toBe('accepted');
    await expect(
      queue.submit([5, 6, 7, 8].map((n) => ({ task_id: `u${n}`, agent_type: 'w', input_data: n }))),
    ).rejects.toMatchObject({ code: 'batch_too_large' });
  });
});

describe('task queue: failures, time limits and retries', () => {
  it('interrupts a task past its time limit through its signal, keeps its partials, and retries it after the backoff', async () => {
    const worker = scriptedExecutor();
    const { queue, clock, events } = await openTestQueue({
      workers: {
        w: {
          concurrency: 1,
          timeLimitMs: 1_000,
          retry: { maxAttempts: 2, backoff: { baseMs: 500, maxMs: 5_000 } },
          ...worker,
        },
      },
    });
    await queue.submit({ task_id: 't', agent_type: 'w', input_data: 'slow' });
    await settle();
    const first = worker.calls[0]!;
    first.context.reportPartial({ step: 1 });
    first.context.reportPartial({ step: 2 });
    clock.increment(999);
    await settle();
    expect(first.context.signal.aborted).toBe(false);
    clock.increment(1);
    await settle();
    expect(first.context.signal.aborted).toBe(true);
    expect(first.context.signal.reason).toMatchObject({ code: 'timeout' });
    first.context.reportPartial({ step: 3 }); // too late: not kept
    expect(queue.get('t')).toMatchObject({
      status: 'retrying',
      partials: [{ step: 1 }, { step: 2 }],
      error: { code: 'timeout', transient: true },
      retry_at: 1_500, // the 1,000 ms limit, then 500 ms of backoff (a draw of 0 takes no jitter off)
    });
    expect(queue.get('t')?.error?.message).toMatch(/time limit of 1000 ms.*2 partial result/);
    clock.increment(499);
    await settle();
    expect(worker.calls).toHaveLength(1);
    clock.increment(1);
    await settle();
    expect(worker.calls).toHaveLength(2);
    expect(worker.calls[1]!.context.attempt).toBe(2);
    expect(queue.get('t')?.partials).toEqual([]);
    worker.calls[1]!.context.reportPartial('half');
    clock.increment(1_000);
    await settle();
    expect(queue.get('t')).toMatchObject({
      status: 'failed',
      attempts: 2,
      partials: ['half'],
      error: { code: 'timeout' },
    });
    expect(events.map((e) => e.type)).toEqual(['task.started', 'task.retrying', 'task.started', 'task.failed']);
    first.resolve('late'); // an interrupted attempt's late result changes nothing
    await settle();
    expect(queue.get('t')?.status).toBe('failed');
  });

  it('spaces transient retries by backoffDelay and fails at once on an error that is not transient', async () => {
    const worker = scriptedExecutor();
    const { queue, clock } = await openTestQueue({
      workers: { w: { concurrency: 2, retry: { maxAttempts: 4, backoff: { baseMs: 100, maxMs: 250 } }, ...worker } },
    });
    await queue.submit([
      { task_id: 'flaky', agent_type: 'w', input_data: 0 },
      { task_id: 'broken', agent_type: 'w', input_data: 0 },
    ]);
    await settle();
    worker.calls[1]!.reject(new Error('bad input'));
    const retryAts: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      worker.calls
        .find((c) => c.task.task_id === 'flaky' && c.context.attempt === attempt)!
        .reject(transientError('busy'));
      await settle();
      retryAts.push(queue.get('flaky')!.retry_at! - clock.now());
      clock.increment(retryAts.at(-1)!);
      await settle();
    }
    expect(retryAts).toEqual([100, 200, 250]);
    expect(queue.get('broken')).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'error', message: 'bad input', transient: false },
    });
    worker.calls.at(-1)!.resolve('finally');
    await settle();
    expect(queue.get('flaky')).toMatchObject({ status: 'completed', attempts: 4, result: 'finally' });
  });
});

describe('task queue: per-task limits and results', () => {
  it("takes a task's own time_limit_ms over its agent type's", async () => {
    const worker = scriptedExecutor();
    const { queue, clock } = await openTestQueue({
      workers: { w: { concurrency: 2, timeLimitMs: 10_000, ...worker } },
    });
    await queue.submit([
      { task_id: 'short', agent_type: 'w', input_data: 0, time_limit_ms: 50 },
      { task_id: 'default', agent_type: 'w', input_data: 0 },
    ]);
    await settle();
    clock.increment(50);
    await settle();
    expect(worker.calls.map((c) => c.context.signal.aborted)).toEqual([true, false]);
    clock.increment(9_950);
    expect(worker.calls[1]!.context.signal.aborted).toBe(true);
  });

  it('fails a task whose result cannot be journaled, saying results must be JSON', async () => {
    const { queue } = await openTestQueue({ workers: { w: { concurrency: 1, executor: async () => 10n } } });
    await queue.submit({ task_id: 't', agent_type: 'w', input_data: 0 });
    await expect(queue.settled('t')).resolves.toMatchObject({
      status: 'failed',
      error: { code: 'result_not_stored', message: expect.stringContaining('results must be JSON') },
    });
  });
});

describe('task queue: blocked dependents and the owner', () => {
  async function failedChain() {
    const worker = scriptedExecutor();
    const other = scriptedExecutor();
    const opened = await openTestQueue({
      workers: {
        w: { concurrency: 4, retry: { maxAttempts: 1, backoff: { baseMs: 1, maxMs: 1 } }, ...worker },
        v: { concurrency: 1, ...other },
      },
    });
    await opened.queue.submit([
      { task_id: 'root', agent_type: 'w', input_data: 0 },
      { task_id: 'mid', agent_type: 'w', input_data: 0, dependencies: ['root'] },
      { task_id: 'leaf', agent_type: 'w', input_data: 0, dependencies: ['mid'] },
    ]);
    await settle();
    worker.calls[0]!.reject(new Error('no data'));
    await settle();
    return { ...opened, worker, other };
  }

  it('blocks every task that depends on a failed one, naming it, and never starts them', async () => {
    const { queue, events, clock } = await failedChain();
    expect(queue.get('mid')).toMatchObject({ status: 'blocked', blocked_by: 'root' });
    expect(queue.get('leaf')).toMatchObject({ status: 'blocked', blocked_by: 'root' });
    clock.increment(60_000);
    await settle();
    expect(started(events)).toEqual(['root']);
    await expect(queue.retry('leaf')).rejects.toMatchObject({
      code: 'task_not_failed',
      message: expect.stringContaining('root'),
    });
  });

  it('unblocks them when the owner retries the failed task', async () => {
    const { queue, worker, events } = await failedChain();
    expect(await queue.retry('root')).toMatchObject({ status: 'running', attempts: 1 });
    expect(queue.get('mid')?.status).toBe('waiting');
    worker.calls[1]!.resolve('ok');
    await settle();
    expect(started(events)).toEqual(['root', 'root', 'mid']);
  });

  it('runs a failed task on another agent type when the owner reassigns it', async () => {
    const { queue, other } = await failedChain();
    await queue.reassign('root', 'v');
    expect(other.calls.map((c) => c.task.task_id)).toEqual(['root']);
    expect(other.calls[0]!.task.agent_type).toBe('v');
    await expect(queue.reassign('root', 'nobody')).rejects.toMatchObject({ code: 'unknown_agent_type' });
    await expect(queue.reassign('root', 'w')).rejects.toMatchObject({ code: 'task_running' });
  });

  it('lets the owner fail a blocked task, which stays failed when its dependency is retried', async () => {
    const { queue } = await failedChain();
    const view = await queue.fail('mid', 'not worth it');
    expect(view).toMatchObject({ status: 'failed', error: { code: 'owner', message: 'not worth it' } });
    expect(queue.get('leaf')).toMatchObject({ status: 'blocked', blocked_by: 'mid' });
    await queue.retry('root');
    expect(queue.get('mid')?.status).toBe('failed');
    expect(queue.get('leaf')).toMatchObject({ status: 'blocked', blocked_by: 'mid' });
  });
});

describe('task queue: journal', () => {
  it('acknowledges a submission only once it is journaled', async () => {
    const journal = createMemoryJournal<TaskLogRecord>();
    const { queue } = await openTestQueue({ workers: { w: { concurrency: 1, executor: async () => 1 } } }, journal);
    const pending = queue.submit({ task_id: 'a', agent_type: 'w', input_data: 0 });
    expect(queue.get('a')).toBeUndefined();
    await pending;
    expect((await journal.read('q~0'))[0]?.data).toMatchObject({ t: 'submitted', tasks: [{ task_id: 'a' }] });
  });
});
