import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { ackTestSystem, stopAgent } from '../../../support/ack-harness.ts';
import { flush, startSupervisor, startSystem } from '../../../support/supervisor-harness.ts';
import { envelope } from '../../../support/test-system.ts';

/*
 * Envelopes whose sender is an external address (USER, as the host hands them in): whatever the
 * supervisor would tell a sending agent (a refusal, a throttle, a give-up) only goes to observers,
 * and the supervisor keeps routing.
 */

/** The ack test system (B, C workers) where USER may also send B notes and questions; simulated clock. */
function startWithUserRoutes(agentInput?: { maxQueued?: number; retryAfterMs?: number }) {
  const { system, calls } = ackTestSystem(agentInput ? { agentInput } : {});
  system.routes = [
    ...system.routes,
    { from: 'USER', to: 'B', data_type: 'note' },
    { from: 'USER', to: 'B', data_type: 'question' },
  ];
  const clock = new SimulatedClock();
  const { actor, emitted, agent } = startSystem(system, createMemoryJournal(), clock);
  return { actor, clock, calls, emitted, child: agent, flush };
}

const fromUser = (data_type: 'note' | 'question', text: string) =>
  envelope({ from_agent: 'USER', to_agent: 'B', data_type, payload: { text } });

describe('supervisor with external senders', () => {
  it('emits the refusal of an envelope from an external address and keeps routing', async () => {
    const { actor, emitted, agent, received, rejected, sendAs } = startSupervisor();
    const first = envelope({ from_agent: 'USER', to_agent: 'A' });
    actor.send({ type: 'supervisor.send', envelope: first });
    actor.send({ type: 'supervisor.send', envelope: first });
    actor.send({ type: 'supervisor.send', envelope: envelope({ from_agent: 'USER', to_agent: 'C' }) });
    expect(actor.getSnapshot().status).toBe('active');
    const codes = emitted.flatMap((e) => (e.type === 'supervisor.rejected' ? [e.error.code] : []));
    expect(codes).toEqual(['duplicate_message', 'unknown_edge']);
    sendAs('A', { type: 'supervisor.send', envelope: envelope() });
    await expect.poll(() => received('B').length).toBe(1);
    expect(received('A').map((d) => d.input)).toEqual([first]);
    for (const name of ['A', 'B', 'C']) expect(rejected(name)).toEqual([]);
    expect(agent('A').getSnapshot().status).toBe('active');
  });

  it('reports a throttled plain send from an external address to observers, as every report', async () => {
    const h = startWithUserRoutes({ maxQueued: 0, retryAfterMs: 700 });
    h.actor.send({ type: 'supervisor.send', envelope: fromUser('note', 'keeps B busy') });
    const full = fromUser('note', 'finds B full');
    h.actor.send({ type: 'supervisor.send', envelope: full });
    await h.flush();
    expect(h.actor.getSnapshot().status).toBe('active');
    const reports = h.emitted.flatMap((e) => (e.type === 'supervisor.report' ? [e.report] : []));
    expect(reports.map((r) => [r.requestId, r.outcome.status])).toEqual([[full.message_id, 'throttled']]);
    expect(h.emitted.filter((e) => e.type === 'supervisor.rejected')).toEqual([]);
    expect(h.child('A').getSnapshot().context.rejected).toEqual([]);
  });

  it('announces a give-up of an envelope from an external address to observers only', async () => {
    const h = startWithUserRoutes();
    stopAgent(h.child('B'));
    const q = fromUser('question', 'ready?');
    h.actor.send({ type: 'supervisor.send', envelope: q });
    await h.flush();
    for (let i = 0; i < 40; i++) {
      h.clock.increment(100);
      await h.flush();
    }
    expect(h.actor.getSnapshot().status).toBe('active');
    expect(h.emitted.filter((e) => e.type === 'supervisor.undeliverable')).toEqual([
      { type: 'supervisor.undeliverable', receiver: 'B', attempts: 3, partition: 'run-1', envelope: q },
    ]);
    expect(h.child('A').getSnapshot().context.rejected).toEqual([]);
    // The dead letter (A tells USER) is routed as ever.
    expect(h.emitted.filter((e) => e.type === 'supervisor.outbound')).toHaveLength(1);
  });
});
