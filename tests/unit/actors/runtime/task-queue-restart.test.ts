import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { openFileJournal } from '../../../../actors/runtime/file-journal.ts';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import type { TaskLogRecord } from '../../../../actors/runtime/task-queue-log.ts';
import { openTestQueue, scriptedExecutor, settle, until } from '../../../support/task-queue-harness.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'task-queue-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const retry = { maxAttempts: 2, backoff: { baseMs: 1_000, maxMs: 1_000 } };

describe('task queue over a file journal: reopening', () => {
  it('rebuilds every task; a task running at the stop runs again (the lost attempt counts), or fails on its last attempt', async () => {
    const clock = new SimulatedClock();
    const before = scriptedExecutor();
    let journal = await openFileJournal<TaskLogRecord>(dir);
    const first = await openTestQueue({ clock, workers: { w: { concurrency: 3, retry, ...before } } }, journal);
    await first.queue.submit([
      { task_id: 'done', agent_type: 'w', input_data: 1 },
      { task_id: 'once', agent_type: 'w', input_data: 2 },
      { task_id: 'twice', agent_type: 'w', input_data: 3 },
      { task_id: 'after', agent_type: 'w', input_data: 4, dependencies: ['done'], priority: 4 },
    ]);
    await settle();
    before.calls[0]!.resolve({ kept: true });
    before.calls[2]!.reject(Object.assign(new Error('busy'), { transient: true }));
    await until(() => first.queue.get('after')?.status === 'running');
    clock.increment(1_000); // 'twice' starts its second (last) attempt
    expect(first.queue.get('twice')).toMatchObject({ status: 'running', attempts: 2 });
    expect(first.queue.get('after')?.status).toBe('running');
    // a crash: the queue is dropped with its attempts under way, the journal holds what reached the disk
    await journal.close();

    journal = await openFileJournal<TaskLogRecord>(dir);
    const after = scriptedExecutor();
    const second = await openTestQueue({ clock, workers: { w: { concurrency: 3, retry, ...after } } }, journal);
    expect(second.queue.get('done')).toMatchObject({ status: 'completed', result: { kept: true } });
    expect(second.queue.get('twice')).toMatchObject({ status: 'failed', error: { code: 'interrupted' }, attempts: 2 });
    expect(after.calls.map((c) => [c.task.task_id, c.context.attempt])).toEqual([
      ['once', 2],
      ['after', 2],
    ]);
    await settle();
    await journal.close();
    // the recovery itself was journaled: a third opening agrees
    journal = await openFileJournal<TaskLogRecord>(dir);
    const third = await openTestQueue(
      { clock, workers: { w: { concurrency: 0, retry, ...scriptedExecutor() } } },
      journal,
    );
    expect(third.queue.get('twice')?.status).toBe('failed');
    expect(third.queue.get('once')).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
    await journal.close();
  });

  it('resumes a retry timer where it was', async () => {
    const clock = new SimulatedClock();
    let journal = await openFileJournal<TaskLogRecord>(dir);
    const worker = scriptedExecutor();
    const first = await openTestQueue({ clock, workers: { w: { concurrency: 1, retry, ...worker } } }, journal);
    await first.queue.submit({ task_id: 't', agent_type: 'w', input_data: 0 });
    await settle();
    worker.calls[0]!.reject(Object.assign(new Error('busy'), { transient: true }));
    await until(() => first.queue.get('t')?.status === 'retrying');
    first.queue.close();
    await journal.close();
    clock.increment(400);
    journal = await openFileJournal<TaskLogRecord>(dir);
    const again = scriptedExecutor();
    const second = await openTestQueue({ clock, workers: { w: { concurrency: 1, retry, ...again } } }, journal);
    expect(second.queue.get('t')).toMatchObject({ status: 'retrying', retry_at: 1_000 });
    clock.increment(599);
    expect(again.calls).toHaveLength(0);
    clock.increment(1);
    expect(again.calls.map((c) => c.context.attempt)).toEqual([2]);
    await settle();
    await journal.close();
  });

  it('compacts into a new generation once a generation is long, and reopens from it alone', async () => {
    const clock = new SimulatedClock();
    let journal = await openFileJournal<TaskLogRecord>(dir);
    const workers = { w: { concurrency: 4, executor: async (task: { input_data: unknown }) => task.input_data } };
    const { queue } = await openTestQueue({ clock, workers, compactAfter: 20, keepCompleted: 5 }, journal);
    for (let n = 0; n < 30; n++) {
      await queue.submit({
        task_id: `t${n}`,
        agent_type: 'w',
        input_data: n,
        dependencies: n > 0 ? [`t${n - 1}`] : [],
      });
      await settle();
    }
    await queue.settled('t29');
    await settle();
    await journal.close();
    const files = (await readdir(dir)).filter((f) => f.endsWith('.ndjson')).sort();
    expect(files.length).toBeGreaterThan(3); // the index and several generations

    journal = await openFileJournal<TaskLogRecord>(dir);
    const reopened = await openTestQueue({ clock, workers }, journal);
    expect(reopened.queue.get('t29')).toMatchObject({ status: 'completed', result: 29 });
    expect(reopened.queue.get('t0')).toBeUndefined(); // forgotten: completed, and its dependent too
    expect(reopened.queue.stats().unfinished).toBe(0);
    const markers = await journal.read('q');
    const newest = Math.max(...markers.map((m) => (m.data as { gen: number }).gen));
    expect((await journal.read(`q~${newest}`))[0]?.data.t).toBe('snapshot');
    await journal.close();
  });

  it('falls back to the generation before when a compaction never reached the disk', async () => {
    const journal = createMemoryJournal<TaskLogRecord>();
    const workers = { w: { concurrency: 0, executor: async () => 0 } };
    const { queue } = await openTestQueue({ workers }, journal);
    await queue.submit({ task_id: 'a', agent_type: 'w', input_data: 0 });
    await journal.append('q', { t: 'generation', gen: 1 }); // the marker landed, its snapshot did not
    const reopened = await openTestQueue({ workers }, journal);
    expect(reopened.queue.get('a')?.status).toBe('ready');
    await settle();
    // and it wrote the records it read as a fresh generation after the broken one
    expect((await journal.read('q~2'))[0]?.data).toMatchObject({ t: 'snapshot', tasks: [{ task_id: 'a' }] });
    const third = await openTestQueue({ workers }, journal);
    expect(third.queue.get('a')?.status).toBe('ready');
  });
});
