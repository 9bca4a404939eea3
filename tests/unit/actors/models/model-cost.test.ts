import { describe, expect, it } from 'vitest';
import { calculateCostCents, costOfTokens, tokenUsageOf } from '../../../../actors/models/model-cost.ts';
import {
  DEFAULT_MODEL,
  MODEL_IDS,
  MODEL_REGISTRY,
  UnknownModelError,
  getModelConfig,
  resolveModelId,
} from '../../../../actors/models/model-registry.ts';
import type { ModelMessage } from '../../../../actors/models/model-provider.ts';
import { readModelResponse } from '../../../../actors/models/model-response.ts';

describe('model registry (spec 001 §3.4)', () => {
  it('lists the three models with the spec prices per million tokens', () => {
    expect(MODEL_IDS).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-opus-4-5']);
    expect(DEFAULT_MODEL).toBe('claude-haiku-4-5');
    expect(MODEL_REGISTRY['claude-haiku-4-5']).toMatchObject({
      displayName: 'Claude Haiku 4.5',
      pricing: { prompt: 1, completion: 5, cached_prompt: 0.1 },
    });
    expect(MODEL_REGISTRY['claude-sonnet-4-5']).toMatchObject({
      displayName: 'Claude Sonnet 4.5',
      pricing: { prompt: 3, completion: 15, cached_prompt: 0.3 },
    });
    expect(MODEL_REGISTRY['claude-opus-4-5']).toMatchObject({
      displayName: 'Claude Opus 4.5',
      pricing: { prompt: 5, completion: 25, cached_prompt: 0.5 },
    });
  });

  it('resolves dated snapshots the API reports to their registry id, and nothing else', () => {
    expect(resolveModelId('claude-haiku-4-5-20251001')).toBe('claude-haiku-4-5');
    expect(resolveModelId('claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
    expect(resolveModelId('claude-sonnet-4-5-latest')).toBeUndefined();
    expect(resolveModelId('gpt-4o-mini')).toBeUndefined();
    expect(() => getModelConfig('claude-2')).toThrow(UnknownModelError);
    expect(() => getModelConfig('claude-2')).toThrow(/claude-haiku-4-5, claude-sonnet-4-5, claude-opus-4-5/);
  });
});

describe('calculateCostCents (spec 001 §11.1)', () => {
  it('prices prompt and completion tokens in cents', () => {
    // 1M prompt tokens of Haiku cost $1 = 100 cents; 1M completion tokens $5.
    expect(calculateCostCents('claude-haiku-4-5', 1_000_000, 0)).toBeCloseTo(100, 10);
    expect(calculateCostCents('claude-haiku-4-5', 0, 1_000_000)).toBeCloseTo(500, 10);
    expect(calculateCostCents('claude-opus-4-5', 2_000, 1_000)).toBeCloseTo(((2000 * 5 + 1000 * 25) / 1e6) * 100, 10);
  });

  it('takes cache reads out of the prompt price and charges them at the cached price', () => {
    // 3,000 input tokens of which 2,800 cached, 200 output, on Haiku.
    const cents = calculateCostCents('claude-haiku-4-5', 3000, 200, { cache_read_input_tokens: 2800 });
    expect(cents).toBeCloseTo(((200 * 1 + 2800 * 0.1 + 200 * 5) / 1e6) * 100, 12);
    expect(cents).toBeLessThan(calculateCostCents('claude-haiku-4-5', 3000, 200));
  });

  it('refuses counts that cannot be', () => {
    expect(() => calculateCostCents('claude-haiku-4-5', -1, 0)).toThrow(RangeError);
    expect(() => calculateCostCents('claude-haiku-4-5', 10, 0, { cache_read_input_tokens: 11 })).toThrow(
      /cannot exceed/,
    );
    expect(() => calculateCostCents('nope', 10, 0)).toThrow(UnknownModelError);
  });
});

describe('tokenUsageOf', () => {
  it('counts cache writes as prompt, cache reads apart, and everything in total', () => {
    const usage = tokenUsageOf({
      input_tokens: 50,
      output_tokens: 120,
      cache_creation_input_tokens: 400,
      cache_read_input_tokens: 3000,
    });
    expect(usage).toEqual({ prompt: 450, completion: 120, cached: 3000, cache_write: 400, total: 3570 });
    expect(costOfTokens('claude-sonnet-4-5', usage)).toBeCloseTo(((450 * 3 + 120 * 15 + 3000 * 0.3) / 1e6) * 100, 12);
  });
});

describe('readModelResponse (spec 001 §3.3)', () => {
  const message = (model: string): ModelMessage => ({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model,
    content: [
      { type: 'text', text: 'Let me build that.' },
      { type: 'tool_use', id: 'toolu_1', name: 'idle', input: { reason: 'done' } },
      { type: 'tool_use', id: 'toolu_2', name: 'message_notify_user', input: { message: 'hi' } },
    ],
    stop_reason: 'tool_use',
    usage: { input_tokens: 10, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000 },
  });

  it('takes the first tool_use as the tool call and prices by the responding model', () => {
    const read = readModelResponse(message('claude-opus-4-5-20251101'), {
      requestedModel: 'claude-haiku-4-5',
      provider: { billed: true },
    });
    expect(read.toolCall).toEqual({ id: 'toolu_1', name: 'idle', arguments: { reason: 'done' } });
    expect(read.text).toBe('Let me build that.');
    expect(read.costCents).toBeCloseTo(((10 * 5 + 20 * 25 + 1000 * 0.5) / 1e6) * 100, 12);
  });

  it('prices by the requested model when the response names an unknown one, and offline costs nothing', () => {
    const billed = readModelResponse(message('fake-model'), {
      requestedModel: 'claude-haiku-4-5',
      provider: { billed: true },
    });
    expect(billed.costCents).toBeCloseTo(((10 * 1 + 20 * 5 + 1000 * 0.1) / 1e6) * 100, 12);
    const offline = readModelResponse(message('claude-haiku-4-5'), {
      requestedModel: 'claude-haiku-4-5',
      provider: { billed: false },
    });
    expect(offline.costCents).toBe(0);
    expect(offline.usage.total).toBe(1030);
  });

  it('reports no tool call when there is no tool_use block', () => {
    const textOnly: ModelMessage = { ...message('claude-haiku-4-5'), content: [{ type: 'text', text: 'plain' }] };
    expect(
      readModelResponse(textOnly, { requestedModel: 'claude-haiku-4-5', provider: { billed: true } }).toolCall,
    ).toBeUndefined();
  });
});
