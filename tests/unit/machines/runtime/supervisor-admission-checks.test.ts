import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { z } from 'zod';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import type { SystemDefinition } from '../../../../machines/runtime/supervisor-system.ts';
import { DEFAULT_ADDRESSING } from '../../../../protocol/runtime/envelope-addressing.ts';
import { orgMessage, orgTestSystem } from '../../../support/org/org-test-system.ts';
import { ESCALATION_MESSAGE } from '../../../support/org/spec-examples.ts';
import { recorderAgent } from '../../../support/recorder-agent.ts';
import { startSystem, until } from '../../../support/supervisor-harness.ts';
import { envelope, testSystem, type TestEnvelope } from '../../../support/test-system.ts';

/*
 * What the supervisor checks before it journals an envelope (supervisor-ledger.ts `admit`): the
 * schema, the system's addressing, its admission rule, and which open request a response (or a
 * send that names one in its correlation) answers.
 */

/** Agents whose names contain one another (`ann` is in `anna`), receivers a name or a list of names. */
const NamesSchema = z.strictObject({
  id: z.string().min(1),
  from: z.enum(['ann', 'anna', 'bob']),
  to: z.union([z.string(), z.array(z.string())]),
  kind: z.enum(['ask', 'answer']),
});
const namesSystem = (): SystemDefinition => ({
  name: 'names',
  envelope: NamesSchema,
  addressing: { id: 'id', sender: 'from', receivers: 'to', kind: 'kind' },
  routes: [
    { from: 'ann', to: 'bob', data_type: 'ask' },
    { from: 'bob', to: 'ann', data_type: 'answer' },
    { from: 'bob', to: 'anna', data_type: 'answer' },
  ],
  agents: { ann: recorderAgent, anna: recorderAgent, bob: recorderAgent },
  partitionOf: () => 'names-1',
});
const names = (from: string, to: string | string[], kind: string) => ({ id: randomUUID(), from, to, kind });

