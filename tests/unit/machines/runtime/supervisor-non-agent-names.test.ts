import { describe, expect, it } from 'vitest';
import { startSupervisor, until } from '../../../support/supervisor-harness.ts';
import { envelope } from '../../../support/test-system.ts';

/* Names that run no agent (an external address, an unknown name) where the supervisor would tell an agent something. */

describe('supervisor and names that run no agent', () => {
  it('tells only observers of a refusal whose sender is an external address, and keeps routing', async () => {
    const { actor, agent, emitted, received } = startSupervisor();
    const errors: unknown[] = [];
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.send({ type: 'supervisor.send', envelope: envelope({ from_agent: 'USER', to_agent: 'C' }) });
    expect(emitted.filter((e) => e.type === 'supervisor.rejected').map((e) => (e as any).error.code)).toEqual([
      'unknown_edge',
    ]);
    const allowed = envelope({ from_agent: 'USER', to_agent: 'A' });
    actor.send({ type: 'supervisor.send', envelope: allowed });
    await until(agent('A'), (c) => c.received.length === 1);
    expect(received('A')[0]!.input).toEqual(allowed);
    expect(errors).toEqual([]);
    expect(actor.getSnapshot().status).toBe('active');
  });

  it("passes a cancel on to the agent it names, and ignores one that names no agent of the system's", () => {
    const { actor, agent } = startSupervisor();
    const errors: unknown[] = [];
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.send({ type: 'supervisor.cancel', agent: 'B', requestId: 'r-1' });
    actor.send({ type: 'supervisor.cancel', agent: 'C' });
    for (const name of ['USER', 'GHOST', 'toString', 'constructor'])
      actor.send({ type: 'supervisor.cancel', agent: name, requestId: 'r-2' });
    expect(agent('B').getSnapshot().context.cancelled).toEqual([{ type: 'agent.cancel', requestId: 'r-1' }]);
    expect(agent('C').getSnapshot().context.cancelled).toEqual([{ type: 'agent.cancel' }]);
    expect(agent('A').getSnapshot().context.cancelled).toEqual([]);
    expect(errors).toEqual([]);
    expect(actor.getSnapshot().status).toBe('active');
  });
});
