import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { Journal } from '../../../../../actors/runtime/journal.ts';
import { createContextBuilder } from '../../../../../actors/trainer/context/context-builder.ts';
import { withMessagesBreakpoint } from '../../../../../actors/trainer/context/context-builder-cache.ts';
import { buildEventsToMessages } from '../../../../../actors/trainer/context/context-builder-messages.ts';
import { createEventStore, type EventStore } from '../../../../../actors/trainer/events/event-store.ts';
import { aggregateUsage, countEvents } from '../../../../../actors/trainer/events/event-store-totals.ts';
import { isContextEvent } from '../../../../../actors/trainer/events/session-log.ts';
import { createDataSources } from '../../../../../actors/trainer/user-data/data-sources.ts';
import { createUserDataStore } from '../../../../../actors/trainer/user-data/user-data-store.ts';
import type { Store } from '../../../../../actors/runtime/store.ts';
import type { StoredSessionEvent } from '../../../../../protocol/trainer/session-event.ts';
import { createFakeJournal, createFakeStore } from '../../../../support/trainer/trainer-fakes.ts';
import { artifactData, llmResponseData } from '../../../../support/trainer/trainer-events.ts';

const tools: Tool[] = [{ name: 'idle', description: 'idle', input_schema: { type: 'object', properties: {} } }];

/** A journal that counts reads per partition, over the fake one. */
function countingJournal(journal = createFakeJournal<StoredSessionEvent>()) {
  const reads = new Map<string, number>();
  const counted: Journal<StoredSessionEvent> = {
    ...journal,
    read: (partition) => {
      reads.set(partition, (reads.get(partition) ?? 0) + 1);
      return journal.read(partition);
    },
  };
  return { journal: counted, reads };
}

function open(options: { store?: Store; journal?: Journal<StoredSessionEvent>; maxSessions?: number } = {}) {
  const store = options.store ?? createFakeStore();
  const counting = countingJournal(options.journal as ReturnType<typeof createFakeJournal<StoredSessionEvent>>);
  let now = 0;
  const events = createEventStore({
    store,
    journal: counting.journal,
    memory: { maxSessions: options.maxSessions ?? 100, idleMs: 60_000, now: () => now },
  });
  const builder = createContextBuilder({
    events,
    dataSources: createDataSources({ userData: createUserDataStore(store) }),
    systemPrompt: 'You are a personal trainer.',
    tools,
  });
  return { store, events, builder, reads: counting.reads, later: (ms: number) => void (now += ms) };
}

/** One turn's worth of events: the message, a request and response, a call and its result. */
async function turn(events: EventStore, sessionId: string, n: number): Promise<void> {
  await events.appendEvent(sessionId, 'user_message', { message: `message ${n}` });
  await events.recordEvents(sessionId, [
    { type: 'llm_request', data: { model: 'claude-haiku-4-5', prompt: `p${n}`, estimated_tokens: 10 } },
    { type: 'llm_response', data: llmResponseData(100, 20, 50, 0.1) },
    { type: 'tool_call', data: { tool_name: 'generate_workout', arguments: { n }, call_id: `c${n}` } },
  ]);
  await events.appendEvents(sessionId, [
    { type: 'tool_result', data: { tool_name: 'generate_workout', result: { n }, success: true, call_id: `c${n}` } },
    { type: 'artifact', data: artifactData(`art_${n}`) },
    { type: 'error', data: { message: `e${n}` } },
  ]);
}

/** What reading the whole log from the journal says about the session. */
async function fromTheLog(events: EventStore, userId: string, sessionId: string) {
  const timeline = await events.listEvents(sessionId);
  const session = (await events.getSession(userId, sessionId))!;
  const context = timeline.filter(isContextEvent).filter((e) => e.sequence_number > session.context_start_sequence);
  return { timeline, context, totals: aggregateUsage(timeline), counts: countEvents(timeline) };
}

/** What memory answers, and the messages the builder builds on from its previous builds. */
async function fromMemory(events: EventStore, builder: ReturnType<typeof open>['builder'], userId: string, id: string) {
  const context = await events.listContextEvents(id);
  const summary = (await events.getSessionSummary(userId, id))!;
  const built = await builder.build(id, userId);
  return { context, summary, built };
}

/** A value as JSON, without its cache breakpoints. */
const unmarked = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (key, item) => (key === 'cache_control' ? undefined : item)));

/**
 * Checks memory against the log, and returns the log with how many times memory read the
 * journal meanwhile (0 once the session is held).
 */
async function expectSameAsTheLog(setup: ReturnType<typeof open>, userId: string, sessionId: string) {
  const readsBefore = setup.reads.get(sessionId) ?? 0;
  const memory = await fromMemory(setup.events, setup.builder, userId, sessionId);
  const memoryReads = (setup.reads.get(sessionId) ?? 0) - readsBefore;
  const log = await fromTheLog(setup.events, userId, sessionId);
  expect(memory.context).toEqual(log.context);
  expect(memory.summary).toMatchObject(log.counts);
  expect(unmarked(memory.built.messages)).toEqual(unmarked(withMessagesBreakpoint(buildEventsToMessages(log.context))));
  expect(memory.built.eventCount).toBe(log.context.length);
  return { ...log, memoryReads };
}

