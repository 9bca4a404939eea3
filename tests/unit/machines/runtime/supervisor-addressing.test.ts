import { describe, expect, it } from 'vitest';
import { SimulatedClock, waitFor, type AnyActorRef } from 'xstate';
import type { JournalEntry } from '../../../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { isRoutedRecord, type JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { coscientistMessage, coscientistTestSystem } from '../../../support/coscientist/coscientist-test-system.ts';
import { createGatedJournal } from '../../../support/gated-journal.ts';
import { orgMessage, orgTestSystem } from '../../../support/org/org-test-system.ts';
import { V2_ARRAY_DESTINATION } from '../../../support/org/spec-examples.ts';
import { startSystem, until } from '../../../support/supervisor-harness.ts';

/** One turn of the event loop: the journal writer has taken what was admitted. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Resolves once nothing waits for the journal. */
const settled = (actor: AnyActorRef) => waitFor(actor, (s) => s.context.ledger.idle(), { timeout: 2_000 });

/** The routed envelopes of a journal, without the ack records journaled beside them. */
const routedOf = (entries: readonly JournalEntry<JournalRecord>[]) => entries.map((e) => e.data).filter(isRoutedRecord);

describe('supervisor with spec 003 addressing (nested header, broadcast, expiry)', () => {
  it('routes a nested envelope by its header and journals it verbatim', async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const { agent, received, sendAs } = startSystem(coscientistTestSystem(), journal);
    const sent = coscientistMessage();
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: sent });
    await until(agent('GENERATION'), (c) => c.received.length === 1);
    expect(received('GENERATION')[0]!.input).toStrictEqual(sent);
    expect(agent('GENERATION').getSnapshot().context.received[0].requestId).toBe(sent.header.message_id);
    const entries = await journal.read('goal-1');
    expect(entries.map((e) => e.data)).toStrictEqual([{ kind: 'direct', envelope: sent }]);
  });

  it('delivers a broadcast to every agent but the sender, journaled once', async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const { actor, agent, received, sendAs } = startSystem(coscientistTestSystem(), journal);
    const sent = coscientistMessage({ target_agent: 'broadcast', message_type: 'research_plan' });
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: sent });
    for (const name of ['GENERATION', 'REFLECTION', 'RANKING'])
      await until(agent(name), (c) => c.received.length === 1);
    await settled(actor);
    expect(received('SUPERVISOR')).toHaveLength(0);
    expect(received('RANKING')[0]!.input).toStrictEqual(sent);
    expect((await journal.read('goal-1')).map((e) => e.data.envelope)).toStrictEqual([sent]);
  });

  it('refuses a broadcast from an agent the routing table does not let broadcast, naming the edge', async () => {
    const { actor, agent, received, rejected, sendAs } = startSystem(coscientistTestSystem());
    const sent = coscientistMessage({
      source_agent: 'GENERATION',
      target_agent: 'broadcast',
      message_type: 'research_plan',
    });
    sendAs('GENERATION', { type: 'supervisor.send', envelope: sent });
    await until(agent('GENERATION'), (c) => c.rejected.length === 1);
    expect(rejected('GENERATION')[0]!.error).toMatchObject({ code: 'unknown_edge' });
    expect(rejected('GENERATION')[0]!.error.message).toContain('GENERATION -> broadcast : research_plan');
    await settled(actor);
    for (const name of ['SUPERVISOR', 'REFLECTION', 'RANKING']) expect(received(name)).toHaveLength(0);
  });

  it('drops a duplicate header.message_id and answers the nested sender', async () => {
    const { agent, received, rejected, sendAs } = startSystem(coscientistTestSystem());
    const sent = coscientistMessage();
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: sent });
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: { ...sent, routing: { priority: 1 } } });
    await until(agent('SUPERVISOR'), (c) => c.rejected.length === 1);
    expect(rejected('SUPERVISOR')[0]!.error.code).toBe('duplicate_message');
    expect(rejected('SUPERVISOR')[0]!.error.message).toContain(sent.header.message_id);
    await until(agent('GENERATION'), (c) => c.received.length === 1);
    expect(received('GENERATION')).toHaveLength(1);
  });

  it('answers a valid name that runs no agent with unknown_agent, and a bad field with its nested path', async () => {
    const { agent, rejected, sendAs } = startSystem(coscientistTestSystem());
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: coscientistMessage({ target_agent: 'EVOLUTION' }) });
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: coscientistMessage({}, { priority: 0 }) });
    await until(agent('SUPERVISOR'), (c) => c.rejected.length === 2);
    expect(rejected('SUPERVISOR')[0]!.error).toMatchObject({ code: 'unknown_agent' });
    expect(rejected('SUPERVISOR')[0]!.error.message).toContain('EVOLUTION');
    expect(rejected('SUPERVISOR')[1]!.error.code).toBe('invalid_envelope');
    expect(rejected('SUPERVISOR')[1]!.error.issues?.map((i) => i.path)).toEqual(['routing.priority']);
  });

  it('journals an envelope already past its expiry as expired, emits it, and delivers it to nobody', async () => {
    const clock = new SimulatedClock();
    const expiry = '2026-03-01T10:00:00Z';
    clock.set(Date.parse(expiry));
    const journal = createMemoryJournal<RoutedRecord>();
    const { actor, agent, emitted, received, sendAs } = startSystem(coscientistTestSystem(), journal, clock);
    const late = coscientistMessage({}, { expires_at: expiry });
    const timely = coscientistMessage({}, { expires_at: '2026-03-01T10:00:00.001Z' });
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: late });
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: timely });
    await until(agent('GENERATION'), (c) => c.received.length === 1);
    await settled(actor);
    expect(received('GENERATION').map((d) => d.input)).toStrictEqual([timely]);
    expect((await journal.read('goal-1')).map((e) => e.data)).toStrictEqual([
      { kind: 'direct', envelope: late, expired: true },
      { kind: 'direct', envelope: timely },
    ]);
    const expired = emitted.filter((e) => e.type === 'supervisor.expired');
    expect(expired).toStrictEqual([
      {
        type: 'supervisor.expired',
        partition: 'goal-1',
        record: { kind: 'direct', envelope: late, expired: true },
        at: 'admission',
      },
    ]);
    expect(emitted.filter((e) => e.type === 'supervisor.routed')).toHaveLength(1);
    // Its id was journaled: sent again, it is a duplicate.
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: late });
    await until(agent('SUPERVISOR'), (c) => c.rejected.length === 1);
    expect(agent('SUPERVISOR').getSnapshot().context.rejected[0].error.code).toBe('duplicate_message');
  });

  it('does not deliver an envelope that expired while its delivery waited for the journal', async () => {
    const clock = new SimulatedClock();
    clock.set(Date.parse('2026-03-01T09:59:59Z'));
    const journal = createGatedJournal<RoutedRecord>();
    const { actor, emitted, received, sendAs } = startSystem(coscientistTestSystem(), journal, clock);
    const sent = coscientistMessage({}, { expires_at: '2026-03-01T10:00:00Z' });
    const lasting = coscientistMessage({}, { expires_at: '2026-03-01T11:00:00Z' });
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: sent });
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: lasting });
    await tick();
    expect(journal.waiting).toHaveLength(1);
    clock.increment(1_000);
    await journal.commit();
    await settled(actor);
    expect(received('GENERATION').map((d) => d.input)).toStrictEqual([lasting]);
    expect(emitted.filter((e) => e.type === 'supervisor.expired')).toStrictEqual([
      { type: 'supervisor.expired', partition: 'goal-1', record: { kind: 'direct', envelope: sent }, at: 'delivery' },
    ]);
    // The journal holds it as admitted: it was not expired then.
    expect((await journal.durable.read('goal-1')).map((e) => e.data.envelope)).toStrictEqual([sent, lasting]);
  });
  it('lets pipelined delivery through once delivered, however late its append is acknowledged', async () => {
    const clock = new SimulatedClock();
    clock.set(Date.parse('2026-03-01T09:59:59Z'));
    const journal = createGatedJournal<RoutedRecord>();
    const system = { ...coscientistTestSystem(), delivery: 'pipelined' as const };
    const { actor, emitted, received, sendAs } = startSystem(system, journal, clock);
    const sent = coscientistMessage({}, { expires_at: '2026-03-01T10:00:00Z' });
    sendAs('SUPERVISOR', { type: 'supervisor.send', envelope: sent });
    await tick();
    expect(received('GENERATION').map((d) => d.input)).toStrictEqual([sent]);
    clock.increment(1_000);
    await journal.commit();
    await settled(actor);
    expect(emitted.filter((e) => e.type === 'supervisor.expired')).toEqual([]);
    expect(emitted.filter((e) => e.type === 'supervisor.routed')).toHaveLength(1);
  });
});

