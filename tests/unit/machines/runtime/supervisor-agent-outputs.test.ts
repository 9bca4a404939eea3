import { describe, expect, it } from 'vitest';
import { startSupervisor, until } from '../../../support/supervisor-harness.ts';
import { envelope } from '../../../support/test-system.ts';

/* What the supervisor routes of an agent's report: the output of completed work, as the agent's own sends. */

/** A report by `agent` on `requestId` that ended as `outcome`. */
const report = (agent: string, requestId: string, outcome: object) => ({
  type: 'agent.report',
  agent,
  requestId,
  attempts: 1,
  outcome,
});

describe("supervisor routing of agents' outputs", () => {
  it('routes the output of work on a plain send as a plain send of the agent', async () => {
    const { agent, emitted, received, rejected, sendAs } = startSupervisor();
    const note = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: note });
    await until(agent('B'), (c) => c.received.length === 1);
    const reply = envelope({ from_agent: 'B', to_agent: 'A' });
    sendAs('B', report('B', note.message_id, { status: 'completed', output: reply }));
    await until(agent('A'), (c) => c.received.length === 1);
    expect(received('A')[0]).toMatchObject({ input: reply, delivery: { kind: 'direct' } });
    expect(rejected('B')).toEqual([]);
    expect(emitted.filter((e) => e.type === 'supervisor.report')).toHaveLength(1);
  });

  it('routes the output of work on a request as its response only when it goes back to the requester', async () => {
    const { agent, emitted, received, rejected, sendAs } = startSupervisor();
    const question = envelope({ data_type: 'question' });
    sendAs('A', { type: 'supervisor.request', envelope: question });
    await until(agent('B'), (c) => c.received.length === 1);
    const aside = envelope({ from_agent: 'B', to_agent: 'USER' });
    const answer = envelope({ from_agent: 'B', to_agent: 'A', data_type: 'answer' });
    sendAs('B', report('B', question.message_id, { status: 'completed', output: [aside, answer] }));
    await until(agent('A'), (c) => c.received.length === 1);
    await expect.poll(() => emitted.filter((e) => e.type === 'supervisor.outbound')).toHaveLength(1);
    expect(emitted.find((e) => e.type === 'supervisor.outbound')).toMatchObject({
      record: { kind: 'direct', envelope: aside },
    });
    expect(received('A')[0]).toMatchObject({
      input: answer,
      delivery: { kind: 'response', correlationId: question.message_id },
    });
    expect(rejected('B')).toEqual([]);
  });

  it('routes nothing a report carries unless the work completed', async () => {
    const { agent, emitted, received, sendAs } = startSupervisor();
    const note = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: note });
    await until(agent('B'), (c) => c.received.length === 1);
    const failure = { kind: 'error', message: 'boom' };
    for (const outcome of [
      { status: 'failed', failure },
      { status: 'cancelled' },
      { status: 'throttled', retryAfterMs: 0 },
    ])
      sendAs('B', report('B', note.message_id, { ...outcome, output: envelope({ from_agent: 'B', to_agent: 'A' }) }));
    await expect.poll(() => emitted.filter((e) => e.type === 'supervisor.report')).toHaveLength(3);
    const completed = envelope({ from_agent: 'B', to_agent: 'A' });
    sendAs('B', report('B', note.message_id, { status: 'completed', output: completed }));
    await until(agent('A'), (c) => c.received.length === 1);
    expect(received('A').map((d) => d.input)).toEqual([completed]);
  });
});
