import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { createActor, type AnyActorRef } from 'xstate';
import { openFileJournal } from '../../../../actors/runtime/file-journal.ts';
import type { Journal } from '../../../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import {
  createSupervisorMachine,
  routedRecordsOf,
  type SupervisorEmitted,
} from '../../../../machines/runtime/supervisor.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { createGatedJournal } from '../../../support/gated-journal.ts';
import { until } from '../../../support/supervisor-harness.ts';
import { envelope, testSystem } from '../../../support/test-system.ts';

/* The hot path: admitted envelopes wait in an outbox the journal writer takes once per burst. */

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A supervisor sent to directly (as a host does), counting the events its journal writer receives. */
function start(
  journal: Journal<RoutedRecord>,
  onEvent: (event: Extract<InspectionEvent, { type: '@xstate.event' }>) => void = () => {},
) {
  const toWriter: string[] = [];
  const actor = createActor(createSupervisorMachine(testSystem(), { journal }), {
    input: {},
    inspect: (event: InspectionEvent) => {
      if (event.type === '@xstate.event' && (event.actorRef as AnyActorRef).id === 'deliverer') onEvent(event);
      if (
        event.type === '@xstate.event' &&
        (event.actorRef as AnyActorRef).id === 'journal' &&
        event.event.type !== 'xstate.init'
      )
        toWriter.push(event.event.type);
    },
  }).start();
  const agent = (name: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
  const receivedIds = (name: string): string[] =>
    agent(name)
      .getSnapshot()
      .context.received.map((d: { input: { envelope: { message_id: string } } }) => d.input.envelope.message_id);
  return { actor, agent, receivedIds, toWriter };
}

describe('supervisor outbox', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('hands a burst to the writer in one event, as one appendMany per partition', async () => {
    const memory = createMemoryJournal<RoutedRecord>();
    const calls: { partition: string; count: number }[] = [];
    const journal: Journal<RoutedRecord> = {
      ...memory,
      appendMany: (partition, data) => {
        calls.push({ partition, count: data.length });
        return memory.appendMany(partition, data);
      },
    };
    const { actor, agent, receivedIds, toWriter } = start(journal);
    const sent = Array.from({ length: 30 }, (_, n) => envelope({ run_id: `run-${n % 3}` }));
    for (const e of sent) actor.send({ type: 'supervisor.send', envelope: e });
    await until(agent('B'), (c) => c.received.length === 30);
    expect(toWriter).toEqual(['journal.append']);
    expect(calls).toEqual([
      { partition: 'run-0', count: 10 },
      { partition: 'run-1', count: 10 },
      { partition: 'run-2', count: 10 },
    ]);
    expect(receivedIds('B')).toEqual(sent.map((e) => e.message_id));
    // A later burst, after the writer took the outbox, goes in a new one.
    actor.send({ type: 'supervisor.send', envelope: envelope() });
    await until(agent('B'), (c) => c.received.length === 31);
    expect(toWriter).toEqual(['journal.append', 'journal.append']);
    expect(calls).toHaveLength(4);
  });

  it('announces a burst in routing order: consecutive records of a partition share one supervisor.routed', async () => {
    const { actor, agent } = start(createMemoryJournal<RoutedRecord>());
    const routed: SupervisorEmitted[] = [];
    actor.on('supervisor.routed', (event) => routed.push(event));
    const sent = Array.from({ length: 30 }, (_, n) => envelope({ run_id: `run-${Math.floor(n / 4) % 3}` }));
    for (const e of sent) actor.send({ type: 'supervisor.send', envelope: e });
    await until(agent('B'), (c) => c.received.length === 30);
    await tick();
    const announced = routed.flatMap((event) => routedRecordsOf(event).map((record) => record.envelope.message_id));
    expect(announced).toEqual(sent.map((e) => e.message_id));
    const partitions = routed.map((e) => (e.type === 'supervisor.routed' ? e.partition : e.type));
    expect(partitions.every((partition, n) => n === 0 || partition !== partitions[n - 1])).toBe(true);
    expect(routed.length).toBeLessThan(sent.length);
  });

  it('hands a burst of acks to the deliverer in one event, and announces each envelope after its agent has it', async () => {
    const toDeliverer: number[] = [];
    const { actor, agent, receivedIds } = start(createMemoryJournal<RoutedRecord>(), (event) => {
      if (event.event.type === 'supervisor.deliver') toDeliverer.push(event.event.events.length);
    });
    const heardBeforeDelivery: string[] = [];
    actor.on('supervisor.routed', (event) => {
      const received = new Set(receivedIds('B'));
      for (const record of event.records) {
        const id = (record.envelope as { message_id: string }).message_id;
        if (!received.has(id)) heardBeforeDelivery.push(id);
      }
    });
    const sent = Array.from({ length: 40 }, (_, n) => envelope({ run_id: `run-${n % 4}` }));
    for (const e of sent) actor.send({ type: 'supervisor.send', envelope: e });
    await until(agent('B'), (c) => c.received.length === 40);
    await tick();
    expect(toDeliverer).toEqual([40]);
    expect(heardBeforeDelivery).toEqual([]);
    expect(receivedIds('B')).toEqual(sent.map((e) => e.message_id));
  });

  it('writes and syncs a burst to a file journal once per partition', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'supervisor-outbox-'));
    dirs.push(dir);
    const journal = await openFileJournal<RoutedRecord>(dir);
    const { actor, agent } = start(journal);
    const sent = Array.from({ length: 100 }, (_, n) => envelope({ run_id: `run-${n % 2}` }));
    for (const e of sent) actor.send({ type: 'supervisor.send', envelope: e });
    await until(agent('B'), (c) => c.received.length === 100);
    expect(journal.stats()).toEqual({ appends: 100, writes: 2, syncs: 2 });
    expect((await journal.read('run-1')).map((e) => e.data)).toEqual(
      sent.filter((_, n) => n % 2 === 1).map((e) => ({ kind: 'direct', envelope: e })),
    );
    actor.stop();
    await journal.close();
  });

  it('delivers nothing of a burst before all its appends are durable, then all of it in routing order', async () => {
    const journal = createGatedJournal<RoutedRecord>();
    const { actor, receivedIds } = start(journal);
    const sent = [envelope({ run_id: 'run-2' }), envelope(), envelope({ run_id: 'run-2' })];
    for (const e of sent) actor.send({ type: 'supervisor.send', envelope: e });
    await tick();
    expect(journal.waiting.map((w) => w.partition)).toEqual(['run-2', 'run-1']);
    await journal.commit(); // run-2 is durable; the outbox is acked once run-1 is too
    await tick();
    expect(receivedIds('B')).toEqual([]);
    await journal.commit();
    await tick();
    expect(receivedIds('B')).toEqual(sent.map((e) => e.message_id));
  });

  it('refuses what fails validation or repeats an id in the middle of a burst, and journals the rest verbatim', async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const { actor, agent, receivedIds } = start(journal);
    const rejected: string[] = [];
    actor.on('supervisor.rejected', (event) => rejected.push(event.error.code));
    const first = envelope();
    const last = envelope({ payload: { text: 'last', n: 2 } });
    actor.send({ type: 'supervisor.send', envelope: first });
    actor.send({ type: 'supervisor.send', envelope: { ...envelope(), payload: { text: 3 } } });
    actor.send({ type: 'supervisor.send', envelope: { ...first, payload: { text: 'again' } } });
    actor.send({ type: 'supervisor.send', envelope: last });
    await until(agent('B'), (c) => c.received.length === 2);
    expect(rejected).toEqual(['invalid_envelope', 'duplicate_message']);
    expect(receivedIds('B')).toEqual([first.message_id, last.message_id]);
    expect((await journal.read('run-1')).map((e) => e.data)).toEqual([
      { kind: 'direct', envelope: first },
      { kind: 'direct', envelope: last },
    ]);
  });
});
