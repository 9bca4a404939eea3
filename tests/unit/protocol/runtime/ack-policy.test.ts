import { describe, expect, it } from 'vitest';
import { compileAckPolicy } from '../../../../protocol/runtime/ack-policy.ts';

describe('compileAckPolicy', () => {
  const ackOf = compileAckPolicy({
    required: 'acknowledgment.required',
    timeoutMs: 'acknowledgment.timeout_ms',
    retries: 'acknowledgment.retry_count',
    requiredForKinds: ['request'],
    defaults: { timeoutMs: 30_000, retries: 3 },
  });

  it('reads the policy an envelope asks for', () => {
    expect(ackOf({ acknowledgment: { required: true, timeout_ms: 5_000, retry_count: 2 } }, 'notification')).toEqual({
      timeoutMs: 5_000,
      retries: 2,
    });
  });

  it('needs no ack when not required and not of a kind that always is', () => {
    expect(ackOf({ acknowledgment: { required: false, timeout_ms: 5_000, retry_count: 2 } }, 'notification')).toBe(
      undefined,
    );
    expect(ackOf({}, 'response')).toBeUndefined();
  });

  it('requires an ack for every request, taking absent fields from the defaults', () => {
    expect(ackOf({}, 'request')).toEqual({ timeoutMs: 30_000, retries: 3 });
    expect(ackOf({ acknowledgment: { required: false, timeout_ms: 100 } }, 'request')).toEqual({
      timeoutMs: 100,
      retries: 3,
    });
  });

  it('takes the default for a value that is not a whole number of at least 0', () => {
    for (const bad of [-1, 1.5, '10', null])
      expect(ackOf({ acknowledgment: { required: true, timeout_ms: bad, retry_count: bad } }, 'x')).toEqual({
        timeoutMs: 30_000,
        retries: 3,
      });
    expect(ackOf({ acknowledgment: { required: true, timeout_ms: 0, retry_count: 0 } }, 'x')).toEqual({
      timeoutMs: 0,
      retries: 0,
    });
  });

  it('with only defaults declared, requires an ack for the listed kinds alone', () => {
    const always = compileAckPolicy({ requiredForKinds: ['request'], defaults: { timeoutMs: 1_000, retries: 1 } });
    expect(always({ acknowledgment: { required: true } }, 'notification')).toBeUndefined();
    expect(always({}, 'request')).toEqual({ timeoutMs: 1_000, retries: 1 });
  });
});
