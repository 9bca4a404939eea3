import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { TaskQueueBrokenError } from '../../../../actors/runtime/task-queue.ts';
import type { TaskLogRecord } from '../../../../actors/runtime/task-queue-log.ts';
import { createGatedJournal } from '../../../support/gated-journal.ts';
import { openTestQueue, scriptedExecutor, settle, transientError } from '../../../support/task-queue-harness.ts';

/** A queue on a gated journal whose submission of `tasks` is already on disk. */
async function gatedQueue(tasks: { task_id: string; dependencies?: string[] }[], maxAttempts = 1) {
  const journal = createGatedJournal<TaskLogRecord>();
  const worker = scriptedExecutor();
  const errors: unknown[] = [];
  const opened = await openTestQueue(
    {
      workers: { w: { concurrency: 4, retry: { maxAttempts, backoff: { baseMs: 100, maxMs: 100 } }, ...worker } },
      onError: (e) => errors.push(e),
    },
    journal,
  );
  const submitted = opened.queue.submit(tasks.map((t) => ({ agent_type: 'w', input_data: 0, ...t })));
  await journal.commit();
  await submitted;
  await settle();
  return { ...opened, journal, worker, errors, settledIds: [] as string[] };
}

/** Commits every waiting append (the `started` records) so the next one is the record under test. */
async function commitAll(journal: ReturnType<typeof createGatedJournal<TaskLogRecord>>) {
  while (journal.waiting.length > 0) await journal.commit();
  await settle();
}

describe('task queue: nothing observable before it is on disk', () => {
  it('tells nobody of a failure, and keeps its dependents waiting, until the failure record is durable', async () => {
    const q = await gatedQueue([{ task_id: 'a' }, { task_id: 'b', dependencies: ['a'] }]);
    await commitAll(q.journal);
    void q.queue.settled('a').then(() => q.settledIds.push('a'));
    q.worker.calls[0]!.reject(new Error('bad input'));
    await settle();
    expect(q.journal.waiting.map((w) => w.data[0])).toMatchObject([{ t: 'failed', task_id: 'a' }]);
    expect(q.events.map((e) => e.type)).toEqual(['task.started']);
    expect(q.settledIds).toEqual([]);
    expect(q.queue.get('a')?.status).toBe('running');
    expect(q.queue.get('b')?.status).toBe('waiting');
    await q.journal.commit();
    await settle();
    expect(q.events.map((e) => e.type)).toEqual(['task.started', 'task.failed']);
    expect(q.settledIds).toEqual(['a']);
    expect(q.queue.get('b')).toMatchObject({ status: 'blocked', blocked_by: 'a' });
  });

  it('emits task.retrying and arms the retry only once the attempt_failed record is durable', async () => {
    const q = await gatedQueue([{ task_id: 'a' }], 2);
    await commitAll(q.journal);
    q.worker.calls[0]!.reject(transientError('flaky'));
    await settle();
    expect(q.journal.waiting.map((w) => w.data[0])).toMatchObject([{ t: 'attempt_failed', task_id: 'a' }]);
    expect(q.events.map((e) => e.type)).toEqual(['task.started']);
    await q.journal.commit();
    await settle();
    expect(q.events.map((e) => e.type)).toEqual(['task.started', 'task.retrying']);
    expect(q.queue.get('a')?.status).toBe('retrying');
  });

  it("applies an owner's fail, retry and reassign only once on disk, starting nothing meanwhile", async () => {
    const q = await gatedQueue([{ task_id: 'a' }, { task_id: 'b', dependencies: ['a'] }, { task_id: 'c' }]);
    await commitAll(q.journal);
    q.worker.calls[0]!.reject(new Error('bad input'));
    await settle();
    await q.journal.commit();
    await settle();
    const retried = q.queue.retry('a');
    await settle();
    expect(q.journal.waiting.map((w) => w.data[0])).toMatchObject([{ t: 'retried', task_id: 'a' }]);
    expect(q.queue.get('a')?.status).toBe('failed');
    expect(q.queue.get('b')?.status).toBe('blocked');
    expect(q.worker.calls).toHaveLength(2); // a's first attempt and c
    await q.journal.commit();
    expect(await retried).toMatchObject({ status: 'running', attempts: 1 });
    await settle();
    expect(q.worker.calls.map((c) => c.task.task_id)).toEqual(['a', 'c', 'a']);
    await commitAll(q.journal);

    q.worker.calls[2]!.reject(new Error('again'));
    await settle();
    await q.journal.commit();
    await settle();
    const failed = q.queue.fail('b', 'no longer needed');
    const moved = q.queue.reassign('a', 'w'); // waits for the fail before it is checked
    await settle();
    expect(q.journal.waiting).toHaveLength(1);
    expect(q.events.filter((e) => e.type === 'task.failed').map((e) => e.taskId)).toEqual(['a', 'a']);
    await q.journal.commit();
    expect(await failed).toMatchObject({ status: 'failed', error: { code: 'owner' } });
    expect(q.events.at(-1)).toMatchObject({ type: 'task.failed', taskId: 'b' });
    await settle();
    expect(q.journal.waiting.map((w) => w.data[0])).toMatchObject([{ t: 'reassigned', task_id: 'a' }]);
    expect(q.queue.get('a')?.status).toBe('failed');
    await q.journal.commit();
    expect(await moved).toMatchObject({ status: 'running', attempts: 1 });
  });
});

