import { describe, expect, it } from 'vitest';
import type { Journal } from '../../../../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../../../../actors/runtime/memory-journal.ts';
import { SessionLogs } from '../../../../../actors/trainer/events/session-logs.ts';
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
});