describe('sessions in memory', () => {
  it('answer what reading the log answers: context, counts, totals and the messages built on', async () => {
    const setup = open();
    const session = await setup.events.createSession('alice');
    for (let n = 1; n <= 6; n++) {
      await turn(setup.events, session.id, n);
      // Read once, when first touched (by the first append); answered from memory ever after.
      expect((await expectSameAsTheLog(setup, 'alice', session.id)).memoryReads).toBe(0);
    }
    expect(setup.reads.get(session.id)).toBe(1 + 6); // the first touch, and this test's own six listEvents
    const log = await fromTheLog(setup.events, 'alice', session.id);
    const ended = await setup.events.endSession(session.id, 'completed');
    expect(ended).toMatchObject({
      total_tokens: log.totals.total_tokens,
      cached_tokens: log.totals.cached_tokens,
      total_cost_cents: log.totals.total_cost_cents,
    });
    expect(await setup.events.getArtifact('alice', session.id, 'art_3')).toEqual(artifactData('art_3'));
  });

  it('reads a session from the journal after a restart, once, and goes on from its last event', async () => {
    const store = createFakeStore();
    const journal = createFakeJournal<StoredSessionEvent>();
    const first = open({ store, journal });
    const session = await first.events.createSession('alice');
    for (let n = 1; n <= 3; n++) await turn(first.events, session.id, n);
    await first.events.durable(session.id);

    const again = open({ store, journal });
    const before = await again.events.listContextEvents(session.id);
    await again.builder.build(session.id, 'alice');
    await again.builder.build(session.id, 'alice');
    expect(again.reads.get(session.id)).toBe(1);
    await turn(again.events, session.id, 4);
    const after = await expectSameAsTheLog(again, 'alice', session.id);
    expect(after.timeline.map((e) => e.sequence_number)).toEqual(Array.from({ length: 28 }, (_, i) => i + 1));
    expect((await again.events.listContextEvents(session.id)).slice(0, before.length)).toEqual(before);
  });

  it('drops sessions beyond its bound or idle too long, and reads them again when touched', async () => {
    const setup = open({ maxSessions: 1 });
    const a = await setup.events.createSession('alice');
    const b = await setup.events.createSession('bob');
    await turn(setup.events, a.id, 1);
    await turn(setup.events, b.id, 1); // a is dropped: only one session is held
    await turn(setup.events, a.id, 2); // read again, then b is dropped
    expect(setup.reads.get(a.id)).toBe(2);
    expect((await expectSameAsTheLog(setup, 'alice', a.id)).memoryReads).toBe(0);
    setup.later(60_001); // idle beyond the limit: dropped
    expect((await expectSameAsTheLog(setup, 'alice', a.id)).memoryReads).toBe(1);
    expect((await expectSameAsTheLog(setup, 'bob', b.id)).memoryReads).toBe(1);
    await turn(setup.events, b.id, 2);
    expect((await expectSameAsTheLog(setup, 'bob', b.id)).memoryReads).toBe(0);
  });

  it('follows context_start_sequence forward and back, building the messages again from it', async () => {
    const setup = open();
    const session = await setup.events.createSession('alice');
    for (let n = 1; n <= 4; n++) await turn(setup.events, session.id, n);
    await setup.builder.build(session.id, 'alice');
    for (const start of [9, 16, 3, 0, 27]) {
      await setup.events.setContextStart('alice', session.id, start);
      const log = await expectSameAsTheLog(setup, 'alice', session.id);
      expect(log.context.every((e) => e.sequence_number > start)).toBe(true);
      await turn(setup.events, session.id, 10 + start);
      await expectSameAsTheLog(setup, 'alice', session.id);
    }
  });

  it('shows recorded events at once, and resolves durable once they are written', async () => {
    const setup = open();
    const session = await setup.events.createSession('alice');
    const [event] = await setup.events.recordEvents(session.id, [{ type: 'user_message', data: { message: 'hi' } }]);
    expect(await setup.events.listContextEvents(session.id)).toEqual([event]);
    const journalHadIt = await setup.events.durable(session.id).then(() => setup.events.listEvents(session.id));
    expect(journalHadIt).toEqual([event]);
  });

  it('refuses appends after a failed write, and durable says so', async () => {
    const journal = createFakeJournal<StoredSessionEvent>();
    let failing = false;
    const flaky: Journal<StoredSessionEvent> = {
      ...journal,
      append: (partition, data) => (failing ? Promise.reject(new Error('disk full')) : journal.append(partition, data)),
    };
    const setup = open({ journal: flaky });
    const session = await setup.events.createSession('alice');
    await setup.events.appendEvent(session.id, 'user_message', { message: 'kept' });
    failing = true;
    await setup.events.recordEvents(session.id, [{ type: 'user_message', data: { message: 'lost' } }]);
    await expect(setup.events.durable(session.id)).rejects.toThrow('disk full');
    failing = false;
    await expect(
      setup.events.recordEvents(session.id, [{ type: 'user_message', data: { message: 'after' } }]),
    ).rejects.toThrow('disk full');
    // Memory dropped what never reached the disk.
    expect((await setup.events.listContextEvents(session.id)).map((e) => e.data)).toEqual([{ message: 'kept' }]);
  });
});
