import { describe, expect, it } from 'vitest';
import type { Journal } from '../../../../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../../../../actors/runtime/memory-journal.ts';
import { createEventStore } from '../../../../../actors/trainer/events/event-store.ts';
import { DuplicateSequenceError } from '../../../../../actors/trainer/events/event-store-retry.ts';
import { SessionLogs } from '../../../../../actors/trainer/events/session-logs.ts';
import { createFakeStore } from '../../../../support/trainer/trainer-fakes.ts';
import type { StoredSessionEvent } from '../../../../../protocol/trainer/session-event.ts';

/* A session's recorded events go to the journal in one write per turn: when something waits for them, or after the linger. */

const event = (message: string): StoredSessionEvent => ({
  id: `id-${message}`,
  event_type: 'user_message',
  timestamp: '2026-11-25T00:00:00.000Z',
  duration_ms: null,
  data: { message },
});

const messageOf = (stored: StoredSessionEvent) => (stored.data as { message: string }).message;

/** The memory journal, counting the appends issued per partition. */
function countingJournal() {
  const journal = createMemoryJournal<StoredSessionEvent>();
  const writes: string[][] = [];
  const counted: Journal<StoredSessionEvent> = {
    ...journal,
    append: (partition, data) => {
      writes.push([messageOf(data)]);
      return journal.append(partition, data);
    },
    appendMany: (partition, data) => {
      writes.push(data.map(messageOf));
      return journal.appendMany(partition, data);
    },
    read: (partition) => journal.read(partition),
  };
  return { journal: counted, writes };
}

const messagesIn = async (journal: Journal<StoredSessionEvent>, partition: string) =>
  (await journal.read(partition)).map((entry) => [entry.seq, messageOf(entry.data)]);

