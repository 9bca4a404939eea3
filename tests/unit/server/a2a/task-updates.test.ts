import { describe, expect, it } from 'vitest';
import type { A2aMapping, A2aProduced, A2aView } from '../../../../server/a2a/a2a-mapping.ts';
import { a2aStateOf } from '../../../../server/a2a/a2a-wire.ts';
import { followTask, type TaskUpdate } from '../../../../server/a2a/task-updates.ts';

/** A system of one run whose view the test sets; `produced` when asked for, and who follows it. */
function fakeSystem(options: { produced?: boolean } = {}) {
  let view: A2aView | undefined = { state: 'input-required', message: 'Confirm?', artifacts: [] };
  const produced: A2aProduced[] = [];
  const listeners = new Set<() => void>();
  const mapping: A2aMapping = {
    description: 'fake',
    skills: [],
    parse: (input) => input,
    start: async () => ({ ref: 'r', contextId: 'c' }),
    view: async () => view,
    follow: async (_owner, _ref, onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    ...(options.produced ? { produced: async () => [...produced] } : {}),
  };
  return {
    mapping,
    listeners,
    /** What the run produced so far, as `produced` reads it (a test may put one back in the middle). */
    produced,
    /** Sets the view (and records what it produced) and tells the followers. */
    change(next: A2aView | undefined, made: A2aProduced[] = []) {
      view = next;
      produced.push(...made);
      for (const listener of listeners) listener();
    },
  };
}

const line = (update: TaskUpdate) =>
  update.kind === 'statusUpdate'
    ? `status:${a2aStateOf(update.data.status?.state)}`
    : `artifact:${update.data.artifact?.name}:${JSON.stringify(update.data.artifact?.parts[0]?.content?.value)}`;

async function follow(system: ReturnType<typeof fakeSystem>, signal?: AbortSignal, shown: string[] = []) {
  const lines: string[] = [];
  /** Each final view `onFinal` was given, as a line, in order with what was sent. */
  const onFinal = async (view: A2aView) => void lines.push(`kept:${view.state}`);
  const updates = followTask(system.mapping, {
    owner: 'ada',
    ref: 'r',
    taskId: 't',
    contextId: 'c',
    shown: { state: 'input-required', message: 'Confirm?', artifacts: [], produced: shown },
    until: 'final',
    whenGone: 'end',
    signal,
    onFinal,
  });
  const done = (async () => {
    for await (const update of updates) lines.push(line(update));
  })();
  // Let the follower read its first view and wait.
  await new Promise((resolve) => setImmediate(resolve));
  return { lines, done };
}

/** An artifact as the fake's journal record `<name>@<data>` made it. */
const artifact = (name: string, data: unknown): A2aProduced => ({
  name,
  schema: `fake/${name}`,
  data,
  recordId: `${name}@${JSON.stringify(data)}`,
});

describe('followTask', () => {
  it('sends working before what resumed work produced, even when the run was past it when read', async () => {
    const system = fakeSystem();
    const { lines, done } = await follow(system);
    system.change({ state: 'completed', artifacts: [artifact('plan', 1)] });
    await done;
    expect(lines).toEqual(['kept:completed', 'status:working', 'artifact:plan:1', 'status:completed']);
    expect(system.listeners.size).toBe(0);
  });

  it('replays each version a mapping produced, where the view holds only the latest', async () => {
    const system = fakeSystem({ produced: true });
    const { lines, done } = await follow(system);
    system.change({ state: 'completed', artifacts: [artifact('plan', 2)] }, [artifact('plan', 1), artifact('plan', 2)]);
    await done;
    expect(lines).toEqual([
      'kept:completed',
      'status:working',
      'artifact:plan:1',
      'artifact:plan:2',
      'status:completed',
    ]);
  });

  it('matches what it sent by record id: skips what the client holds, sends one that shows up before others once', async () => {
    const system = fakeSystem({ produced: true });
    system.produced.push(artifact('stories', 1));
    const { lines, done } = await follow(system, undefined, [artifact('stories', 1).recordId]);
    system.change({ state: 'working', artifacts: [] }, [artifact('contract', 1), artifact('schema', 1)]);
    await new Promise((resolve) => setImmediate(resolve));
    // A version the system could not read before comes back in its place in the journal, before the last sent.
    system.produced.splice(2, 0, artifact('contract', 2));
    system.change({ state: 'completed', artifacts: [] }, [artifact('schema', 2)]);
    await done;
    expect(lines).toEqual([
      'status:working',
      'artifact:contract:1',
      'artifact:schema:1',
      'kept:completed',
      'artifact:contract:2',
      'artifact:schema:2',
      'status:completed',
    ]);
  });

  it('ends and lets go of the run when the client leaves, and when the system no longer holds the work', async () => {
    const system = fakeSystem();
    const gone = new AbortController();
    const { lines, done } = await follow(system, gone.signal);
    expect(system.listeners.size).toBe(1);
    gone.abort();
    await done;
    expect(lines).toEqual([]);
    expect(system.listeners.size).toBe(0);
    const other = fakeSystem();
    const second = await follow(other);
    other.change(undefined);
    await second.done;
    expect(second.lines).toEqual([]);
    expect(other.listeners.size).toBe(0);
  });
});
