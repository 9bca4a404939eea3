import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type AnyActorRef } from 'xstate';
import { agentMachine } from '../../../../machines/runtime/agent.ts';
import type { AgentBrainInput } from '../../../../protocol/runtime/agent-report.ts';
import type { DeliveredMessage } from '../../../../protocol/runtime/routing.ts';
import { recorderAgent } from '../../../support/recorder-agent.ts';
import { openFileJournal } from '../../../../actors/runtime/file-journal.ts';
import type { Journal } from '../../../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { createSupervisorMachine } from '../../../../machines/runtime/supervisor.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { startSupervisor as start, until } from '../../../support/supervisor-harness.ts';
import { envelope, testSystem, type TestEnvelope } from '../../../support/test-system.ts';

describe('supervisor', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('spawns every agent of the system by name, beside its journal writer and deliverer', () => {
    const { actor } = start();
    expect(Object.keys(actor.getSnapshot().children).sort()).toEqual(['A', 'B', 'C', 'deliverer', 'journal']);
  });

  it('delivers a valid envelope on a declared edge after journaling it', async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const { agent, received, sendAs } = start(journal);
    const sent = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: sent });
    await until(agent('B'), (c) => c.received.length === 1);
    expect(received('B')[0]!.input).toEqual(sent);
    expect(received('B')[0]!.delivery).toEqual({ kind: 'direct' });
    expect((await journal.read('run-1')).map((e) => e.data.envelope)).toEqual([sent]);
  });

  it('answers an invalid envelope with invalid_envelope naming the field', async () => {
    const { agent, rejected, received, sendAs } = start();
    sendAs('A', { type: 'supervisor.send', envelope: { ...envelope(), payload: { text: 42 } } });
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]!.error.code).toBe('invalid_envelope');
    expect(rejected('A')[0]!.error.issues?.map((i) => i.path)).toContain('payload.text');
    expect(received('B')).toHaveLength(0);
  });

  it('answers an edge missing from the routing table with unknown_edge', async () => {
    const { agent, rejected, received, sendAs } = start();
    sendAs('C', { type: 'supervisor.send', envelope: envelope({ from_agent: 'C', to_agent: 'A' }) });
    await until(agent('C'), (c) => c.rejected.length === 1);
    expect(rejected('C')[0]!.error.code).toBe('unknown_edge');
    expect(rejected('C')[0]!.error.message).toContain('C -> A : note');
    expect(received('A')).toHaveLength(0);
  });

  it('answers a declared pair of agents with a data type not declared between them with unknown_edge', async () => {
    const { agent, rejected, received, sendAs } = start();
    sendAs('A', { type: 'supervisor.send', envelope: envelope({ data_type: 'answer' }) });
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]!.error.code).toBe('unknown_edge');
    expect(rejected('A')[0]!.error.message).toContain('A -> B : answer');
    expect(received('B')).toHaveLength(0);
  });

  it('answers an address that runs no agent with unknown_agent, even on a declared edge', async () => {
    const { agent, rejected, sendAs } = start();
    sendAs('A', { type: 'supervisor.send', envelope: envelope({ to_agent: 'GHOST' }) });
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]!.error.code).toBe('unknown_agent');
  });

  it('drops a duplicate message id with duplicate_message and delivers it once', async () => {
    const { agent, rejected, received, sendAs } = start();
    const sent = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: sent });
    sendAs('A', { type: 'supervisor.send', envelope: { ...sent, payload: { text: 'again' } } });
    await until(agent('A'), (c) => c.rejected.length === 1);
    await until(agent('B'), (c) => c.received.length === 1);
    expect(rejected('A')[0]!.error.code).toBe('duplicate_message');
    expect(received('B')).toHaveLength(1);
  });

  it('emits rejections of senders that are not agents so the host can answer them', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'supervisor.send', envelope: { nonsense: true } });
    expect(emitted.filter((e) => e.type === 'supervisor.rejected').map((e) => (e as any).error.code)).toEqual([
      'invalid_envelope',
    ]);
  });

  it('remembers ids for at least the dedup window and forgets them after two', async () => {
    const clock = new SimulatedClock();
    const { actor, agent, rejected, received, sendAs } = start(createMemoryJournal(), clock);
    const sent = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: sent });
    await until(agent('B'), (c) => c.received.length === 1);
    // One window later the id has been rotated into the older generation, still remembered.
    clock.increment(3_600_000);
    sendAs('A', { type: 'supervisor.send', envelope: sent });
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]!.error.code).toBe('duplicate_message');
    clock.increment(3_600_000);
    sendAs('A', { type: 'supervisor.send', envelope: sent });
    await until(agent('B'), (c) => c.received.length === 2);
    expect(received('B')).toHaveLength(2);
    actor.stop();
  });

  it('keeps the order of each sender across many envelopes', async () => {
    const { agent, received, sendAs } = start();
    for (let n = 0; n < 200; n++) {
      sendAs('A', { type: 'supervisor.send', envelope: envelope({ payload: { text: 'a', n } }) });
      sendAs('C', {
        type: 'supervisor.send',
        envelope: envelope({ from_agent: 'C', payload: { text: 'c', n }, run_id: `run-${n % 3}` }),
      });
    }
    await until(agent('B'), (c) => c.received.length === 400);
    const seqOf = (from: string) =>
      received('B')
        .filter((d: any) => d.input.from_agent === from)
        .map((d) => d.input.payload.n);
    const expected = Array.from({ length: 200 }, (_, n) => n);
    expect(seqOf('A')).toEqual(expected);
    expect(seqOf('C')).toEqual(expected);
  });

  it('broadcasts to every subscriber of a topic but the sender', async () => {
    const { agent, received, sendAs } = start();
    const sent = envelope({ data_type: 'news', to_agent: 'B' });
    sendAs('A', { type: 'supervisor.publish', topic: 'news', envelope: sent });
    await until(agent('C'), (c) => c.received.length === 1);
    await until(agent('B'), (c) => c.received.length === 1);
    expect(received('C')[0]!.delivery).toEqual({ kind: 'broadcast', topic: 'news' });
    expect(received('A')).toHaveLength(0);
  });

  it('rejects a publish to a topic that does not exist with unknown_topic', async () => {
    const { agent, rejected, sendAs } = start();
    sendAs('A', { type: 'supervisor.publish', topic: 'gossip', envelope: envelope({ data_type: 'news' }) });
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]!.error.code).toBe('unknown_topic');
  });

  it('correlates a response with its request', async () => {
    const { agent, received, rejected, sendAs } = start();
    const question = envelope({ data_type: 'question' });
    sendAs('A', { type: 'supervisor.request', envelope: question });
    await until(agent('B'), (c) => c.received.length === 1);
    expect(received('B')[0]!.delivery).toEqual({ kind: 'request', correlationId: question.message_id });
    const answer = envelope({ from_agent: 'B', to_agent: 'A', data_type: 'answer' });
    sendAs('B', { type: 'supervisor.respond', inReplyTo: question.message_id, envelope: answer });
    await until(agent('A'), (c) => c.received.length === 1);
    expect(received('A')[0]!.delivery).toEqual({ kind: 'response', correlationId: question.message_id });
    // A second answer to the same request has nothing left to answer.
    sendAs('B', {
      type: 'supervisor.respond',
      inReplyTo: question.message_id,
      envelope: envelope({ from_agent: 'B', to_agent: 'A', data_type: 'answer' }),
    });
    await until(agent('B'), (c) => c.rejected.length === 1);
    expect(rejected('B')[0]!.error.code).toBe('unknown_correlation');
  });

  it('tells the requester request_timeout when no answer comes in time', async () => {
    const clock = new SimulatedClock();
    const { agent, rejected, sendAs } = start(createMemoryJournal(), clock);
    const question = envelope({ data_type: 'question' });
    sendAs('A', { type: 'supervisor.request', envelope: question, timeoutMs: 5_000 });
    await until(agent('B'), (c) => c.received.length === 1);
    clock.increment(4_999);
    expect(rejected('A')).toHaveLength(0);
    clock.increment(1);
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]!.error.code).toBe('request_timeout');
  });

  it('hands envelopes for external addresses to the host and journals them', async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const { emitted, sendAs } = start(journal);
    const sent = envelope({ from_agent: 'B', to_agent: 'USER' });
    sendAs('B', { type: 'supervisor.send', envelope: sent });
    await expect.poll(() => emitted.filter((e) => e.type === 'supervisor.outbound')).toHaveLength(1);
    expect((await journal.read('run-1'))[0]!.data.envelope).toEqual(sent);
  });

  it('rejects with journal_unavailable, and delivers nothing, when the journal cannot store', async () => {
    const fail = () => Promise.reject(new Error('disk full'));
    const broken: Journal<RoutedRecord> = { ...createMemoryJournal<RoutedRecord>(), append: fail, appendMany: fail };
    const { agent, rejected, received, sendAs } = start(broken);
    const sent = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: sent });
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]!.error).toMatchObject({ code: 'journal_unavailable' });
    expect(rejected('A')[0]!.error.message).toContain('disk full');
    expect(received('B')).toHaveLength(0);
  });

  it('keeps its journal intact across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'supervisor-'));
    dirs.push(dir);
    const journal = await openFileJournal<RoutedRecord>(dir);
    const first = start(journal);
    const sent = Array.from({ length: 50 }, (_, n) => envelope({ payload: { text: 'x', n }, run_id: `run-${n % 2}` }));
    for (const e of sent) first.sendAs('A', { type: 'supervisor.send', envelope: e });
    await until(first.agent('B'), (c) => c.received.length === 50);
    first.actor.stop();
    await journal.close();

    const reopened = await openFileJournal<RoutedRecord>(dir);
    const run0 = await reopened.read('run-0');
    const run1 = await reopened.read('run-1');
    expect(run0.map((e) => e.data.envelope)).toEqual(sent.filter((_, n) => n % 2 === 0));
    expect(run1.map((e) => e.data.envelope)).toEqual(sent.filter((_, n) => n % 2 === 1));
    expect(run0.map((e) => e.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    await reopened.close();
  });

  it("delivers the sender's context beside the envelope and journals it", async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const { agent, received, sendAs } = start(journal);
    sendAs('A', { type: 'supervisor.send', envelope: envelope(), context: { constraint: 'keep totals' } });
    await until(agent('B'), (c) => c.received.length === 1);
    expect(received('B')[0]!.context).toEqual({ constraint: 'keep totals' });
    expect((await journal.read('run-1'))[0]!.data.context).toEqual({ constraint: 'keep totals' });
  });

  describe('with worker agents', () => {
    // B answers every question with an answer; C is the orchestrator hearing every report.
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

    function startWorkers(routeAgentOutputs?: boolean) {
      const system = { ...testSystem({ A: recorderAgent, B: answering, C: recorderAgent }), orchestrator: 'C' };
      if (routeAgentOutputs !== undefined) Object.assign(system, { routeAgentOutputs });
      const actor = createActor(createSupervisorMachine(system, { journal: createMemoryJournal() }), { input: {} });
      const reports: unknown[] = [];
      actor.on('supervisor.report', (event) => reports.push(event.report));
      actor.start();
      const child = (name: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
      return { actor, child, reports };
    }

    it("routes a worker's output as its response to the requester and tells the orchestrator", async () => {
      const { child, reports } = startWorkers();
      const question = envelope({ data_type: 'question', payload: { text: 'why?' } });
      child('A').send({ type: 'recorder.send', event: { type: 'supervisor.request', envelope: question } });
      const a = await until(child('A'), (c) => c.received.length === 1);
      const delivered = a.context.received[0].input as DeliveredMessage;
      expect(delivered.delivery).toEqual({ kind: 'response', correlationId: question.message_id });
      expect(delivered.envelope.payload).toEqual({ text: 're: why?' });
      await expect.poll(() => reports.length).toBe(1);
      expect(reports[0]).toMatchObject({
        agent: 'B',
        requestId: question.message_id,
        outcome: { status: 'completed' },
      });
    });

    it('leaves outputs to the orchestrator when the system says so', async () => {
      const { child, reports } = startWorkers(false);
      child('A').send({
        type: 'recorder.send',
        event: { type: 'supervisor.send', envelope: envelope({ data_type: 'question' }) },
      });
      await expect.poll(() => reports.length).toBe(1);
      expect(child('A').getSnapshot().context.received).toHaveLength(0);
    });
  });
});
