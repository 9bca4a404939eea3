import { describe, expect, it } from 'vitest';
import { TaskBook, type TaskQueueRecord } from '../../../../actors/runtime/task-book.ts';
import type { TaskSpec } from '../../../../protocol/runtime/task-spec.ts';

const spec = (task_id: string, extra: Partial<TaskSpec> = {}): TaskSpec => ({
  task_id,
  agent_type: 'w',
  input_data: null,
  priority: 2,
  dependencies: [],
  ...extra,
});
const error = { code: 'error', message: 'no', transient: false };

function bookOf(records: TaskQueueRecord[]) {
  const ready: string[] = [];
  const book = new TaskBook(
    () => 0,
    (type) => ready.push(type),
  );
  for (const record of records) book.apply(record);
  return { book, ready };
}

const drain = (book: TaskBook, type: string) => {
  const ids: string[] = [];
  for (let id = book.next(type); id !== undefined; id = book.next(type)) ids.push(id);
  return ids;
};

describe('TaskBook', () => {
  it('moves a ready task to its new agent type’s line when reassigned, keeping its priority', () => {
    const { book, ready } = bookOf([
      { t: 'submitted', tasks: [spec('a'), spec('b', { priority: 0 }), spec('c', { agent_type: 'v', priority: 1 })] },
      { t: 'reassigned', task_id: 'b', agent_type: 'v' },
    ]);
    expect(ready).toEqual(['w', 'w', 'v', 'v']);
    expect(drain(book, 'w')).toEqual(['a']);
    expect(drain(book, 'v')).toEqual(['b', 'c']);
  });

  it('keeps the ready order through a snapshot', () => {
    const { book } = bookOf([
      { t: 'submitted', tasks: [spec('x')] },
      { t: 'submitted', tasks: [spec('a', { dependencies: ['x'] }), spec('b')] },
      { t: 'started', task_id: 'x', attempt: 1 },
      { t: 'completed', task_id: 'x', result: 1 }, // 'a' becomes ready after 'b'
    ]);
    const copy = bookOf([{ t: 'snapshot', tasks: book.snapshot() }]).book;
    expect(drain(copy, 'w')).toEqual(['b', 'a']);
    expect(copy.view('x')).toEqual(book.view('x'));
    expect(copy.unfinished).toBe(2);
  });

  it('blocks through chains and unblocks when the failed task is retried', () => {
    const { book } = bookOf([
      { t: 'submitted', tasks: [spec('a'), spec('b', { dependencies: ['a'] }), spec('c', { dependencies: ['b'] })] },
      { t: 'started', task_id: 'a', attempt: 1 },
      { t: 'failed', task_id: 'a', error, partials: ['p'] },
    ]);
    expect([book.view('b')?.blocked_by, book.view('c')?.blocked_by]).toEqual(['a', 'a']);
    expect(book.unfinished).toBe(2);
    book.apply({ t: 'retried', task_id: 'a' });
    expect(book.view('a')).toMatchObject({ status: 'ready', attempts: 0, partials: [] });
    expect(book.view('a')?.error).toBeUndefined();
    expect([book.view('b')?.status, book.view('c')?.status]).toEqual(['waiting', 'waiting']);
    expect(book.view('b')?.blocked_by).toBeUndefined();
    expect(book.unfinished).toBe(3);
  });

  it('forgets old completed tasks only once their dependents completed, and counts a forgotten one as completed', () => {
    const { book } = bookOf([
      { t: 'submitted', tasks: [spec('a'), spec('b'), spec('c', { dependencies: ['a'] })] },
      { t: 'started', task_id: 'a', attempt: 1 },
      { t: 'completed', task_id: 'a', result: 1 },
      { t: 'started', task_id: 'b', attempt: 1 },
      { t: 'completed', task_id: 'b', result: 2 },
    ]);
    expect(book.forgetCompleted(0)).toBe(1); // 'b' only: 'c' still needs 'a'
    expect(book.has('b')).toBe(false);
    book.apply({ t: 'started', task_id: 'c', attempt: 1 });
    book.apply({ t: 'failed', task_id: 'c', error, partials: [] });
    expect(book.forgetCompleted(0)).toBe(0); // 'c' failed and may be retried: it still needs 'a'
    book.apply({ t: 'retried', task_id: 'c' });
    expect(book.view('c')?.status).toBe('ready');
    // a submission already on its way when 'b' was forgotten finds it completed
    book.apply({ t: 'submitted', tasks: [spec('d', { dependencies: ['b'] })] });
    expect(book.view('d')?.status).toBe('ready');
  });

  it('does not requeue a task that is no longer retrying', () => {
    const { book } = bookOf([
      { t: 'submitted', tasks: [spec('a')] },
      { t: 'started', task_id: 'a', attempt: 1 },
      { t: 'attempt_failed', task_id: 'a', error, partials: [], retry_at: 5 },
      { t: 'failed', task_id: 'a', error, partials: [] },
    ]);
    book.requeue('a');
    expect(book.view('a')?.status).toBe('failed');
    expect(book.next('w')).toBeUndefined();
  });

  it('names an unknown task in a record as a journal problem', () => {
    expect(() => bookOf([{ t: 'started', task_id: 'ghost', attempt: 1 }])).toThrow(/names an unknown task/);
  });
});
