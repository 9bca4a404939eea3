import { describe, expect, it } from 'vitest';
import { createEventStore, type EventStoreOptions } from '../../../../../actors/trainer/events/event-store.ts';
import { DuplicateSequenceError } from '../../../../../actors/trainer/events/event-store-retry.ts';
import type { StoredSessionEvent } from '../../../../../protocol/trainer/session-event.ts';
import type { AgentSession } from '../../../../../protocol/trainer/session.ts';
import { NotFoundError, ValidationError } from '../../../../../protocol/runtime/runtime-error.ts';
import {
  createFakeJournal,
  createFakeStore,
  createSequentialIds,
  createStepClock,
  type WriteLog,
} from '../../../../support/trainer/trainer-fakes.ts';
import { artifactData, llmResponseData } from '../../../../support/trainer/trainer-events.ts';

function setup(overrides: Partial<EventStoreOptions> = {}) {
  const writes: WriteLog = new Map();
  const store = createFakeStore(writes);
  const journal = createFakeJournal<StoredSessionEvent>();
  const events = createEventStore({
    store,
    journal,
    now: createStepClock(),
    newId: createSequentialIds(),
    ...overrides,
  });
  return { events, store, journal, writes };
}

describe('createEventStore', () => {
  describe('sessions', () => {
    it('creates an active session with zero totals and context_start_sequence 0', async () => {
      const { events } = setup();
      const session = await events.createSession('alice');
      expect(session).toEqual({
        id: 'id-1',
        user_id: 'alice',
        created_at: '2025-03-01T10:00:00.000Z',
        updated_at: '2025-03-01T10:00:00.000Z',
        context_start_sequence: 0,
        total_tokens: 0,
        cached_tokens: 0,
        total_cost_cents: 0,
        status: 'active',
        metadata: {},
      });
      expect(await events.getSession('alice', session.id)).toEqual(session);
    });

    it("answers undefined for another user's session, as for a missing one", async () => {
      const { events } = setup();
      const session = await events.createSession('alice');
      await events.appendEvent(session.id, 'artifact', artifactData('art_1'));
      expect(await events.getSession('bob', session.id)).toBeUndefined();
      expect(await events.getSession('alice', 'no-such-session')).toBeUndefined();
      expect(await events.getArtifact('bob', session.id, 'art_1')).toBeUndefined();
      expect(await events.getSessionSummary('bob', session.id)).toBeUndefined();
      await expect(events.getOrCreateSession('bob', session.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('lists a user’s sessions newest first, up to the limit (default 10)', async () => {
      const { events } = setup();
      const created: AgentSession[] = [];
      for (let i = 0; i < 12; i++) created.push(await events.createSession('alice'));
      await events.createSession('bob');
      const listed = await events.listSessions('alice');
      expect(listed.map((s) => s.id)).toEqual(
        created
          .slice(2)
          .reverse()
          .map((s) => s.id),
      );
      expect((await events.listSessions('alice', 3)).map((s) => s.id)).toEqual(
        created
          .slice(9)
          .reverse()
          .map((s) => s.id),
      );
    });

    it('orders sessions created at the same instant by creation', async () => {
      const { events } = setup({ now: () => new Date('2025-03-01T10:00:00.000Z') });
      const first = await events.createSession('alice');
      const second = await events.createSession('alice');
      expect((await events.listSessions('alice')).map((s) => s.id)).toEqual([second.id, first.id]);
    });
  });

  describe('getOrCreateSession', () => {
    it('returns the most recent active session', async () => {
      const { events } = setup();
      await events.createSession('alice');
      const latest = await events.createSession('alice');
      await events.createSession('bob');
      expect((await events.getOrCreateSession('alice')).id).toBe(latest.id);
    });

    it('skips ended sessions and creates one when none is active', async () => {
      const { events } = setup();
      const older = await events.createSession('alice');
      const newer = await events.createSession('alice');
      await events.endSession(newer.id, 'completed');
      expect((await events.getOrCreateSession('alice')).id).toBe(older.id);
      await events.endSession(older.id, 'error');
      const fresh = await events.getOrCreateSession('alice');
      expect([older.id, newer.id]).not.toContain(fresh.id);
      expect(fresh.status).toBe('active');
      expect(await events.listSessions('alice')).toHaveLength(3);
    });

    it('continues a named session of the user even when it has ended', async () => {
      const { events } = setup();
      const session = await events.createSession('alice');
      await events.endSession(session.id, 'completed');
      await events.createSession('alice');
      const continued = await events.getOrCreateSession('alice', session.id);
      expect(continued.id).toBe(session.id);
      await expect(events.getOrCreateSession('alice', 'missing')).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('appendEvent', () => {
    it('numbers events densely from 1 in each session', async () => {
      const { events } = setup();
      const a = await events.createSession('alice');
      const b = await events.createSession('alice');
      const first = await events.appendEvent(a.id, 'user_message', { message: 'hi' });
      await events.appendEvent(b.id, 'user_message', { message: 'other' });
      const second = await events.appendEvent(a.id, 'knowledge', { source: 'user_profile', data: 'Age: 30' }, 12.4);
      expect(first).toMatchObject({
        session_id: a.id,
        sequence_number: 1,
        event_type: 'user_message',
        duration_ms: null,
      });
      expect(second).toMatchObject({ sequence_number: 2, duration_ms: 12 });
      expect((await events.listEvents(a.id)).map((e) => [e.sequence_number, e.event_type])).toEqual([
        [1, 'user_message'],
        [2, 'knowledge'],
      ]);
      expect((await events.listEvents(b.id)).map((e) => e.sequence_number)).toEqual([1]);
    });

    it('gives concurrent appends unique, dense sequence numbers per session', async () => {
      const { events } = setup();
      const sessions = await Promise.all([events.createSession('u'), events.createSession('u')]);
      const appends = Array.from({ length: 60 }, (_, i) =>
        events.appendEvent(sessions[i % 2]!.id, 'user_message', { message: `m${i}` }),
      );
      const appended = await Promise.all(appends);
      for (const session of sessions) {
        const seqs = appended.filter((e) => e.session_id === session.id).map((e) => e.sequence_number);
        expect([...seqs].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
        const stored = await events.listEvents(session.id);
        expect(stored.map((e) => e.sequence_number)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      }
    });

    it('fills error defaults and rejects bad data naming the field', async () => {
      const { events } = setup();
      const session = await events.createSession('alice');
      const error = await events.appendEvent(session.id, 'error', { message: 'boom' });
      expect(error.data).toEqual({ message: 'boom', stack: null, context: null });
      const bad = events.appendEvent(session.id, 'user_message', { message: '' });
      await expect(bad).rejects.toBeInstanceOf(ValidationError);
      await expect(bad).rejects.toMatchObject({ issues: [{ path: 'data.message' }] });
      expect(await events.listEvents(session.id)).toHaveLength(1);
    });

    it('refuses to append to an unknown session', async () => {
      const { events, journal } = setup();
      await expect(events.appendEvent('ghost', 'user_message', { message: 'hi' })).rejects.toBeInstanceOf(
        NotFoundError,
      );
      expect(await journal.partitions()).toEqual([]);
    });

    it('never rewrites a session document when appending', async () => {
      const { events, writes } = setup();
      const session = await events.createSession('alice');
      await events.createSession('alice');
      const before = new Map(writes);
      for (let i = 0; i < 5; i++) await events.appendEvent(session.id, 'user_message', { message: `m${i}` });
      expect(writes).toEqual(before);
    });

    it('retries a duplicate sequence number with random backoff, up to 5 times (§7.5)', async () => {
      const journal = createFakeJournal<StoredSessionEvent>();
      let collisions = 5;
      const flaky = {
        ...journal,
        append: (partition: string, data: StoredSessionEvent) =>
          collisions-- > 0
            ? Promise.reject(new DuplicateSequenceError(partition, journal.loadedSeq(partition)! + 1))
            : journal.append(partition, data),
      };
      const pauses: number[] = [];
      const { events } = setup({
        journal: flaky,
        retry: { random: () => 0.5, sleep: async (ms) => void pauses.push(ms), baseDelayMs: 10 },
      });
      const session = await events.createSession('alice');
      const event = await events.appendEvent(session.id, 'user_message', { message: 'hi' });
      expect(event.sequence_number).toBe(1);
      expect(pauses).toEqual([5, 10, 15, 20, 25]);

      collisions = 6;
      await expect(events.appendEvent(session.id, 'user_message', { message: 'again' })).rejects.toMatchObject({
        code: 'sequence_conflict',
        status: 409,
      });
      expect(await events.listEvents(session.id)).toHaveLength(1);
    });
  });

  describe('context events and artifacts', () => {
    it('keeps only context event types after context_start_sequence (§7.4)', async () => {
      const { events } = setup();
      const session = await events.createSession('alice');
      const id = session.id;
      await events.appendEvent(id, 'user_message', { message: 'first' });
      await events.appendEvent(id, 'llm_request', { model: 'claude-haiku-4-5', prompt: '...', estimated_tokens: 10 });
      await events.appendEvent(id, 'llm_response', llmResponseData(10, 5, 0, 0.1));
      await events.appendEvent(id, 'tool_call', { tool_name: 'idle', arguments: { reason: 'done' }, call_id: 'c1' });
      await events.appendEvent(id, 'error', { message: 'x' });
      await events.appendEvent(id, 'tool_result', { tool_name: 'idle', result: {}, success: true, call_id: 'c1' });
      await events.appendEvent(id, 'knowledge', { source: 'user_profile', data: 'Age: 30' });
      await events.appendEvent(id, 'artifact', artifactData('art_a'));
      const types = (await events.listContextEvents(id)).map((e) => [e.sequence_number, e.event_type]);
      expect(types).toEqual([
        [1, 'user_message'],
        [4, 'tool_call'],
        [6, 'tool_result'],
        [7, 'knowledge'],
        [8, 'artifact'],
      ]);
      expect((await events.setContextStart('alice', id, 6)).context_start_sequence).toBe(6);
      expect((await events.listContextEvents(id)).map((e) => e.sequence_number)).toEqual([7, 8]);
    });

    it('finds an artifact by id within the session', async () => {
      const { events } = setup();
      const session = await events.createSession('alice');
      const other = await events.createSession('alice');
      await events.appendEvent(session.id, 'artifact', artifactData('art_one', 'One'));
      await events.appendEvent(session.id, 'artifact', artifactData('art_two', 'Two'));
      await events.appendEvent(other.id, 'artifact', artifactData('art_three', 'Three'));
      expect((await events.getArtifact('alice', session.id, 'art_two'))?.title).toBe('Two');
      expect(await events.getArtifact('alice', session.id, 'art_three')).toBeUndefined();
      expect(await events.getArtifact('alice', session.id, 'art_missing')).toBeUndefined();
    });
  });

  describe('endSession', () => {
    it('sums llm_response events into the totals and sets the status (§7.6, §11.2)', async () => {
      const { events } = setup();
      const session = await events.createSession('alice');
      await events.appendEvent(session.id, 'llm_response', llmResponseData(1000, 200, 3000, 0.25));
      await events.appendEvent(session.id, 'user_message', { message: 'between' });
      await events.appendEvent(session.id, 'llm_response', llmResponseData(500, 100, 1500, 0.5));
      const ended = await events.endSession(session.id, 'completed');
      expect(ended).toMatchObject({
        status: 'completed',
        total_tokens: 1200 + 3000 + 600 + 1500,
        cached_tokens: 4500,
        total_cost_cents: 0.75,
        metadata: { cache_hit_rate: (4500 / (1500 + 4500)) * 100 },
      });
      expect(ended.updated_at > ended.created_at).toBe(true);
      expect(await events.getSession('alice', session.id)).toEqual(ended);
      const again = await events.endSession(session.id, 'error');
      expect(again).toMatchObject({ status: 'error', total_tokens: ended.total_tokens });
    });

    it('refuses an unknown session', async () => {
      const { events } = setup();
      await expect(events.endSession('ghost', 'completed')).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('summaries', () => {
    it('counts messages, llm calls, tool calls, errors and artifacts (§7.8)', async () => {
      const { events } = setup();
      const session = await events.createSession('alice');
      const id = session.id;
      await events.appendEvent(id, 'user_message', { message: 'a' });
      await events.appendEvent(id, 'user_message', { message: 'b' });
      await events.appendEvent(id, 'llm_request', { model: 'm', prompt: 'p', estimated_tokens: 1 });
      await events.appendEvent(id, 'llm_response', llmResponseData(1, 1, 0, 0));
      await events.appendEvent(id, 'tool_call', { tool_name: 'idle', arguments: {}, call_id: 'c' });
      await events.appendEvent(id, 'error', { message: 'e' });
      await events.appendEvent(id, 'artifact', artifactData('art_x'));
      const summary = await events.getSessionSummary('alice', id);
      expect(summary).toMatchObject({
        id,
        event_count: 7,
        message_count: 2,
        llm_call_count: 1,
        tool_call_count: 1,
        error_count: 1,
        artifact_count: 1,
      });
      const [listed] = await events.listSessionSummaries('alice');
      expect(listed).toEqual(summary);
    });

    it('sums sessions per UTC day of creation', async () => {
      const days = ['2025-03-01T23:59:00.000Z', '2025-03-02T00:01:00.000Z', '2025-03-02T12:00:00.000Z'];
      let reading = 0;
      const { events } = setup({ now: () => new Date(days[Math.min(reading++, days.length - 1)]!) });
      const first = await events.createSession('alice');
      await events.appendEvent(first.id, 'llm_response', llmResponseData(10, 5, 20, 1));
      await events.createSession('alice');
      await events.endSession(first.id, 'completed');
      expect(await events.dailyMetrics('alice')).toEqual([
        {
          user_id: 'alice',
          day: '2025-03-01',
          session_count: 1,
          total_tokens: 35,
          cached_tokens: 20,
          total_cost_cents: 1,
        },
        {
          user_id: 'alice',
          day: '2025-03-02',
          session_count: 1,
          total_tokens: 0,
          cached_tokens: 0,
          total_cost_cents: 0,
        },
      ]);
      expect(await events.dailyMetrics('bob')).toEqual([]);
    });
  });
});