describe('task queue: a journal that fails', () => {
  it('breaks the queue on a failed failure record: it reports once and refuses input, saying to reopen', async () => {
    const q = await gatedQueue([{ task_id: 'a' }, { task_id: 'b', dependencies: ['a'] }]);
    await commitAll(q.journal);
    q.worker.calls[0]!.reject(new Error('bad input'));
    await settle();
    q.journal.fail('disk full');
    await settle();
    expect(q.errors).toHaveLength(1);
    expect(q.errors[0]).toBeInstanceOf(TaskQueueBrokenError);
    expect(q.events.map((e) => e.type)).toEqual(['task.started']);
    expect(q.queue.get('a')?.status).toBe('running');
    const refused = { code: 'task_queue_journal_failed', message: expect.stringMatching(/disk full.*open it again/) };
    await expect(q.queue.submit({ task_id: 'c', agent_type: 'w', input_data: 0 })).rejects.toMatchObject(refused);
    await expect(q.queue.fail('b', 'x')).rejects.toMatchObject(refused);
    expect(q.journal.waiting).toHaveLength(0);
  });

  it('breaks the queue on a failed started record and starts nothing more', async () => {
    const journal = createGatedJournal<TaskLogRecord>();
    const worker = scriptedExecutor();
    const errors: unknown[] = [];
    const { queue } = await openTestQueue(
      { workers: { w: { concurrency: 1, ...worker } }, onError: (e) => errors.push(e) },
      journal,
    );
    const submitted = queue.submit([1, 2].map((n) => ({ task_id: `t${n}`, agent_type: 'w', input_data: n })));
    await journal.commit();
    await submitted;
    await settle();
    journal.fail('io error');
    await settle();
    worker.calls[0]!.resolve('done');
    await settle();
    expect(worker.calls).toHaveLength(1);
    expect(errors).toMatchObject([{ code: 'task_queue_journal_failed' }]);
    await expect(queue.retry('t1')).rejects.toBeInstanceOf(TaskQueueBrokenError);
  });

  it('fails the task, and stays whole, when a completion alone is refused (memory is not ahead then)', async () => {
    const q = await gatedQueue([{ task_id: 'a' }]);
    await commitAll(q.journal);
    q.worker.calls[0]!.resolve('A');
    await settle();
    q.journal.fail('not JSON');
    await settle();
    await q.journal.commit();
    await settle();
    expect(q.queue.get('a')).toMatchObject({ status: 'failed', error: { code: 'result_not_stored' } });
    expect(q.errors).toEqual([]);
    const accepted = q.queue.submit({ task_id: 'b', agent_type: 'w', input_data: 0 });
    await q.journal.commit();
    expect(await accepted).toMatchObject({ status: 'accepted' });
  });
});

describe('task queue: reading its journal back', () => {
  const workers = { w: { concurrency: 1, executor: async () => 1 } };

  it('refuses to open over a record of an unknown type or a bad field, naming partition and seq', async () => {
    const journal = createMemoryJournal<TaskLogRecord>();
    await journal.append('q~0', {
      t: 'submitted',
      tasks: [{ task_id: 'a', agent_type: 'w', input_data: 0, priority: 2, dependencies: [] }],
    });
    await journal.append('q~0', { t: 'paused', task_id: 'a' } as unknown as TaskLogRecord);
    await expect(openTestQueue({ workers }, journal)).rejects.toMatchObject({
      code: 'data_file_corrupt',
      message: expect.stringMatching(/journal partition q~0 .*entry 2 is not a task queue record: t /),
    });
    const other = createMemoryJournal<TaskLogRecord>();
    await other.append('q~0', { t: 'started', task_id: 'a', attempt: '1' } as unknown as TaskLogRecord);
    await expect(openTestQueue({ workers }, other)).rejects.toThrow(/q~0 .*entry 1 .*attempt/);
    const index = createMemoryJournal<TaskLogRecord>();
    await index.append('q', { t: 'started', task_id: 'a', attempt: 1 });
    await expect(openTestQueue({ workers }, index)).rejects.toThrow(
      /partition q .*entry 1 is not a task queue generation marker/,
    );
  });
});
