import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import type { SupervisorInput } from '../../../../machines/runtime/supervisor.ts';
import type { SystemDefinition } from '../../../../machines/runtime/supervisor-system.ts';
import { DEFAULT_ADDRESSING } from '../../../../protocol/runtime/envelope-addressing.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { ackTestSystem } from '../../../support/ack-harness.ts';
import { createGatedJournal } from '../../../support/gated-journal.ts';
import { flush, startSystem } from '../../../support/supervisor-harness.ts';
import { envelope, testSystem } from '../../../support/test-system.ts';

/*
 * Pipelined delivery (`delivery: 'pipelined'`) at the edges: an envelope for an external address,
 * a redelivery of an envelope already durable, and a receiver that throttles a plain send.
 */

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A pipelined system's supervisor on a simulated clock, started with `input`. */
const startPipelined = (system: SystemDefinition, input: SupervisorInput = {}) =>
  startSystem({ ...system, delivery: 'pipelined' }, createMemoryJournal(), new SimulatedClock(), { input });

describe('supervisor with pipelined delivery, at the edges', () => {
  it('does not hand out an envelope for an external address that expired while its append waited', async () => {
    const clock = new SimulatedClock();
    const journal = createGatedJournal<RoutedRecord>();
    const system = {
      ...testSystem(),
      addressing: { ...DEFAULT_ADDRESSING, expiry: 'expires_at' },
      delivery: 'pipelined' as const,
    };
    const { emitted, sendAs } = startSystem(system, journal, clock);
    const sent = envelope({ from_agent: 'B', to_agent: 'USER', expires_at: 500 });
    sendAs('B', { type: 'supervisor.send', envelope: sent });
    await tick();
    clock.increment(1_000);
    await journal.commit();
    await tick();
    expect(emitted.filter((e) => e.type === 'supervisor.outbound')).toEqual([]);
    expect(emitted.filter((e) => e.type === 'supervisor.expired')).toEqual([
      { type: 'supervisor.expired', partition: 'run-1', record: { kind: 'direct', envelope: sent }, at: 'delivery' },
    ]);
  });

  it('does not hold what an agent sends after it got a redelivery of an envelope already durable', async () => {
    const durable = envelope();
    const { agent, sendAs } = startPipelined(testSystem(), { journaledIds: [durable.message_id] });
    sendAs('A', { type: 'supervisor.send', envelope: durable, redeliver: true });
    expect(agent('B').getSnapshot().context.received).toHaveLength(1);
    const reply = envelope({ from_agent: 'B', to_agent: 'A' });
    sendAs('B', { type: 'supervisor.send', envelope: reply });
    await flush();
    expect(
      agent('A')
        .getSnapshot()
        .context.received.map((d: { input: { envelope: unknown } }) => d.input.envelope),
    ).toEqual([reply]);
  });

  it('tells the sender of a plain send that its receiver throttled it', async () => {
    const { system } = ackTestSystem({ tracked: false, agentInput: { maxQueued: 0, retryAfterMs: 700 } });
    const { agent, sendAs } = startPipelined(system);
    const second = envelope({ payload: { text: 'finds B full' } });
    sendAs('A', { type: 'supervisor.send', envelope: envelope({ payload: { text: 'keeps B busy' } }) });
    sendAs('A', { type: 'supervisor.send', envelope: second });
    await flush();
    const rejected = agent('A').getSnapshot().context.rejected as { error: { code: string }; requestId: string }[];
    expect(rejected.map((r) => [r.error.code, r.requestId])).toEqual([['throttled', second.message_id]]);
  });

  it('remembers no sender for a request delivered early (its requester is known by the open request)', async () => {
    const { system, calls } = ackTestSystem({ tracked: false });
    const { actor, sendAs } = startPipelined(system);
    sendAs('A', { type: 'supervisor.request', envelope: envelope({ data_type: 'question' }) });
    await flush();
    expect(calls.map((c) => c.agent)).toEqual(['B']);
    expect(actor.getSnapshot().context.senders.size).toBe(0);
    sendAs('A', { type: 'supervisor.send', envelope: envelope() });
    await flush();
    expect(actor.getSnapshot().context.senders.size).toBe(1);
  });
});