describe('supervisor with spec 004 addressing (several receivers, correlation)', () => {
  it('delivers an envelope to each of its receivers once and journals it once, verbatim', async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const { actor, agent, emitted, received, sendAs } = startSystem(orgTestSystem(), journal);
    sendAs('product', { type: 'supervisor.send', envelope: V2_ARRAY_DESTINATION });
    await until(agent('frontend'), (c) => c.received.length === 1);
    await until(agent('backend'), (c) => c.received.length === 1);
    await settled(actor);
    expect(received('frontend')[0]!.input).toStrictEqual(V2_ARRAY_DESTINATION);
    expect(received('backend')[0]!.input).toStrictEqual(V2_ARRAY_DESTINATION);
    // Ack records (004 requests need acks) are journaled beside it: the envelope is there once.
    expect(routedOf(await journal.read('sprint-7'))).toStrictEqual([
      { kind: 'direct', envelope: V2_ARRAY_DESTINATION },
    ]);
    expect(emitted.filter((e) => e.type === 'supervisor.routed')).toHaveLength(1);
  });

  it('delivers once to a receiver named twice', async () => {
    const { actor, agent, received, sendAs } = startSystem(orgTestSystem());
    sendAs('product', {
      type: 'supervisor.send',
      envelope: orgMessage({ destination_agent: ['frontend', 'frontend'], message_type: 'notification' }),
    });
    await until(agent('frontend'), (c) => c.received.length === 1);
    await settled(actor);
    expect(received('frontend')).toHaveLength(1);
  });

  it('refuses the whole envelope when one receiver has no edge, naming that edge', async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const { actor, agent, received, rejected, sendAs } = startSystem(orgTestSystem(), journal);
    const sent = orgMessage({ destination_agent: ['frontend', 'database', 'backend'] });
    sendAs('product', { type: 'supervisor.send', envelope: sent });
    await until(agent('product'), (c) => c.rejected.length === 1);
    expect(rejected('product')[0]!.error.code).toBe('unknown_edge');
    expect(rejected('product')[0]!.error.message).toContain('product -> database : request');
    await settled(actor);
    for (const name of ['frontend', 'database', 'backend']) expect(received(name)).toHaveLength(0);
    expect(await journal.read('sprint-7')).toEqual([]);
  });

  it('answers a request by the correlation its response carries, without naming it in the event', async () => {
    const clock = new SimulatedClock();
    const { actor, agent, received, rejected, sendAs } = startSystem(orgTestSystem(), createMemoryJournal(), clock);
    const request = orgMessage();
    sendAs('product', { type: 'supervisor.request', envelope: request, timeoutMs: 1_000 });
    await until(agent('backend'), (c) => c.received.length === 1);
    const response = orgMessage({
      source_agent: 'backend',
      destination_agent: 'product',
      message_type: 'response',
      context: { sprint_id: 'sprint-7', related_messages: [request.message_id] },
    });
    sendAs('backend', { type: 'supervisor.respond', envelope: response });
    await until(agent('product'), (c) => c.received.length === 1);
    expect(received('product')[0]!.delivery).toEqual({ kind: 'response', correlationId: request.message_id });
    clock.increment(2_000);
    await settled(actor);
    expect(rejected('product')).toHaveLength(0);
  });

  it('takes a plain send that names an open request of its receiver as its response', async () => {
    const clock = new SimulatedClock();
    const journal = createMemoryJournal<RoutedRecord>();
    const { actor, agent, received, rejected, sendAs } = startSystem(orgTestSystem(), journal, clock);
    const request = orgMessage();
    sendAs('product', { type: 'supervisor.request', envelope: request, timeoutMs: 1_000 });
    await until(agent('backend'), (c) => c.received.length === 1);
    const response = orgMessage({
      source_agent: 'backend',
      destination_agent: 'product',
      message_type: 'response',
      context: { sprint_id: 'sprint-7', related_messages: [request.message_id] },
    });
    sendAs('backend', { type: 'supervisor.send', envelope: response });
    await until(agent('product'), (c) => c.received.length === 1);
    clock.increment(2_000);
    await settled(actor);
    expect(received('product')[0]!.delivery).toEqual({ kind: 'response', correlationId: request.message_id });
    expect(rejected('product')).toHaveLength(0);
    expect(routedOf(await journal.read('sprint-7')).map((r) => r.correlation_id)).toEqual([
      request.message_id,
      request.message_id,
    ]);
  });

  it('refuses a response whose correlation names no open request', async () => {
    const { agent, rejected, sendAs } = startSystem(orgTestSystem());
    const response = orgMessage({
      source_agent: 'backend',
      destination_agent: 'product',
      message_type: 'response',
      context: { sprint_id: 'sprint-7', related_messages: ['nobody-asked'] },
    });
    sendAs('backend', { type: 'supervisor.respond', envelope: response });
    await until(agent('backend'), (c) => c.rejected.length === 1);
    expect(rejected('backend')[0]!.error.code).toBe('unknown_correlation');
    expect(rejected('backend')[0]!.error.message).toContain('nobody-asked');
  });

  it("exposes the system's ack policy reader on the ledger (every request requires an ack)", () => {
    const { actor } = startSystem(orgTestSystem());
    const { addressing } = actor.getSnapshot().context.ledger;
    expect(addressing.ackPolicyOf(orgMessage())).toEqual({ timeoutMs: 30_000, retries: 3 });
    expect(addressing.ackPolicyOf(orgMessage({ message_type: 'notification', acknowledgment: undefined }))).toBe(
      undefined,
    );
  });
});
