import { describe, expect, it } from 'vitest';
import {
  isTransientOutcome,
  isTransientRefusal,
  retryDelayAfterRefusal,
  senderRetryDelay,
} from '../../../../actors/runtime/sender-retry.ts';

const policy = { baseMs: 100, maxMs: 1_000 };
const base = { policy, maxRetries: 3, now: 0, deadline: 10_000, random: () => 0 };

describe('senderRetryDelay', () => {
  it('backs off exponentially per attempt', () => {
    expect([1, 2, 3].map((attempt) => senderRetryDelay({ ...base, attempt }))).toEqual([100, 200, 400]);
  });

  it('never retries sooner than the receiver asked', () => {
    expect(senderRetryDelay({ ...base, attempt: 1, retryAfterMs: 750 })).toBe(750);
    expect(senderRetryDelay({ ...base, attempt: 3, retryAfterMs: 50 })).toBe(400);
  });

  it('gives up past its retries, or when the retry could not start before the original deadline', () => {
    expect(senderRetryDelay({ ...base, attempt: 4 })).toBeUndefined();
    expect(senderRetryDelay({ ...base, attempt: 1, now: 9_899 })).toBe(100);
    expect(senderRetryDelay({ ...base, attempt: 1, now: 9_900 })).toBeUndefined();
    expect(senderRetryDelay({ ...base, attempt: 1, retryAfterMs: 10_000 })).toBeUndefined();
  });
});

describe('transient outcomes', () => {
  it('retries only a throttle or a timeout, and refusals that may pass', () => {
    expect(isTransientOutcome({ status: 'throttled', retryAfterMs: 1 })).toBe(true);
    expect(
      isTransientOutcome({
        status: 'failed',
        failure: { kind: 'timeout', timeout_duration_ms: 1, input_hash: '0'.repeat(64) },
      }),
    ).toBe(true);
    expect(isTransientOutcome({ status: 'failed', failure: { kind: 'error', message: 'x' } })).toBe(false);
    expect(isTransientOutcome({ status: 'failed', failure: { kind: 'validation', issues: [] } })).toBe(false);
    expect(isTransientOutcome({ status: 'completed', output: 1 })).toBe(false);
    expect(isTransientOutcome({ status: 'cancelled' })).toBe(false);
    for (const code of ['throttled', 'journal_unavailable', 'request_timeout'] as const)
      expect(isTransientRefusal({ code, message: '' })).toBe(true);
    for (const code of ['invalid_envelope', 'unknown_edge', 'duplicate_message', 'undeliverable'] as const)
      expect(isTransientRefusal({ code, message: '' })).toBe(false);
  });
});

describe('retryDelayAfterRefusal', () => {
  it('waits the refusal’s retryAfterMs when it is longer than the backoff, the backoff otherwise', () => {
    const throttled = (retryAfterMs?: number) => ({
      code: 'throttled' as const,
      message: '',
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
    expect(retryDelayAfterRefusal(throttled(750), { ...base, attempt: 1 })).toBe(750);
    expect(retryDelayAfterRefusal(throttled(50), { ...base, attempt: 2 })).toBe(200);
    expect(retryDelayAfterRefusal(throttled(), { ...base, attempt: 3 })).toBe(400);
    expect(retryDelayAfterRefusal({ code: 'journal_unavailable', message: '' }, { ...base, attempt: 1 })).toBe(100);
  });

  it('gives up on a refusal that would end the same way, past the retries or past the deadline', () => {
    expect(retryDelayAfterRefusal({ code: 'unknown_edge', message: '' }, { ...base, attempt: 1 })).toBeUndefined();
    expect(retryDelayAfterRefusal({ code: 'throttled', message: '' }, { ...base, attempt: 4 })).toBeUndefined();
    const late = { code: 'throttled' as const, message: '', retryAfterMs: 10_000 };
    expect(retryDelayAfterRefusal(late, { ...base, attempt: 1 })).toBeUndefined();
  });
});
