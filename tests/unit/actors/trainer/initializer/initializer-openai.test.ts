import { afterEach, describe, expect, it } from 'vitest';
import { createDataSources } from '../../../../../actors/trainer/user-data/data-sources.ts';
import { initializeContext } from '../../../../../actors/trainer/initializer/initializer.ts';
import {
  INITIALIZER_MODEL,
  createOpenAiSelector,
} from '../../../../../actors/trainer/initializer/initializer-openai.ts';
import { INITIALIZER_SYSTEM_PROMPT } from '../../../../../actors/trainer/initializer/initializer-prompt.ts';
import { createUserDataStore } from '../../../../../actors/trainer/user-data/user-data-store.ts';
import type { SessionEvent } from '../../../../../protocol/trainer/session-event.ts';
import {
  startFakeModelServer,
  type FakeModelServer,
  type OpenAiReply,
} from '../../../../support/models/fake-model-server.ts';
import { fakeServerClients } from '../../../../support/models/fake-server-backends.ts';
import { createFakeStore } from '../../../../support/trainer/trainer-fakes.ts';
import { asEvents, knowledge, userMessage } from '../../../../support/trainer/trainer-events.ts';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(replies: OpenAiReply[]) {
  server = await startFakeModelServer({ openai: replies });
  const userData = createUserDataStore(createFakeStore());
  await userData.put('user-1', 'all_locations', {
    locations: [{ id: 'loc-1', name: 'Home', current_location: true, equipment: [] }],
  });
  await userData.put('user-1', 'category_goals', { goals: [{ category: 'strength', share: 1 }] });
  const selector = createOpenAiSelector({ client: fakeServerClients(server).openai, maxRetries: 0 });
  const run = (message: string, events: SessionEvent[] = []) =>
    initializeContext({
      selector,
      dataSources: createDataSources({ userData }),
      userId: 'user-1',
      userMessage: message,
      events,
    });
  return { server, run };
}

const selection = (append: object[], useExisting: string[] = []) => ({
  json: { reasoning: 'Location question.', append_knowledge: append, use_existing: useExisting },
});

describe('OpenAI initializer through the real SDK (spec 001 §5.2, §5.3)', () => {
  it('asks gpt-4o-mini for a strict JSON Schema selection and fetches what it chose', async () => {
    const { server, run } = await setup([
      selection([{ source: 'all_locations', reason: 'not_in_context', days_back: null }]),
    ]);
    const events = asEvents([
      userMessage("I'm travelling"),
      knowledge('workout_history', 'No workouts logged in the last 14 days.'),
    ]);
    const result = await run("I'm travelling, which locations do I have?", events as SessionEvent[]);

    expect(server.violations).toEqual([]);
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body['model']).toBe(INITIALIZER_MODEL);
    expect(body['response_format']).toMatchObject({
      type: 'json_schema',
      json_schema: {
        name: 'initializer_response',
        strict: true,
        schema: {
          type: 'object',
          required: ['reasoning', 'append_knowledge', 'use_existing'],
          additionalProperties: false,
        },
      },
    });
    const [system, user] = body['messages'] as { role: string; content: string }[];
    expect(system).toEqual({ role: 'system', content: INITIALIZER_SYSTEM_PROMPT });
    expect(user?.content).toContain("I'm travelling, which locations do I have?");
    expect(user?.content).toContain('- workout_history (last 14 days)');

    expect(result.selector).toBe('openai');
    expect(result.errors).toEqual([]);
    expect(result.reasoning).toBe('Location question.');
    expect(result.knowledge).toEqual([
      {
        source: 'all_locations',
        displayName: 'Locations',
        data: expect.stringContaining('- Home [id: loc-1] (current)'),
      },
    ]);
    expect(result.usage?.prompt).toBeGreaterThan(0);
  });

  it('holds the model to the append-only rules', async () => {
    const { run } = await setup([
      selection([
        { source: 'category_goals', reason: 'not_in_context', days_back: null },
        { source: 'workout_history', reason: 'expand_range', days_back: 60 },
      ]),
    ]);
    const events = asEvents([
      knowledge('category_goals', '- strength: 100%'),
      knowledge('workout_history', 'No workouts logged in the last 14 days.'),
    ]) as SessionEvent[];
    const result = await run('How did the last two months go?', events);
    expect(result.selection?.append_knowledge).toEqual([
      { source: 'workout_history', reason: 'expand_range', days_back: 60 },
    ]);
    expect(result.selection?.use_existing).toEqual(['category_goals']);
    expect(result.knowledge.map((k) => k.data)).toEqual(['No workouts logged in the last 60 days.']);
  });

  it.each<[string, OpenAiReply, RegExp]>([
    ['a refusal', { refusal: "I can't help with that." }, /refused: I can't help with that/],
    [
      'output outside the schema',
      { json: { reasoning: 'x', append_knowledge: [{ source: 'bank_account' }], use_existing: [] } },
      /gpt-4o-mini/,
    ],
    ['a server error', { error: { status: 500, message: 'boom', type: 'server_error' } }, /OpenAI API error 500/],
    ['a bad key', { error: { status: 401, message: 'Incorrect API key' } }, /check OPENAI_API_KEY/],
  ])('reports %s as an error and adds no knowledge', async (_name, reply, message) => {
    const { run } = await setup([reply]);
    const result = await run('Give me a workout');
    expect(result.knowledge).toEqual([]);
    expect(result.selection).toBeUndefined();
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.message).toMatch(message);
    expect(result.errors[0]?.context).toBe('context_init');
  });

  it('reports an unreachable API the same way', async () => {
    const { server: live, run } = await setup([]);
    await live.close();
    server = undefined;
    const result = await run('Give me a workout');
    expect(result.knowledge).toEqual([]);
    expect(result.errors[0]?.message).toMatch(/Initializer \(gpt-4o-mini\) failed/);
  });
});
