import { describe, expect, it } from 'vitest';
import { TaskWatchers } from '../../../../actors/runtime/task-watchers.ts';
import type { TaskView } from '../../../../protocol/runtime/task-spec.ts';

const view = { task_id: 't', status: 'completed' } as TaskView;

describe('TaskWatchers', () => {
  it('reports a subscriber that throws and still tells the others; an unsubscribed one hears nothing more', () => {
    const errors: unknown[] = [];
    const heard: string[] = [];
    const watchers = new TaskWatchers((error) => errors.push(error));
    watchers.subscribe(() => {
      throw new Error('listener bug');
    });
    const stop = watchers.subscribe((event) => heard.push(`a ${event.type}`));
    watchers.subscribe((event) => heard.push(`b ${event.type}`));
    watchers.emit({ type: 'task.completed', taskId: 't' });
    stop();
    watchers.emit({ type: 'task.completed', taskId: 'u' });
    expect(heard).toEqual(['a task.completed', 'b task.completed', 'b task.completed']);
    expect(errors).toHaveLength(2);
    expect((errors[0] as Error).message).toBe('listener bug');
  });

  it('resolves every waiter of a task once it settles, and builds the view only when someone waits', async () => {
    const watchers = new TaskWatchers(() => {});
    let built = 0;
    const build = () => (built++, view);
    watchers.settle('t', build);
    expect(built).toBe(0);
    const first = watchers.wait('t');
    const second = watchers.wait('t');
    const other = watchers.wait('u');
    watchers.settle('t', build);
    watchers.settle('t', build); // its waiters are gone
    expect(await first).toBe(view);
    expect(await second).toBe(view);
    expect(built).toBe(1);
    let otherDone = false;
    void other.then(() => (otherDone = true));
    await Promise.resolve();
    expect(otherDone).toBe(false);
  });
});