describe('SessionLogs writes', () => {
  it('writes what a turn recorded in one append when durable is awaited, numbered in order', async () => {
    const { journal, writes } = countingJournal();
    const logs = new SessionLogs({ journal, lingerMs: 60_000 });
    for (const message of ['a', 'b', 'c']) await logs.record('s', [event(message)]);
    await logs.record('s', [event('d'), event('e')]);
    expect(writes).toEqual([]); // nothing asked for them yet
    await logs.durable('s');
    expect(writes).toEqual([['a', 'b', 'c', 'd', 'e']]);
    expect(await messagesIn(journal, 's')).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
      [4, 'd'],
      [5, 'e'],
    ]);
    // The next turn's events make the next write, after the first.
    await logs.record('s', [event('f')]);
    await logs.durable('s');
    expect(writes).toEqual([['a', 'b', 'c', 'd', 'e'], ['f']]);
    expect((await logs.of('s')).lastSeq).toBe(6);
  });

  it('resolves each append with its own events as written', async () => {
    const { journal } = countingJournal();
    const logs = new SessionLogs({ journal, lingerMs: 60_000 });
    const first = await logs.record('s', [event('a'), event('b')]);
    const second = await logs.record('s', [event('c')], { now: true });
    expect((await second.written).map((e) => [e.sequence_number, e.data])).toEqual([[3, { message: 'c' }]]);
    expect((await first.written).map((e) => e.sequence_number)).toEqual([1, 2]);
  });

  it('writes at once for an append that is awaited, for a read of the journal, and on flush', async () => {
    const { journal, writes } = countingJournal();
    const logs = new SessionLogs({ journal, lingerMs: 60_000 });
    await logs.record('s', [event('a')]);
    await (
      await logs.record('s', [event('b')], { now: true })
    ).written;
    expect(writes).toEqual([['a', 'b']]);
    await logs.record('s', [event('c')]);
    expect((await logs.read('s')).map((e) => e.data)).toEqual([{ message: 'a' }, { message: 'b' }, { message: 'c' }]);
    await logs.record('t', [event('x')]);
    await logs.record('s', [event('d')]);
    await logs.flush();
    expect(writes).toEqual([['a', 'b'], ['c'], ['x'], ['d']]);
    expect(await messagesIn(journal, 't')).toEqual([[1, 'x']]);
  });

  it('writes after the linger when nobody asks', async () => {
    const { journal, writes } = countingJournal();
    const logs = new SessionLogs({ journal, lingerMs: 5 });
    await logs.record('s', [event('a')]);
    await logs.record('s', [event('b')]);
    expect(writes).toEqual([]);
    await expect.poll(() => writes, { timeout: 5_000, interval: 5 }).toEqual([['a', 'b']]);
    await expect
      .poll(() => messagesIn(journal, 's'), { timeout: 5_000, interval: 5 })
      .toEqual([
        [1, 'a'],
        [2, 'b'],
      ]);
  });

  it('rejects every append of a failed write, and refuses the next ones', async () => {
    const { journal } = countingJournal();
    const failing: Journal<StoredSessionEvent> = {
      ...journal,
      appendMany: () => Promise.reject(new Error('disk full')),
    };
    const logs = new SessionLogs({ journal: failing, lingerMs: 60_000 });
    const first = await logs.record('s', [event('a')]);
    const second = await logs.record('s', [event('b')]);
    await expect(logs.durable('s')).rejects.toThrow('disk full');
    await expect(first.written).rejects.toThrow('disk full');
    await expect(second.written).rejects.toThrow('disk full');
    await expect(logs.record('s', [event('c')])).rejects.toThrow('disk full');
  });

  it('rejects a single-event write that failed the same way', async () => {
    const { journal } = countingJournal();
    const failing: Journal<StoredSessionEvent> = { ...journal, append: () => Promise.reject(new Error('disk full')) };
    const logs = new SessionLogs({ journal: failing, lingerMs: 60_000 });
    const only = await logs.record('s', [event('a')]);
    await expect(logs.durable('s')).rejects.toThrow('disk full');
    await expect(only.written).rejects.toThrow('disk full');
  });

  it('reports a write refused for its numbers once, to the next durable, and reads the log again', async () => {
    const { journal } = countingJournal();
    let refuse = true;
    const contested: Journal<StoredSessionEvent> = {
      ...journal,
      appendMany: (partition, data) => {
        if (!refuse) return journal.appendMany(partition, data);
        refuse = false;
        return Promise.reject(new DuplicateSequenceError(partition, 1));
      },
    };
    const logs = new SessionLogs({ journal: contested, lingerMs: 60_000, retry: { maxRetries: 0 } });
    const refused = await logs.record('s', [event('a'), event('b')]);
    await expect(logs.durable('s')).rejects.toThrow(/taken/);
    await expect(refused.written).rejects.toThrow(/taken/);
    await logs.durable('s'); // reported once: not a sticky failure
    await logs.record('s', [event('c'), event('d')]);
    await logs.durable('s');
    // The refused turn's events are gone from memory too: the log was read again from the journal.
    expect(await messagesIn(journal, 's')).toEqual([
      [1, 'c'],
      [2, 'd'],
    ]);
    expect((await logs.of('s')).lastSeq).toBe(2);
  });

  it("writes a session's batch before its log, dropped from memory meanwhile, is read again", async () => {
    const { journal, writes } = countingJournal();
    const logs = new SessionLogs({ journal, lingerMs: 60_000, memory: { maxSessions: 1 } });
    await logs.record('s', [event('a'), event('b')]);
    await logs.record('t', [event('x')]); // s's log is dropped: one session is held
    await logs.record('s', [event('c')]); // s is read again, after its batch went out
    await logs.flush();
    expect(writes).toEqual([['a', 'b'], ['x'], ['c']]);
    expect(await messagesIn(journal, 's')).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
  });

  it("shows a session's views and closes only with its events on disk", async () => {
    const { journal, writes } = countingJournal();
    const events = createEventStore({ store: createFakeStore(), journal });
    const session = await events.createSession('ada');
    await events.recordEvents(session.id, [
      { type: 'tool_call', data: { tool_name: 'idle', arguments: {}, call_id: 'c1' } },
    ]);
    const onDisk = async () => (await journal.read(session.id)).map((entry) => entry.data.event_type);
    expect(await onDisk()).toEqual([]);
    // A view that leaves the process waits for the write (a turn's own context reads memory).
    expect((await events.recentToolEvents(session.id, 5)).map((e) => e.event_type)).toEqual(['tool_call']);
    expect(await onDisk()).toEqual(['tool_call']);
    await events.recordEvents(session.id, [{ type: 'user_message', data: { message: 'bye' } }]);
    await events.close();
    expect(await onDisk()).toEqual(['tool_call', 'user_message']);
    expect(writes).toHaveLength(2);
  });
});
