import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { A2aState } from '../../../../server/a2a/a2a-mapping.ts';
import { a2aStatusOf } from '../../../../server/a2a/a2a-status.ts';
import { fromTaskStatus, toTaskStatus } from '../../../../server/a2a/a2a-wire.ts';

const STATES: A2aState[] = ['submitted', 'working', 'input-required', 'completed', 'failed', 'canceled', 'rejected'];
const state = fc.constantFrom(...STATES);
const message = fc.option(fc.string(), { nil: undefined });

describe('a2aStatusOf', () => {
  it('gives the state the rules pick, with the message of that state only, and no message key without one', () => {
    fc.assert(
      fc.property(state, fc.dictionary(state, message), (picked, messages) => {
        const rules = Object.fromEntries(Object.entries(messages).map(([name, text]) => [name, () => text]));
        const status = a2aStatusOf<A2aState>({ state: (view) => view, messages: rules })(picked);
        const expected = messages[picked];
        expect(status.state).toBe(picked);
        expect('message' in status).toBe(expected !== undefined);
        expect(status.message).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('passes the view to the state and message rules', () => {
    const statusOf = a2aStatusOf<{ done: boolean; error?: string }>({
      state: (run) => (run.error ? 'failed' : run.done ? 'completed' : 'working'),
      messages: { failed: (run) => `failed: ${run.error}` },
    });
    expect(statusOf({ done: false, error: 'timeout' })).toEqual({ state: 'failed', message: 'failed: timeout' });
    expect(statusOf({ done: true })).toEqual({ state: 'completed' });
  });
});

describe('toTaskStatus', () => {
  it('reads back as the status it was made from (fromTaskStatus), as an agent message in the task', () => {
    fc.assert(
      fc.property(state, message, fc.uuid(), fc.uuid(), (picked, text, taskId, contextId) => {
        const status = text === undefined ? { state: picked } : { state: picked, message: text };
        const wire = toTaskStatus(status, taskId, contextId, '2026-01-01T00:00:00.000Z');
        expect(fromTaskStatus(wire)).toEqual(status);
        expect(wire.timestamp).toBe('2026-01-01T00:00:00.000Z');
        if (wire.message) expect([wire.message.taskId, wire.message.contextId]).toEqual([taskId, contextId]);
      }),
      { numRuns: 200 },
    );
  });
});
