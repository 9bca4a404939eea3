import { describe, expect, it } from 'vitest';
import { inputHash } from '../../../../actors/runtime/input-hash.ts';
import { agentContext } from '../../../../machines/runtime/agent-context.ts';
import { reportOf, timeoutFailure, validationFailure } from '../../../../machines/runtime/agent-reports.ts';
import { ValidationError } from '../../../../protocol/runtime/runtime-error.ts';

const inHand = { ...agentContext({ name: 'COACH', timeoutMs: 5_000 }), attempts: 2 };

describe("the agent worker's reports", () => {
  it('report the request in hand with its attempts', () => {
    const context = { ...inHand, current: { requestId: 'r1', input: { n: 1 } } };
    expect(reportOf(context, { status: 'cancelled' })).toEqual({
      type: 'agent.report',
      agent: 'COACH',
      requestId: 'r1',
      attempts: 2,
      outcome: { status: 'cancelled' },
    });
  });

  it('refuse to report with no request in hand, naming the agent (a bug in the machine, not a report)', () => {
    expect(() => reportOf({ ...inHand, current: null }, { status: 'cancelled' })).toThrow(
      /Agent COACH .*no current request/,
    );
  });

  it("carry a validation error's issues, and none for any other error", () => {
    const issues = [{ path: 'meals.0.kcal', message: 'Expected number' }];
    expect(validationFailure(new ValidationError('bad output', issues))).toEqual({
      status: 'failed',
      failure: { kind: 'validation', issues },
    });
    expect(validationFailure(new Error('bad output'))).toEqual({
      status: 'failed',
      failure: { kind: 'validation', issues: [] },
    });
  });

  it('time out with the timeout and the hash of the input that ran out of time', () => {
    const input = { plan: 'week 1' };
    expect(timeoutFailure({ ...inHand, current: { requestId: 'r1', input } })).toEqual({
      status: 'failed',
      failure: { kind: 'timeout', timeout_duration_ms: 5_000, input_hash: inputHash(input) },
    });
  });
});
