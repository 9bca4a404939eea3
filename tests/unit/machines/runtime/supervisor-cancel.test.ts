import { describe, expect, it } from 'vitest';
import { startSupervisor as start } from '../../../support/supervisor-harness.ts';

/* `supervisor.cancel`: the host (or an agent) asks the supervisor to cancel an agent's work; only agents are told. */

const cancelled = (h: ReturnType<typeof start>, name: string) => h.agent(name).getSnapshot().context.cancelled;

describe('supervisor cancel', () => {
  it('tells the agent to cancel the one request named', () => {
    const h = start();
    h.actor.send({ type: 'supervisor.cancel', agent: 'B', requestId: 'r1' });
    expect(cancelled(h, 'B')).toStrictEqual([{ type: 'agent.cancel', requestId: 'r1' }]);
    expect(cancelled(h, 'A')).toEqual([]);
    expect(cancelled(h, 'C')).toEqual([]);
  });

  it('tells the agent to cancel all its work when no request is named', () => {
    const h = start();
    h.actor.send({ type: 'supervisor.cancel', agent: 'C' });
    h.sendAs('A', { type: 'supervisor.cancel', agent: 'B' });
    expect(cancelled(h, 'C')).toStrictEqual([{ type: 'agent.cancel' }]);
    expect(cancelled(h, 'B')).toStrictEqual([{ type: 'agent.cancel' }]);
  });

  it('ignores a cancel naming no agent: an external address, an unknown name, an inherited name, or one of its own workers', () => {
    const h = start();
    for (const agent of ['USER', 'GHOST', 'toString', 'constructor', 'journal', 'deliverer']) {
      h.actor.send({ type: 'supervisor.cancel', agent, requestId: 'r1' });
    }
    expect(h.actor.getSnapshot().status).toBe('active');
    for (const name of ['A', 'B', 'C']) expect(cancelled(h, name)).toEqual([]);
    expect(h.emitted).toEqual([]);
  });
});
