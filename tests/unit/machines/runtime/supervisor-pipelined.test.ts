import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorLogic, type AnyActorRef } from 'xstate';
import { agentMachine } from '../../../../machines/runtime/agent.ts';
import {
  createSupervisorMachine,
  routedRecordsOf,
  type SupervisorEmitted,
} from '../../../../machines/runtime/supervisor.ts';
import type { AgentBrainInput } from '../../../../protocol/runtime/agent-report.ts';
import type { DeliveredMessage, RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { createGatedJournal } from '../../../support/gated-journal.ts';
import { recorderAgent } from '../../../support/recorder-agent.ts';
import { envelope, testSystem, type TestEnvelope } from '../../../support/test-system.ts';

/*
 * Pipelined delivery (`delivery: 'pipelined'`): an agent gets an envelope as soon as its append
 * is issued; nothing that depends on it leaves before it is durable (the output-commit rule).
 * The journal here only "reaches the disk" when the test says so.
 */

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function start(
  agents: Record<string, AnyActorLogic> = { A: recorderAgent, B: recorderAgent, C: recorderAgent },
  extra: object = {},
) {
  const journal = createGatedJournal<RoutedRecord>();
  const system = { ...testSystem(agents), delivery: 'pipelined' as const, ...extra };
  const actor = createActor(createSupervisorMachine(system, { journal }), { input: {} });
  const emitted: SupervisorEmitted[] = [];
  actor.on('*', (event) => emitted.push(event as SupervisorEmitted));
  actor.start();
  const agent = (name: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
  const context = (name: string) => agent(name).getSnapshot().context;
  const received = (name: string): TestEnvelope[] =>
    context(name).received.map((d: { input: DeliveredMessage }) => d.input.envelope);
  const sendAs = (name: string, event: unknown) => agent(name).send({ type: 'recorder.send', event });
  const journaled = async () => (await journal.durable.read('run-1')).map((e) => e.data.envelope.message_id);
  const routed = () => emitted.flatMap(routedRecordsOf).map((record) => record.envelope.message_id);
  return { actor, journal, emitted, agent, context, received, sendAs, journaled, routed };
}

/** A completed report of request `requestId` by `agent`, whose output is `output`. */
const completed = (agent: string, requestId: string, output: unknown) => ({
  type: 'agent.report',
  agent,
  requestId,
  attempts: 1,
  outcome: { status: 'completed', output },
});

/** A run with C as orchestrator, where A's envelope to B was delivered early and then revoked by a failed append. */
async function revokedDelivery() {
  const started = start({ A: recorderAgent, B: recorderAgent, C: recorderAgent }, { orchestrator: 'C' });
  const m = envelope();
  started.sendAs('A', { type: 'supervisor.send', envelope: m });
  await tick();
  started.journal.fail();
  await tick();
  return { ...started, m };
}

describe('supervisor with pipelined delivery', () => {
  it('delivers to an agent as soon as the append is issued, but emits routed only once it is durable', async () => {
    const { journal, received, sendAs, routed, journaled } = start();
    const m = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: m });
    expect(received('B')).toEqual([m]);
    await tick();
    expect(journal.waiting).toHaveLength(1);
    expect(routed()).toEqual([]);
    await journal.commit();
    await tick();
    expect(routed()).toEqual([m.message_id]);
    expect(await journaled()).toEqual([m.message_id]);
  });

  it('hands an envelope to an external address only once it is durable', async () => {
    const { journal, emitted, sendAs } = start();
    sendAs('B', { type: 'supervisor.send', envelope: envelope({ from_agent: 'B', to_agent: 'USER' }) });
    await tick();
    expect(emitted.filter((e) => e.type === 'supervisor.outbound')).toHaveLength(0);
    await journal.commit();
    await tick();
    expect(emitted.filter((e) => e.type === 'supervisor.outbound')).toHaveLength(1);
  });

  it('holds what an agent sends until every envelope delivered to it is durable, then routes it in order', async () => {
    const { journal, received, sendAs, journaled } = start();
    const m = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: m });
    const replies = [1, 2, 3].map((n) => envelope({ from_agent: 'B', to_agent: 'A', payload: { text: 'reply', n } }));
    for (const reply of replies) sendAs('B', { type: 'supervisor.send', envelope: reply });
    await tick();
    expect(received('A')).toEqual([]);
    expect(journal.waiting.flatMap((w) => w.data.map((r) => r.envelope.message_id))).toEqual([m.message_id]);
    await journal.commit();
    await tick();
    expect(received('A')).toEqual(replies);
    await journal.commit();
    expect(await journaled()).toEqual([m, ...replies].map((e) => e.message_id));
  });

  it("holds a worker's report from its orchestrator until the work's input is durable", async () => {
    const answering = agentMachine.provide({
      actors: {
        brain: fromPromise(async ({ input }: { input: AgentBrainInput }) => {
          const question = (input.input as DeliveredMessage).envelope as TestEnvelope;
          return [
            envelope({
              from_agent: 'B',
              to_agent: 'A',
              data_type: 'answer',
              payload: { text: `re: ${question.payload.text}` },
            }),
          ];
        }),
      },
    });
    const { actor, journal, sendAs } = start(
      { A: recorderAgent, B: answering, C: recorderAgent },
      { orchestrator: 'C', routeAgentOutputs: false },
    );
    const reports: unknown[] = [];
    actor.on('supervisor.report', (event) => reports.push(event.report));
    sendAs('A', { type: 'supervisor.send', envelope: envelope({ data_type: 'question' }) });
    await tick();
    await tick();
    expect(reports).toHaveLength(0);
    await journal.commit();
    await expect.poll(() => reports.length).toBe(1);
  });

  it('revokes a delivery whose append fails: the agent is told to cancel, the sender hears journal_unavailable, what the agent produced meanwhile is refused', async () => {
    const { journal, context, sendAs, journaled, routed } = start();
    const m = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: m });
    const reply = envelope({ from_agent: 'B', to_agent: 'A' });
    sendAs('B', { type: 'supervisor.send', envelope: reply });
    await tick();
    journal.fail('disk full');
    await tick();
    expect(context('A').rejected.map((r: { error: { code: string } }) => r.error.code)).toEqual([
      'journal_unavailable',
    ]);
    expect(context('B').cancelled).toEqual([{ type: 'agent.cancel', requestId: m.message_id }]);
    expect(context('B').rejected).toHaveLength(1);
    expect(context('B').rejected[0].error).toMatchObject({ code: 'journal_unavailable' });
    expect(context('B').rejected[0].error.message).toContain(m.message_id);
    expect(context('B').rejected[0].envelope).toEqual(reply);
    expect(context('A').received).toHaveLength(0);
    expect(journal.waiting).toHaveLength(0);
    expect(await journaled()).toEqual([]);
    expect(routed()).toEqual([]);
  });

  it('routes the work on an envelope sent again after its revocation', async () => {
    const { actor, journal, context, sendAs, emitted, m } = await revokedDelivery();
    // A does as it is told: it sends m again, and this time the journal stores it.
    sendAs('A', { type: 'supervisor.send', envelope: m });
    await tick();
    await journal.commit();
    await tick();
    const reply = envelope({ from_agent: 'B', to_agent: 'A' });
    sendAs('B', completed('B', m.message_id, reply));
    await tick();
    expect(context('B').received).toHaveLength(2);
    expect(context('B').rejected).toHaveLength(0);
    expect(emitted.filter((e) => e.type === 'supervisor.report')).toHaveLength(1);
    actor.stop();
  });

  it('revokes a redelivery that came while the first append of its id was in flight, when that append fails', async () => {
    const { journal, context, sendAs, journaled, routed } = start();
    const m = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: m, redeliver: true });
    sendAs('A', { type: 'supervisor.send', envelope: m, redeliver: true });
    expect(context('B').received).toHaveLength(2);
    await tick();
    expect(journal.waiting).toHaveLength(1);
    journal.fail();
    await tick();
    expect(context('B').cancelled).toEqual([
      { type: 'agent.cancel', requestId: m.message_id },
      { type: 'agent.cancel', requestId: m.message_id },
    ]);
    expect(context('A').rejected.map((r: { error: { code: string } }) => r.error.code)).toEqual([
      'journal_unavailable',
      'journal_unavailable',
    ]);
    expect(routed()).toEqual([]);
    expect(await journaled()).toEqual([]);
  });

  it('refuses a late report of revoked work from an agent that did not stop', async () => {
    const { actor, journal, context, sendAs, emitted, m } = await revokedDelivery();
    const late = envelope({ from_agent: 'B', to_agent: 'A' });
    sendAs('B', completed('B', m.message_id, late));
    await tick();
    expect(journal.waiting).toHaveLength(0);
    expect(context('B').rejected.map((r: { error: { code: string } }) => r.error.code)).toEqual([
      'journal_unavailable',
    ]);
    expect(emitted.filter((e) => e.type === 'supervisor.report')).toHaveLength(0);
    actor.stop();
  });
});
