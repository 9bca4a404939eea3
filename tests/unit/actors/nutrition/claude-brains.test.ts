import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { claudeNutritionBrains } from '../../../../actors/nutrition/claude-brains.ts';
import { makeEnvelope } from '../../../../actors/nutrition/envelope-factory.ts';
import { ValidationError } from '../../../../protocol/runtime/runtime-error.ts';
import { payload } from '../../../support/nutrition/nutrition-fakes.ts';

const RUN = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A local server speaking the Anthropic Messages wire format, answering each call with `next`. */
let next: (body: any) => unknown;
const requests: any[] = [];
let server: Server;
let client: Anthropic;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw);
      requests.push({ path: req.url, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'msg_1', type: 'message', role: 'assistant', model: body.model, stop_reason: 'tool_use', stop_sequence: null,
          content: [{ type: 'tool_use', id: 'toolu_1', name: body.tool_choice.name, input: next(body) }],
          usage: { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new Anthropic({ apiKey: 'test-key', baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function run(agent: 'NUTRITIONIST' | 'PHYSICIAN', envelope: any, context: unknown = {}) {
  const brain = claudeNutritionBrains({ client, model: 'claude-haiku-4-5' })[agent];
  const input = { agent, requestId: envelope.message_id, attempt: 1, input: { envelope, delivery: { kind: 'direct' }, context } };
  return toPromise(createActor(brain, { input }).start()) as Promise<{ envelopes: any[] }>;
}

const targetsEnvelope = () =>
  makeEnvelope({ from: 'SCIENTIST', to: 'NUTRITIONIST', dataType: 'macro_targets', payload: payload('macro_targets'), runId: RUN, idSeed: ['t'] });

describe('Claude nutrition brains', () => {
  it('asks Claude for the payload through its schema as a forced tool, and sends its answer on', async () => {
    const strategy = { ...payload('nutrition_strategy'), hardgainer_tactics: ['Claude says: liquid calories first'] };
    next = () => strategy;
    const output = await run('NUTRITIONIST', targetsEnvelope());
    const request = requests.at(-1)!.body;
    expect(request.tool_choice).toEqual({ type: 'tool', name: 'submit_nutrition_strategy' });
    expect(request.tools[0].input_schema.type).toBe('object');
    expect(request.tools[0].input_schema.required).toContain('protein_distribution');
    expect(request.max_tokens).toBe(8192);
    expect(output.envelopes).toHaveLength(1);
    expect(output.envelopes[0]).toMatchObject({ from_agent: 'NUTRITIONIST', to_agent: 'DIETITIAN', data_type: 'nutrition_strategy', pipeline_run_id: RUN });
    expect(output.envelopes[0].payload.hardgainer_tactics).toEqual(['Claude says: liquid calories first']);
  });

  it('reports an answer that fails the schema as a validation failure naming the field (§6.2)', async () => {
    next = () => ({ ...payload('nutrition_strategy'), daily_calories: 2400 });
    const failure = await run('NUTRITIONIST', targetsEnvelope()).catch((error) => error);
    expect(failure).toBeInstanceOf(ValidationError);
    expect((failure as ValidationError).issues?.map((i) => i.message).join(' ')).toContain('target_intake_kcal');
  });

  it('never lets the PHYSICIAN be less cautious than the offline rules', async () => {
    next = () => ({ ...payload('medical_context'), pipeline_action: 'continue', urgency: 'routine', referral_needed: false, referral_target: null });
    const query = makeEnvelope({
      from: 'SCIENTIST', to: 'PHYSICIAN', dataType: 'health_query', runId: RUN, idSeed: ['q'],
      payload: { ...payload('health_query'), query: 'BMI 14.7 and an eating disorder history', user_context: { ...payload('health_query').user_context, bmi: 14.7, symptoms: ['BMI 14.7 (under 16)', 'history of anorexia nervosa'] } },
    });
    const output = await run('PHYSICIAN', query);
    expect(output.envelopes[0].payload).toMatchObject({ pipeline_action: 'abort', urgency: 'urgent', referral_needed: true });
    expect(output.envelopes[0].to_agent).toBe('SCIENTIST');
  });
});
