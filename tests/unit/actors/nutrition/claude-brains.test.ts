import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { claudeNutritionBrains, type NutritionModelCall } from '../../../../actors/nutrition/claude-brains.ts';
import { makeEnvelope } from '../../../../actors/nutrition/envelope-factory.ts';
import { nutritionBrainsFor } from '../../../../actors/nutrition/nutrition-brains-for.ts';
import { costOfTokens } from '../../../../actors/models/model-cost.ts';
import { ModelError } from '../../../../actors/models/model-error.ts';
import { UnknownModelError } from '../../../../actors/models/model-registry.ts';
import { ValidationError } from '../../../../protocol/runtime/runtime-error.ts';
import {
  startFakeModelServer,
  type AnthropicReply,
  type FakeModelServer,
} from '../../../support/models/fake-model-server.ts';
import { fakeServerBackends, fakeServerClients } from '../../../support/models/fake-server-backends.ts';
import { payload } from '../../../support/nutrition/nutrition-fakes.ts';

const RUN = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** The fake model server (the real Messages wire format), answering each call with `next`. */
let next: (body: any) => AnthropicReply;
let server: FakeModelServer;
const calls: NutritionModelCall[] = [];

/** Answers with the forced tool, called with `input`. */
const submit =
  (input: unknown) =>
  (body: any): AnthropicReply => ({ toolUse: { name: body.tools[0].name, input: input as Record<string, unknown> } });

beforeAll(async () => {
  server = await startFakeModelServer({ anthropic: (body) => next(body) });
});
afterAll(() => server.close());
beforeEach(() => {
  calls.length = 0;
});

type Agent = 'NUTRITIONIST' | 'PHYSICIAN';
type Brains = ReturnType<typeof claudeNutritionBrains>;

function run(
  agent: Agent,
  envelope: any,
  brains: Brains = nutritionBrainsFor(fakeServerBackends(server), { onModelCall: (call) => calls.push(call) }),
) {
  const input = {
    agent,
    requestId: envelope.message_id,
    attempt: 1,
    input: { envelope, delivery: { kind: 'direct' }, context: {} },
  };
  return toPromise(createActor(brains[agent], { input }).start()) as Promise<{ envelopes: any[] }>;
}

const targetsEnvelope = () =>
  makeEnvelope({
    from: 'SCIENTIST',
    to: 'NUTRITIONIST',
    dataType: 'macro_targets',
    payload: payload('macro_targets'),
    runId: RUN,
    idSeed: ['t'],
  });

describe('Claude nutrition brains', () => {
  it('ask Claude through the model layer for the payload as the one forced tool, and send its answer on', async () => {
    const before = server.requests.length;
    next = submit({ ...payload('nutrition_strategy'), hardgainer_tactics: ['Claude says: liquid calories first'] });
    const output = await run('NUTRITIONIST', targetsEnvelope());

    expect(server.requests).toHaveLength(before + 1);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key'] ?? sent.headers['authorization']).toMatch(/^(Bearer )?sk-ant-test$/);
    const request = sent.body as any;
    expect(request).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 8192, tool_choice: { type: 'any' } });
    expect(request.tools).toHaveLength(1);
    expect(request.tools[0].name).toBe('submit_nutrition_strategy');
    expect(request.tools[0].input_schema.required).toContain('protein_distribution');
    expect(request.system[0].text).toContain('NUTRITIONIST');
    expect(output.envelopes).toHaveLength(1);
    expect(output.envelopes[0]).toMatchObject({
      from_agent: 'NUTRITIONIST',
      to_agent: 'DIETITIAN',
      data_type: 'nutrition_strategy',
      pipeline_run_id: RUN,
    });
    expect(output.envelopes[0].payload.hardgainer_tactics).toEqual(['Claude says: liquid calories first']);
  });

  it('price each call by the registry (spec 001 §11.1) and report its tokens', async () => {
    next = submit(payload('nutrition_strategy'));
    await run('NUTRITIONIST', targetsEnvelope());
    expect(calls).toHaveLength(1);
    const [call] = calls;
    const usage = server.requests.at(-1)!.usage!;
    expect(call).toMatchObject({ agent: 'NUTRITIONIST', runId: RUN, model: 'claude-haiku-4-5' });
    expect(call!.usage.prompt).toBe(usage.input_tokens + usage.cache_creation_input_tokens);
    expect(call!.usage.completion).toBeGreaterThan(0);
    expect(call!.costCents).toBeGreaterThan(0);
    expect(call!.costCents).toBeCloseTo(costOfTokens('claude-haiku-4-5', call!.usage), 12);
  });

  it('report an answer that fails the schema as a validation failure naming the field (§6.2)', async () => {
    next = submit({ ...payload('nutrition_strategy'), daily_calories: 2400 });
    const failure = await run('NUTRITIONIST', targetsEnvelope()).catch((error) => error);
    expect(failure).toBeInstanceOf(ValidationError);
    expect((failure as ValidationError).issues?.map((i) => i.message).join(' ')).toContain('target_intake_kcal');
  });

  it.each([
    [429, 'rate_limited', true],
    [529, 'server_error', true],
    [401, 'authentication', false],
  ] as const)("turn an API error %i into the layer's ModelError (%s)", async (status, kind, retryable) => {
    next = () => ({ error: { status, message: 'scripted failure' } });
    const failure = await run('NUTRITIONIST', targetsEnvelope()).catch((error) => error);
    expect(failure).toBeInstanceOf(ModelError);
    expect(failure).toMatchObject({ kind, retryable, upstreamStatus: status, provider: 'anthropic' });
  });

  it('never let the PHYSICIAN be less cautious than the offline rules', async () => {
    next = submit({
      ...payload('medical_context'),
      pipeline_action: 'continue',
      urgency: 'routine',
      referral_needed: false,
      referral_target: null,
    });
    const query = makeEnvelope({
      from: 'SCIENTIST',
      to: 'PHYSICIAN',
      dataType: 'health_query',
      runId: RUN,
      idSeed: ['q'],
      payload: {
        ...payload('health_query'),
        query: 'BMI 14.7 and an eating disorder history',
        user_context: {
          ...payload('health_query').user_context,
          bmi: 14.7,
          symptoms: ['BMI 14.7 (under 16)', 'history of anorexia nervosa'],
        },
      },
    });
    const output = await run('PHYSICIAN', query);
    expect(output.envelopes[0].payload).toMatchObject({
      pipeline_action: 'abort',
      urgency: 'urgent',
      referral_needed: true,
    });
    expect(output.envelopes[0].to_agent).toBe('SCIENTIST');
  });

  it('refuse a model the registry cannot price when they are built', () => {
    expect(() =>
      claudeNutritionBrains({ client: fakeServerClients(server).anthropic, model: 'claude-unknown-9' }),
    ).toThrow(UnknownModelError);
  });
});

describe('nutritionBrainsFor', () => {
  it('stays offline without an Anthropic key, even with an OpenAI key', async () => {
    const before = server.requests.length;
    for (const settings of [{ anthropicApiKey: undefined, openaiApiKey: undefined }, { anthropicApiKey: undefined }]) {
      const output = await run(
        'NUTRITIONIST',
        targetsEnvelope(),
        nutritionBrainsFor(fakeServerBackends(server, settings)),
      );
      expect(output.envelopes[0]).toMatchObject({ from_agent: 'NUTRITIONIST', data_type: 'nutrition_strategy' });
    }
    expect(server.requests).toHaveLength(before);
  });
});
