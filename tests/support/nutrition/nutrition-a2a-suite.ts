import { describe, expect, it } from 'vitest';
import { collect, send, stateName, userMessage } from '../a2a/a2a-server.ts';
import { a2aClient } from '../http-host/a2a-client.ts';
import { freshUser } from '../http-host/fresh-user.ts';
import type { HttpHost } from '../http-host/http-host.ts';
import { payload } from './nutrition-fakes.ts';
import { PIPELINE_OUTPUTS as OUTPUTS } from './pipeline-outputs.ts';

/*
 * The nutrition pipeline over A2A (the SDK's client on a real socket), written once for any host:
 * tests/cluster/pipeline-http.test.ts runs it against `npm run start:cluster`. Each test has
 * a user of its own: a host may serve many tests.
 */

const intake = (changes: Record<string, unknown> = {}) => ({ ...payload('intake_data'), ...changes });

/**
 * Declares the nutrition A2A tests against the host `host()` answers when a test runs.
 *
 * @example
 * describeNutritionA2a(() => host);
 */
export function describeNutritionA2a(host: () => HttpHost) {
  /** The A2A client of a user of its own. */
  const client = async (user = freshUser('ada')) => a2aClient(host().url, await host().token(user), 'nutrition');

  describe('the nutrition pipeline over A2A', () => {
    it('runs an intake sent as a data part to completed, its outputs as artifacts', async () => {
      const ada = await client();
      const result = await ada.sendMessage(send(userMessage({ data: intake() })));
      if (!('id' in result)) throw new Error('expected a task');
      expect(stateName(result.status?.state)).toBe('completed');
      expect(result.artifacts.map((a) => a.name).sort()).toEqual(OUTPUTS);
      const task = await ada.getTask({ tenant: '', id: result.id, historyLength: undefined });
      expect(task.contextId).toBe(result.contextId);
      expect(stateName(task.status?.state)).toBe('completed');
    });

    it('streams working, then each artifact, then completed', async () => {
      const { lines } = await collect((await client()).sendMessageStream(send(userMessage({ data: intake() }))));
      expect(lines.slice(0, 2)).toEqual(['task:submitted', 'status:working']);
      expect(lines.at(-1)).toBe('status:completed');
      // Each output once, between working and completed.
      expect(lines.slice(2, -1).sort()).toEqual(OUTPUTS.map((name) => `artifact:${name}`));
    });

    it("replays each output envelope of the run's journal, one by one in journal order, as the stream's artifacts", async () => {
      const user = freshUser('ada');
      const ada = await client(user);
      const { lines, events } = await collect(ada.sendMessageStream(send(userMessage({ data: intake() }))));
      const first = events[0]!.payload;
      if (first?.$case !== 'task') throw new Error('expected the task first');
      const { messages } = (await host().call(user, 'GET', `/pipelines/${first.value.contextId}/messages`)).body;
      const ids = new Set<string>();
      const journal = messages.filter(
        (m: any) => OUTPUTS.includes(m.data_type) && !ids.has(m.message_id) && ids.add(m.message_id),
      );
      expect(lines.filter((line) => line.startsWith('artifact:'))).toEqual(
        journal.map((m: any) => `artifact:${m.data_type}`),
      );
      const sent = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [e.payload.value.artifact] : []));
      expect(sent.map((a) => (a?.parts[0]?.content as any)?.value)).toEqual(journal.map((m: any) => m.payload));
    });

    it('pauses on amenorrhea as input-required, and a reply confirms the referral', async () => {
      const ada = await client();
      const first = await ada.sendMessage(send(userMessage({ data: intake({ menstrual_status: 'amenorrhea' }) })));
      if (!('id' in first)) throw new Error('expected a task');
      expect(stateName(first.status?.state)).toBe('input-required');
      const resumed = await ada.sendMessage(
        send(userMessage({ text: 'I saw the referral.' }, first.id, first.contextId)),
      );
      if (!('id' in resumed)) throw new Error('expected a task');
      expect(resumed.id).toBe(first.id);
      expect(stateName(resumed.status?.state)).toBe('completed');
    });
  });
}
