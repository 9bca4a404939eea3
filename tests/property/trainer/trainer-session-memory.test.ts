import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContextBuilder } from '../../../actors/trainer/context/context-builder.ts';
import { withMessagesBreakpoint } from '../../../actors/trainer/context/context-builder-cache.ts';
import { buildEventsToMessages } from '../../../actors/trainer/context/context-builder-messages.ts';
import { createEventStore, type PendingEvent } from '../../../actors/trainer/events/event-store.ts';
import { aggregateUsage, countEvents } from '../../../actors/trainer/events/event-store-totals.ts';
import { isContextEvent } from '../../../actors/trainer/events/session-log.ts';
import { createDataSources } from '../../../actors/trainer/user-data/data-sources.ts';
import { createUserDataStore } from '../../../actors/trainer/user-data/user-data-store.ts';
import type { StoredSessionEvent } from '../../../protocol/trainer/session-event.ts';
import { createFakeJournal, createFakeStore } from '../../support/trainer/trainer-fakes.ts';
import { artifactData, llmResponseData } from '../../support/trainer/trainer-events.ts';

const tools: Tool[] = [{ name: 'idle', description: 'idle', input_schema: { type: 'object', properties: {} } }];

/** One event of each type, numbered by `n` so that no two are alike. */
const pendingOf = (kind: number, n: number): PendingEvent => {
  switch (kind) {
    case 0:
      return { type: 'user_message', data: { message: `m${n}` } };
    case 1:
      return { type: 'llm_request', data: { model: 'claude-haiku-4-5', prompt: `p${n}`, estimated_tokens: n } };
    case 2:
      return { type: 'llm_response', data: llmResponseData(n, 1, n % 3, n / 100) };
    case 3:
      return { type: 'tool_call', data: { tool_name: 'idle', arguments: { n }, call_id: `c${n}` } };
    case 4:
      return { type: 'tool_result', data: { tool_name: 'idle', result: { n }, success: true, call_id: `c${n - 1}` } };
    case 5:
      return { type: 'knowledge', data: { source: 'user_profile', data: `Age: ${n}` } };
    case 6:
      return { type: 'artifact', data: artifactData(`art_${n}`) };
    default:
      return { type: 'error', data: { message: `e${n}` } };
  }
};

type Step =
  { op: 'append' | 'record'; kinds: number[] } | { op: 'start'; at: number } | { op: 'restart' | 'idle' | 'build' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('append' as const),
      kinds: fc.array(fc.nat(7), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('record' as const),
      kinds: fc.array(fc.nat(7), { minLength: 1, maxLength: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('start' as const), at: fc.nat(30) }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom({ op: 'restart' as const }, { op: 'idle' as const }, { op: 'build' as const }),
  },
);

const unmarked = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (key, item) => (key === 'cache_control' ? undefined : item)));

describe('sessions in memory (properties)', () => {
  it('answer as the log does through appends, recorded events, restarts, drops and moved checkpoints', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const store = createFakeStore();
        const journal = createFakeJournal<StoredSessionEvent>();
        let now = 0;
        const open = () => {
          const events = createEventStore({ store, journal, memory: { idleMs: 1000, now: () => now } });
          const builder = createContextBuilder({
            events,
            dataSources: createDataSources({ userData: createUserDataStore(store) }),
            systemPrompt: 'You are a personal trainer.',
            tools,
          });
          return { events, builder };
        };
        let { events, builder } = open();
        const id = (await events.createSession('alice')).id;
        let n = 0;
        for (const next of steps) {
          if (next.op === 'append')
            await events.appendEvents(
              id,
              next.kinds.map((kind) => pendingOf(kind, ++n)),
            );
          else if (next.op === 'record')
            await events.recordEvents(
              id,
              next.kinds.map((kind) => pendingOf(kind, ++n)),
            );
          else if (next.op === 'start') await events.setContextStart('alice', id, next.at);
          else if (next.op === 'idle') now += 1001;
          else if (next.op === 'restart') {
            await events.durable(id);
            ({ events, builder } = open());
          } else if (n > 0 && (await events.listContextEvents(id)).length > 0) await builder.build(id, 'alice');

          await events.durable(id);
          const timeline = await events.listEvents(id);
          const session = (await events.getSession('alice', id))!;
          const context = timeline
            .filter(isContextEvent)
            .filter((e) => e.sequence_number > session.context_start_sequence);
          expect(timeline.map((e) => e.sequence_number)).toEqual(timeline.map((_, i) => i + 1));
          expect(await events.listContextEvents(id)).toEqual(context);
          expect(await events.getSessionSummary('alice', id)).toMatchObject(countEvents(timeline));
          if (context.length > 0) {
            const built = await builder.build(id, 'alice');
            expect(unmarked(built.messages)).toEqual(unmarked(withMessagesBreakpoint(buildEventsToMessages(context))));
          }
        }
        const totals = aggregateUsage(await events.listEvents(id));
        expect(await events.endSession(id, 'completed')).toMatchObject({
          total_tokens: totals.total_tokens,
          cached_tokens: totals.cached_tokens,
        });
      }),
      { numRuns: 150 },
    );
  });
});
