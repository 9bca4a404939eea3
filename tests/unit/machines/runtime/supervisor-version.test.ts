import { describe, expect, it } from 'vitest';
import { fromPromise, waitFor, type AnyActorRef } from 'xstate';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { agentMachine } from '../../../../machines/runtime/agent.ts';
import type { AgentBrainInput } from '../../../../protocol/runtime/agent-report.ts';
import type { DeliveredMessage, RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { recorderAgent } from '../../../support/recorder-agent.ts';
import { startSystem, until } from '../../../support/supervisor-harness.ts';
import { MSG_001, MSG_003, MSG_AGG_001, MSG_CANCEL_001 } from '../../../support/tiers/spec-examples.ts';
import { tiersTestSystem } from '../../../support/tiers/tiers-test-system.ts';

const settled = (actor: AnyActorRef) => waitFor(actor, (s) => s.context.ledger.idle(), { timeout: 2_000 });

describe('supervisor with spec 002 addressing and its version rule', () => {
  it("routes the spec's delegation and cancellation by the kind their payloads say, verbatim", async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const { actor, agent, received, sendAs } = startSystem(tiersTestSystem(), journal);
    sendAs('ABSTRACT_ARCHITECT', { type: 'supervisor.send', envelope: MSG_001 });
    sendAs('ABSTRACT_ARCHITECT', { type: 'supervisor.send', envelope: MSG_CANCEL_001 });
    await until(agent('ROUTING_DISPATCHER'), (c) => c.received.length === 2);
    await settled(actor);
    expect(received('ROUTING_DISPATCHER').map((d) => d.input)).toStrictEqual([MSG_001, MSG_CANCEL_001]);
    expect(
      agent('ROUTING_DISPATCHER')
        .getSnapshot()
        .context.received.map((d: any) => d.requestId),
    ).toEqual(['msg-001', 'msg-cancel-001']);
    expect((await journal.read('task-1')).map((e) => e.data.envelope)).toStrictEqual([MSG_001, MSG_CANCEL_001]);
  });

  it('refuses a kind its sender may not send on that edge, naming the kind', async () => {
    const { agent, rejected, sendAs } = startSystem(tiersTestSystem());
    const upward = { ...MSG_001, id: 'msg-up', source_tier: 'SPECIALIZED_FLEET', target_tier: 'ROUTING_DISPATCHER' };
    sendAs('SPECIALIZED_FLEET', { type: 'supervisor.send', envelope: upward });
    await until(agent('SPECIALIZED_FLEET'), (c) => c.rejected.length === 1);
    expect(rejected('SPECIALIZED_FLEET')[0]!.error.code).toBe('unknown_edge');
    expect(rejected('SPECIALIZED_FLEET')[0]!.error.message).toContain(
      'SPECIALIZED_FLEET -> ROUTING_DISPATCHER : delegation',
    );
  });

  it('accepts a newer minor version and journals its unknown fields as they came', async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const { actor, agent, received, sendAs } = startSystem(tiersTestSystem(), journal);
    const newer = {
      ...MSG_001,
      version: '1.4.2',
      trace: { span: 'abc' },
      payload: { ...MSG_001.payload, budget_tokens: 5000 },
    };
    sendAs('ABSTRACT_ARCHITECT', { type: 'supervisor.send', envelope: newer });
    await until(agent('ROUTING_DISPATCHER'), (c) => c.received.length === 1);
    await settled(actor);
    expect(received('ROUTING_DISPATCHER')[0]!.input).toStrictEqual(newer);
    expect((await journal.read('task-1'))[0]!.data.envelope).toStrictEqual(newer);
  });

  it('refuses an unknown major version with version_not_supported before its schema, and journals nothing', async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const { actor, agent, emitted, received, rejected, sendAs } = startSystem(tiersTestSystem(), journal);
    // A 2.x envelope may look nothing like 1.x: it is told about its version, not about its fields.
    const v2 = { version: '2.0.0', id: 'msg-v2', source_tier: 'ABSTRACT_ARCHITECT', body: {} };
    sendAs('ABSTRACT_ARCHITECT', { type: 'supervisor.send', envelope: v2 });
    await until(agent('ABSTRACT_ARCHITECT'), (c) => c.rejected.length === 1);
    const { error } = rejected('ABSTRACT_ARCHITECT')[0]!;
    expect(error.code).toBe('version_not_supported');
    expect(error).toMatchObject({ supported: [1] });
    expect(error.message).toContain('2.0.0');
    await settled(actor);
    expect(received('ROUTING_DISPATCHER')).toHaveLength(0);
    expect(await journal.read('task-1')).toEqual([]);
    expect(emitted.filter((e) => e.type === 'supervisor.rejected')).toHaveLength(1);
    // The id was not taken: the same id at version 1 goes through.
    sendAs('ABSTRACT_ARCHITECT', { type: 'supervisor.send', envelope: { ...MSG_001, id: 'msg-v2' } });
    await until(agent('ROUTING_DISPATCHER'), (c) => c.received.length === 1);
  });

  it('answers a malformed version with invalid_envelope naming the field', async () => {
    const { agent, rejected, sendAs } = startSystem(tiersTestSystem());
    sendAs('ABSTRACT_ARCHITECT', { type: 'supervisor.send', envelope: { ...MSG_001, version: 'one' } });
    sendAs('ABSTRACT_ARCHITECT', { type: 'supervisor.send', envelope: { ...MSG_001, version: '1.0' } });
    await until(agent('ABSTRACT_ARCHITECT'), (c) => c.rejected.length === 2);
    for (const { error } of rejected('ABSTRACT_ARCHITECT')) {
      expect(error.code).toBe('invalid_envelope');
      expect(error.issues?.map((i) => i.path)).toEqual(['version']);
    }
  });

  it('takes an outcome whose correlation_id names an open delegation as its response', async () => {
    const { actor, agent, received, sendAs } = startSystem(tiersTestSystem());
    sendAs('ABSTRACT_ARCHITECT', { type: 'supervisor.request', envelope: MSG_001 });
    await until(agent('ROUTING_DISPATCHER'), (c) => c.received.length === 1);
    sendAs('ROUTING_DISPATCHER', { type: 'supervisor.send', envelope: MSG_AGG_001 });
    await until(agent('ABSTRACT_ARCHITECT'), (c) => c.received.length === 1);
    expect(received('ABSTRACT_ARCHITECT')[0]!.delivery).toEqual({ kind: 'response', correlationId: 'msg-001' });
    await settled(actor);
    expect(actor.getSnapshot().context.ledger.requests.size).toBe(0);
  });

  it("routes a worker's output, read through the addressing, as its response to the requester", async () => {
    // The fleet answers each delegation with the spec's outcome, correlated to it.
    const fleet = agentMachine.provide({
      actors: {
        brain: fromPromise(async ({ input }: { input: AgentBrainInput }) => {
          const delegation = (input.input as DeliveredMessage).envelope;
          return { ...MSG_003, id: `${String(delegation['id'])}:outcome`, correlation_id: delegation['id'] };
        }),
      },
    });
    const system = {
      ...tiersTestSystem(),
      agents: { ROUTING_DISPATCHER: recorderAgent, SPECIALIZED_FLEET: fleet },
    };
    const journal = createMemoryJournal<RoutedRecord>();
    const { actor, agent, received, sendAs } = startSystem(system, journal);
    const delegation = {
      ...MSG_001,
      id: 'msg-002',
      source_tier: 'ROUTING_DISPATCHER',
      target_tier: 'SPECIALIZED_FLEET',
    };
    sendAs('ROUTING_DISPATCHER', { type: 'supervisor.request', envelope: delegation });
    await until(agent('ROUTING_DISPATCHER'), (c) => c.received.length === 1);
    expect(received('ROUTING_DISPATCHER')[0]!.delivery).toEqual({ kind: 'response', correlationId: 'msg-002' });
    expect(received('ROUTING_DISPATCHER')[0]!.input).toStrictEqual({
      ...MSG_003,
      id: 'msg-002:outcome',
      correlation_id: 'msg-002',
    });
    await settled(actor);
    expect((await journal.read('task-1')).map((e) => [e.data.kind, e.data.envelope['id']])).toEqual([
      ['request', 'msg-002'],
      ['response', 'msg-002:outcome'],
    ]);
  });
});