describe('supervisor admission checks', () => {
  it('names every field that failed validation in the message, with its path, one after the other', async () => {
    const { agent, rejected, received, sendAs } = startSystem(testSystem());
    sendAs('A', { type: 'supervisor.send', envelope: { ...envelope(), payload: { text: 42 }, run_id: '' } });
    await until(agent('A'), (c) => c.rejected.length === 1);
    const { error } = agent('A').getSnapshot().context.rejected[0] as {
      error: { code: string; message: string; issues: { path: string; message: string }[] };
    };
    expect(error.code).toBe('invalid_envelope');
    expect(error.issues.map((i) => i.path)).toEqual(['payload.text', 'run_id']);
    const [text, run] = error.issues;
    expect(text!.message).not.toBe('');
    expect(run!.message).not.toBe('');
    expect(error.message).toBe(`Envelope failed validation: payload.text: ${text!.message}; run_id: ${run!.message}`);
    expect(rejected('A')).toHaveLength(1);
    expect(received('B')).toHaveLength(0);
  });

  it('refuses an envelope its schema takes but its addressing cannot read, saying to fix the addressing', async () => {
    const system = { ...testSystem(), addressing: { ...DEFAULT_ADDRESSING, id: 'payload.ref' } };
    const { agent, rejected, received, sendAs } = startSystem(system);
    sendAs('A', { type: 'supervisor.send', envelope: envelope() });
    await until(agent('A'), (c) => c.rejected.length === 1);
    const issue = { path: 'payload.ref', message: 'Expected the message id: a non-empty string.' };
    expect(rejected('A')[0]!.error).toEqual({
      code: 'invalid_envelope',
      message: `Envelope failed validation: payload.ref: ${issue.message} Declare the system's addressing to match its envelope.`,
      issues: [issue],
    });
    expect(received('B')).toHaveLength(0);
  });

  it("refuses what the system's admission rule refuses, with the rule's error, and routes the rest", async () => {
    const system: SystemDefinition = {
      ...testSystem(),
      admissionRule: (sent, address) =>
        (sent as TestEnvelope).payload.text === 'secret'
          ? { code: 'outside_channel', message: `${address.sender} may not tell ${String(address.receivers)} that.` }
          : undefined,
    };
    const { agent, rejected, received, sendAs } = startSystem(system);
    const allowed = envelope();
    sendAs('A', { type: 'supervisor.send', envelope: envelope({ payload: { text: 'secret' } }) });
    sendAs('A', { type: 'supervisor.send', envelope: allowed });
    await until(agent('A'), (c) => c.rejected.length === 1);
    await until(agent('B'), (c) => c.received.length === 1);
    expect(rejected('A')[0]!.error).toEqual({ code: 'outside_channel', message: 'A may not tell B that.' });
    expect(received('B').map((d) => d.input)).toEqual([allowed]);
  });

  it('takes a response only to the requester itself, not to an agent whose name contains it', async () => {
    const { agent, rejected, received, sendAs } = startSystem(namesSystem());
    const ask = names('ann', 'bob', 'ask');
    sendAs('ann', { type: 'supervisor.request', envelope: ask });
    await until(agent('bob'), (c) => c.received.length === 1);
    sendAs('bob', { type: 'supervisor.respond', inReplyTo: ask.id, envelope: names('bob', 'anna', 'answer') });
    await until(agent('bob'), (c) => c.rejected.length === 1);
    expect(rejected('bob')[0]!.error).toEqual({
      code: 'unknown_correlation',
      message: `No open request ${ask.id} from anna to answer.`,
    });
    expect(received('anna')).toHaveLength(0);
    // Written as a list that names the requester, it answers.
    sendAs('bob', { type: 'supervisor.respond', inReplyTo: ask.id, envelope: names('bob', ['ann'], 'answer') });
    await until(agent('ann'), (c) => c.received.length === 1);
    expect(received('ann')[0]!.delivery).toEqual({ kind: 'response', correlationId: ask.id });
    expect(rejected('bob')).toHaveLength(1);
  });

  describe('a correlation in a send that is not a response', () => {
    const system = (): SystemDefinition => {
      const base = orgTestSystem();
      return { ...base, routes: [...base.routes, { from: 'backend', to: 'product', data_type: 'request' }] };
    };
    const relatedTo = (id: string) => ({ sprint_id: 'sprint-7', related_messages: [id] });

    it('opens a request of its own when it is a request, leaving the request it names open', async () => {
      const { agent, received, rejected, sendAs } = startSystem(system(), createMemoryJournal(), new SimulatedClock());
      const first = orgMessage();
      sendAs('product', { type: 'supervisor.request', envelope: first });
      await until(agent('backend'), (c) => c.received.length === 1);
      const second = orgMessage({
        source_agent: 'backend',
        destination_agent: 'product',
        context: relatedTo(first.message_id),
      });
      sendAs('backend', { type: 'supervisor.request', envelope: second });
      await until(agent('product'), (c) => c.received.length === 1);
      expect(received('product')[0]!.delivery).toEqual({ kind: 'request', correlationId: second.message_id });
      const answer = orgMessage({
        source_agent: 'backend',
        destination_agent: 'product',
        message_type: 'response',
        context: relatedTo(first.message_id),
      });
      sendAs('backend', { type: 'supervisor.respond', envelope: answer });
      await until(agent('product'), (c) => c.received.length === 2);
      expect(received('product')[1]!.delivery).toEqual({ kind: 'response', correlationId: first.message_id });
      expect(rejected('backend')).toHaveLength(0);
    });

    it("stays a plain send when its receiver is not the named request's requester, and leaves that request open", async () => {
      const { agent, received, rejected, sendAs } = startSystem(system(), createMemoryJournal(), new SimulatedClock());
      const request = orgMessage();
      sendAs('product', { type: 'supervisor.request', envelope: request });
      await until(agent('backend'), (c) => c.received.length === 1);
      const escalation = {
        ...ESCALATION_MESSAGE,
        message_id: randomUUID(),
        context: relatedTo(request.message_id),
      };
      sendAs('frontend', { type: 'supervisor.send', envelope: escalation });
      await until(agent('chief-orchestration'), (c) => c.received.length === 1);
      expect(received('chief-orchestration')[0]!.delivery).toEqual({ kind: 'direct' });
      const answer = orgMessage({
        source_agent: 'backend',
        destination_agent: 'product',
        message_type: 'response',
        context: relatedTo(request.message_id),
      });
      sendAs('backend', { type: 'supervisor.respond', envelope: answer });
      await until(agent('product'), (c) => c.received.length === 1);
      expect(received('product')[0]!.delivery).toEqual({ kind: 'response', correlationId: request.message_id });
      expect(rejected('frontend')).toHaveLength(0);
      expect(rejected('backend')).toHaveLength(0);
    });
  });
});
