import { describe, expect, it } from 'vitest';
import { assign, createActor, sendTo, setup } from 'xstate';
import { JournalOutbox } from '../../../../actors/runtime/journal-outbox.ts';
import { createJournalWriter, type JournalAckEvent } from '../../../../actors/runtime/journal-writer.ts';
import type { Journal, JournalEntry } from '../../../../actors/runtime/journal.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';

const record = (id: string): RoutedRecord => ({
  kind: 'direct',
  envelope: { message_id: id, from_agent: 'A', to_agent: 'B', data_type: 'note', payload: {} },
});
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A journal whose `appendMany` calls wait until the test settles them, in any order. */
function heldJournal() {
  const calls: {
    partition: string;
    ids: string[];
    settle: (error?: Error) => void;
  }[] = [];
  const journal = {
    appendMany: (partition: string, data: readonly RoutedRecord[]) =>
      new Promise<JournalEntry<RoutedRecord>[]>((resolve, reject) => {
        const ids = data.map((r) => r.envelope.message_id as string);
        calls.push({
          partition,
          ids,
          settle: (error) => (error ? reject(error) : resolve(data.map((d, i) => ({ seq: i + 1, data: d })))),
        });
      }),
  } as unknown as Journal<RoutedRecord>;
  return { journal, calls };
}

/** The writer under a parent that hands it outboxes and records its acks. */
function startWriter(journal: Journal<RoutedRecord>) {
  const parent = setup({
    types: {
      context: {} as { acks: JournalAckEvent[] },
      events: {} as { type: 'hand'; outbox: JournalOutbox } | { type: 'stop' } | JournalAckEvent,
    },
    actors: { writer: createJournalWriter(journal) },
  }).createMachine({
    context: { acks: [] },
    initial: 'writing',
    states: { writing: { invoke: { src: 'writer', id: 'journal' }, on: { stop: 'stopped' } }, stopped: {} },
    on: {
      hand: { actions: sendTo('journal', ({ event }) => ({ type: 'journal.append', outbox: (event as any).outbox })) },
      'journal.acked': { actions: assign({ acks: ({ context, event }) => [...context.acks, event] }) },
    },
  });
  const actor = createActor(parent).start();
  const acks = () => actor.getSnapshot().context.acks;
  return { actor, acks, hand: (outbox: JournalOutbox) => actor.send({ type: 'hand', outbox }) };
}

describe('journal writer', () => {
  it('takes an outbox in a microtask, with what was added after it was handed over, as one appendMany per partition', async () => {
    const { journal, calls } = heldJournal();
    const { hand, acks } = startWriter(journal);
    const outbox = new JournalOutbox();
    outbox.add(1, 'p', record('a'));
    hand(outbox);
    outbox.add(2, 'q', record('b'));
    outbox.add(3, 'p', record('c'));
    expect(outbox.taken).toBe(false);
    await Promise.resolve();
    expect(outbox.taken).toBe(true);
    expect(calls.map(({ partition, ids }) => ({ partition, ids }))).toEqual([
      { partition: 'p', ids: ['a', 'c'] },
      { partition: 'q', ids: ['b'] },
    ]);
    calls[0]!.settle();
    await tick();
    expect(acks()).toEqual([]); // the outbox is acked as a whole
    calls[1]!.settle();
    await tick();
    expect(acks()).toEqual([{ type: 'journal.acked', tickets: [1, 3, 2], failed: [] }]);
  });

  it('asks the journal to prepare every partition of an outbox before appending to any', async () => {
    const { journal, calls } = heldJournal();
    const order: string[] = [];
    const appendMany = journal.appendMany.bind(journal);
    journal.prepare = (partition) => order.push(`prepare ${partition}`);
    journal.appendMany = (partition, data) => {
      order.push(`append ${partition}`);
      return appendMany(partition, data);
    };
    const { hand } = startWriter(journal);
    const outbox = new JournalOutbox();
    outbox.add(1, 'p', record('a'));
    outbox.add(2, 'q', record('b'));
    hand(outbox);
    await Promise.resolve();
    expect(order).toEqual(['prepare p', 'prepare q', 'append p', 'append q']);
    expect(calls).toHaveLength(2);
  });

  it('acks an outbox only after the ones handed over before it', async () => {
    const { journal, calls } = heldJournal();
    const { hand, acks } = startWriter(journal);
    const first = new JournalOutbox();
    first.add(1, 'p', record('a'));
    hand(first);
    await Promise.resolve();
    const second = new JournalOutbox();
    second.add(2, 'q', record('b'));
    hand(second);
    await Promise.resolve();
    calls[1]!.settle();
    await tick();
    expect(acks()).toEqual([]);
    calls[0]!.settle();
    await tick();
    // One ack for both: the ledger puts deliveries back in routing order.
    expect(
      acks()
        .flatMap((a) => a.tickets)
        .sort(),
    ).toEqual([1, 2]);
  });

  it('names every ticket of a failed append with the error, and acks the rest', async () => {
    const { journal, calls } = heldJournal();
    const { hand, acks } = startWriter(journal);
    const outbox = new JournalOutbox();
    outbox.add(1, 'p', record('a'));
    outbox.add(2, 'q', record('b'));
    outbox.add(3, 'p', record('c'));
    hand(outbox);
    await Promise.resolve();
    calls[0]!.settle(new Error('EIO: i/o error'));
    calls[1]!.settle();
    await tick();
    expect(acks()).toEqual([
      {
        type: 'journal.acked',
        tickets: [2],
        failed: [
          { ticket: 1, message: 'EIO: i/o error' },
          { ticket: 3, message: 'EIO: i/o error' },
        ],
      },
    ]);
  });

  it('answers an outbox that only asks for an ack with an empty ack, and appends nothing', async () => {
    const { journal, calls } = heldJournal();
    const { hand, acks } = startWriter(journal);
    const outbox = new JournalOutbox();
    outbox.requestAck();
    hand(outbox);
    await tick();
    expect(calls).toEqual([]);
    expect(acks()).toEqual([{ type: 'journal.acked', tickets: [], failed: [] }]);
  });

  it('acks a large outbox in events of 256 tickets, in order', async () => {
    const { journal, calls } = heldJournal();
    const { hand, acks } = startWriter(journal);
    const outbox = new JournalOutbox();
    for (let ticket = 1; ticket <= 600; ticket++) outbox.add(ticket, 'p', record(`m${ticket}`));
    hand(outbox);
    await Promise.resolve();
    calls[0]!.settle();
    await tick();
    expect(acks().map((a) => a.tickets.length)).toEqual([256, 256, 88]);
    expect(acks().flatMap((a) => a.tickets)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
  });

  it('sends no ack once stopped, though its parent still listens', async () => {
    const { journal, calls } = heldJournal();
    const { actor, hand, acks } = startWriter(journal);
    const outbox = new JournalOutbox();
    outbox.add(1, 'p', record('a'));
    hand(outbox);
    await Promise.resolve();
    actor.send({ type: 'stop' });
    calls[0]!.settle();
    await tick();
    expect(acks()).toEqual([]);
  });
});
