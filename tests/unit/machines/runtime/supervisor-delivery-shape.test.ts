import { describe, expect, it } from 'vitest';
import type { AgentDeliveryEvent } from '../../../../machines/runtime/supervisor.ts';
import { startSupervisor as start, until } from '../../../support/supervisor-harness.ts';
import { envelope } from '../../../support/test-system.ts';

/*
 * What an agent receives for each kind of delivery: exactly the fields that kind has (a topic for
 * a broadcast, a correlation id for a request or response, the sender's context when it gave one),
 * and no field set to `undefined` that an agent checking `'topic' in delivery` would trip on.
 */

const deliveredTo = (h: ReturnType<typeof start>, name: string) =>
  h.agent(name).getSnapshot().context.received as AgentDeliveryEvent[];

describe('supervisor deliveries', () => {
  for (const context of [undefined, { constraint: 'keep totals' }]) {
    const withContext = context === undefined ? {} : { context };
    const label = context === undefined ? 'without a context' : 'with the sender’s context';

    it(`hands a direct envelope over as kind direct only, ${label}`, async () => {
      const h = start();
      const sent = envelope();
      h.sendAs('A', { type: 'supervisor.send', envelope: sent, ...withContext });
      await until(h.agent('B'), (c) => c.received.length === 1);
      expect(deliveredTo(h, 'B')).toStrictEqual([
        {
          type: 'agent.request',
          requestId: sent.message_id,
          input: { envelope: sent, delivery: { kind: 'direct' }, ...withContext },
        },
      ]);
    });

    it(`hands a broadcast over with its topic and no correlation, ${label}`, async () => {
      const h = start();
      const news = envelope({ data_type: 'news' });
      h.sendAs('A', { type: 'supervisor.publish', topic: 'news', envelope: news, ...withContext });
      await until(h.agent('C'), (c) => c.received.length === 1);
      expect(deliveredTo(h, 'C')).toStrictEqual([
        {
          type: 'agent.request',
          requestId: news.message_id,
          input: { envelope: news, delivery: { kind: 'broadcast', topic: 'news' }, ...withContext },
        },
      ]);
    });

    it(`hands a request and its response over with their correlation and no topic, ${label}`, async () => {
      const h = start();
      const question = envelope({ data_type: 'question' });
      h.sendAs('A', { type: 'supervisor.request', envelope: question, ...withContext });
      await until(h.agent('B'), (c) => c.received.length === 1);
      const correlation = { correlationId: question.message_id };
      expect(deliveredTo(h, 'B')).toStrictEqual([
        {
          type: 'agent.request',
          requestId: question.message_id,
          input: { envelope: question, delivery: { kind: 'request', ...correlation }, ...withContext },
        },
      ]);
      const answer = envelope({ from_agent: 'B', to_agent: 'A', data_type: 'answer' });
      h.sendAs('B', { type: 'supervisor.respond', inReplyTo: question.message_id, envelope: answer, ...withContext });
      await until(h.agent('A'), (c) => c.received.length === 1);
      expect(deliveredTo(h, 'A')).toStrictEqual([
        {
          type: 'agent.request',
          requestId: answer.message_id,
          input: { envelope: answer, delivery: { kind: 'response', ...correlation }, ...withContext },
        },
      ]);
    });
  }
});
