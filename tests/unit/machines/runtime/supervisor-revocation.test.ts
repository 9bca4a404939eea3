import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type AnyActorLogic, type AnyActorRef } from 'xstate';
import { agentMachine } from '../../../../machines/runtime/agent.ts';
import { createSupervisorMachine, type SupervisorEmitted } from '../../../../machines/runtime/supervisor.ts';
import type { JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import type { AgentBrainInput, AgentReport } from '../../../../protocol/runtime/agent-report.ts';
import type { DeliveredMessage, RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { ackTestSystem, stopAgent } from '../../../support/ack-harness.ts';
import { createGatedJournal } from '../../../support/gated-journal.ts';
import { recorderAgent } from '../../../support/recorder-agent.ts';
import { reportRecorder } from '../../../support/report-recorder.ts';
import { startSystem } from '../../../support/supervisor-harness.ts';
import { envelope, testSystem, type TestEnvelope } from '../../../support/test-system.ts';

/*
 * What happens to work on an envelope whose append fails: under pipelined delivery its agents got
 * it early, are told to cancel, and what they produced or report on it is refused or passed on
 * as the rule for each says; under durable delivery nobody got it, so nobody is told to cancel.
 * The journal reaches the "disk" only when the test says so.
 */

/** Lets pending promises (the gated journal's outcomes, the writer's acks) settle. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A, B recorders (unless given), C the orchestrator recording what it hears; pipelined unless told otherwise. */
function start(agents: Record<string, AnyActorLogic> = {}, delivery: 'pipelined' | 'durable' = 'pipelined') {
  const journal = createGatedJournal<RoutedRecord>();
  const system = {
    ...testSystem({ A: recorderAgent, B: recorderAgent, C: reportRecorder, ...agents }),
    orchestrator: 'C',
    delivery,
  };
  const { actor, emitted, agent, sendAs } = startSystem(system, journal);
  const context = (name: string) => agent(name).getSnapshot().context;
  const reports = () => emitted.flatMap((e) => (e.type === 'supervisor.report' ? [e.report] : []));
  return { actor, journal, emitted, agent, context, sendAs, reports };
}

const reportOf = (requestId: string, outcome: AgentReport['outcome']): AgentReport => ({
  type: 'agent.report',
  agent: 'B',
  requestId,
  attempts: 1,
  outcome,
});

/** A run where A's envelope `m` to B was delivered early and then revoked by a failed append. */
async function revoked() {
  const started = start();
  const m = envelope();
  started.sendAs('A', { type: 'supervisor.send', envelope: m });
  await settle();
  started.journal.fail();
  await settle();
  expect(started.context('B').cancelled).toEqual([{ type: 'agent.cancel', requestId: m.message_id }]);
  return { ...started, m };
}

describe('supervisor revocation', () => {
  it('refuses a late completed report of revoked work by its request id, saying why', async () => {
    const { context, sendAs, reports, m } = await revoked();
    sendAs('B', reportOf(m.message_id, { status: 'completed', output: envelope({ from_agent: 'B', to_agent: 'A' }) }));
    await settle();
    expect(context('B').rejected).toStrictEqual([
      {
        type: 'supervisor.rejected',
        error: {
          code: 'journal_unavailable',
          message: `Not routed: request ${m.message_id} was revoked because the journal could not store it.`,
        },
        requestId: m.message_id,
      },
    ]);
    expect(reports()).toEqual([]);
    expect(context('C').heard).toEqual([]);
  });

  it('passes on a report of revoked work that produced nothing (failed, cancelled) to the orchestrator and observers', async () => {
    const { context, sendAs, reports, m } = await revoked();
    const cancelled = reportOf(m.message_id, { status: 'cancelled' });
    const failed = reportOf(m.message_id, { status: 'failed', failure: { kind: 'error', message: 'stopped' } });
    sendAs('B', cancelled);
    sendAs('B', failed);
    await settle();
    expect(reports()).toEqual([cancelled, failed]);
    expect(context('C').heard).toEqual([
      { type: 'supervisor.report', report: cancelled },
      { type: 'supervisor.report', report: failed },
    ]);
    expect(context('B').rejected).toEqual([]);
  });

  it('refuses a report held while its input was not durable, by its request id, once that append fails', async () => {
    const { journal, context, sendAs, reports } = start();
    const m = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: m });
    sendAs('B', reportOf(m.message_id, { status: 'completed', output: 'done' }));
    await settle();
    expect(reports()).toEqual([]);
    journal.fail();
    await settle();
    expect(context('B').rejected).toHaveLength(1);
    const [rejected] = context('B').rejected;
    expect(rejected.requestId).toBe(m.message_id);
    expect('envelope' in rejected).toBe(false);
    expect(rejected.error).toEqual({
      code: 'journal_unavailable',
      message: `Not routed: B produced it while working on ${m.message_id}, which the journal could not store.`,
    });
    expect(reports()).toEqual([]);
  });

  it('names every revoked input in the refusal of what an agent produced while they were not durable', async () => {
    const { journal, context, sendAs } = start();
    const first = envelope({ payload: { text: 'one' } });
    const second = envelope({ payload: { text: 'two' } });
    // One tick: one write, and one failure for both.
    sendAs('A', { type: 'supervisor.send', envelope: first });
    sendAs('A', { type: 'supervisor.send', envelope: second });
    const reply = envelope({ from_agent: 'B', to_agent: 'A' });
    sendAs('B', { type: 'supervisor.send', envelope: reply });
    await settle();
    expect(journal.waiting).toHaveLength(1);
    journal.fail();
    await settle();
    expect(context('B').rejected.map((r: { envelope?: unknown; error: unknown }) => [r.envelope, r.error])).toEqual([
      [
        reply,
        {
          code: 'journal_unavailable',
          message: `Not routed: B produced it while working on ${first.message_id}, ${second.message_id}, which the journal could not store.`,
        },
      ],
    ]);
  });

  it("routes a worker's output to its requester once the work's input is durable", async () => {
    const answering = agentMachine.provide({
      actors: {
        brain: fromPromise(async ({ input }: { input: AgentBrainInput }) => {
          const question = (input.input as DeliveredMessage).envelope as TestEnvelope;
          return envelope({
            from_agent: 'B',
            to_agent: 'A',
            data_type: 'answer',
            payload: { text: `re: ${question.payload.text}` },
          });
        }),
      },
    });
    const { journal, context, sendAs, reports } = start({ B: answering });
    const question = envelope({ data_type: 'question', payload: { text: 'why?' } });
    sendAs('A', { type: 'supervisor.request', envelope: question });
    await settle();
    await settle();
    expect(reports()).toEqual([]);
    await journal.commit();
    await settle();
    expect(reports().map((r) => r.outcome.status)).toEqual(['completed']);
    // Admitted now: delivered to A at once (pipelined), its append on its way.
    expect(journal.waiting.flatMap((w) => w.data.map((r) => r.kind))).toEqual(['response']);
    await journal.commit();
    await settle();
    const delivered = context('A').received.map((d: { input: DeliveredMessage }) => d.input);
    expect(delivered).toEqual([
      {
        envelope: expect.objectContaining({ data_type: 'answer', payload: { text: 're: why?' } }),
        delivery: { kind: 'response', correlationId: question.message_id },
      },
    ]);
    expect((await journal.durable.read('run-1')).map((e) => e.data.kind)).toEqual(['request', 'response']);
  });

  it('tells no agent to cancel when a durable delivery’s append fails: nobody got it', async () => {
    const { journal, context, sendAs } = start({}, 'durable');
    const m = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: m });
    await settle();
    journal.fail();
    await settle();
    expect(context('A').rejected.map((r: { error: { code: string } }) => r.error.code)).toEqual([
      'journal_unavailable',
    ]);
    expect(context('B').received).toEqual([]);
    expect(context('B').cancelled).toEqual([]);
  });

  it('stops waiting for the ack of an early delivery that was revoked: no redelivery, no give-up', async () => {
    const { system } = ackTestSystem();
    const journal = createGatedJournal<JournalRecord>();
    const clock = new SimulatedClock();
    const actor = createActor(
      createSupervisorMachine({ ...system, delivery: 'pipelined' }, { journal, now: () => clock.now() }),
      { input: {}, clock },
    );
    const emitted: SupervisorEmitted[] = [];
    actor.on('*', (event) => emitted.push(event as SupervisorEmitted));
    actor.start();
    const child = (name: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
    stopAgent(child('B')); // it never acks
    child('A').send({
      type: 'recorder.send',
      event: { type: 'supervisor.send', envelope: envelope({ data_type: 'question' }) },
    });
    await settle();
    expect(journal.waiting.flatMap((w) => w.data.map((r) => r.kind))).toEqual(['direct', 'ack.armed']);
    journal.fail();
    await settle();
    for (let i = 0; i < 40; i++) {
      clock.increment(100);
      await settle();
    }
    expect(journal.waiting).toEqual([]);
    expect(emitted.filter((e) => e.type === 'supervisor.undeliverable')).toEqual([]);
    expect(
      (child('A').getSnapshot().context.rejected as { error: { code: string } }[]).map((r) => r.error.code),
    ).toEqual(['journal_unavailable']);
  });
});
