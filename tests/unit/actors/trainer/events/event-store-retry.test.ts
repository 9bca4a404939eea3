import { describe, expect, it } from 'vitest';
import {
  DuplicateSequenceError,
  retryOnDuplicateSequence,
} from '../../../../../actors/trainer/events/event-store-retry.ts';
import { ConflictError } from '../../../../../protocol/runtime/runtime-error.ts';

function failing(times: number, error: () => Error = () => new DuplicateSequenceError('s', 1)) {
  let calls = 0;
  const attempt = async () => {
    calls += 1;
    if (calls <= times) throw error();
    return calls;
  };
  return { attempt, calls: () => calls };
}

describe('retryOnDuplicateSequence', () => {
  it('returns at once when the first attempt succeeds', async () => {
    const pauses: number[] = [];
    const { attempt, calls } = failing(0);
    await expect(retryOnDuplicateSequence(attempt, { sleep: async (ms) => void pauses.push(ms) })).resolves.toBe(1);
    expect(calls()).toBe(1);
    expect(pauses).toEqual([]);
  });

  it.each([1, 3, 5])('succeeds after %i duplicates, pausing before each retry', async (duplicates) => {
    const pauses: number[] = [];
    const { attempt, calls } = failing(duplicates);
    const result = await retryOnDuplicateSequence(attempt, {
      random: () => 0.999,
      baseDelayMs: 100,
      sleep: async (ms) => void pauses.push(ms),
    });
    expect(result).toBe(duplicates + 1);
    expect(calls()).toBe(duplicates + 1);
    // Each pause is random within 0 .. baseDelay * retryNumber.
    expect(pauses).toEqual(Array.from({ length: duplicates }, (_, i) => Math.floor(0.999 * 100 * (i + 1))));
  });

  it('gives up after 5 retries with a 409 sequence_conflict', async () => {
    const { attempt, calls } = failing(6);
    const run = retryOnDuplicateSequence(attempt, { sleep: async () => {} });
    await expect(run).rejects.toBeInstanceOf(ConflictError);
    await expect(run).rejects.toMatchObject({ code: 'sequence_conflict', status: 409 });
    expect(calls()).toBe(6);
  });

  it('draws a fresh random pause for each retry', async () => {
    const draws = [0.1, 0.9, 0.4];
    const pauses: number[] = [];
    const { attempt } = failing(3);
    await retryOnDuplicateSequence(attempt, {
      random: () => draws.shift()!,
      baseDelayMs: 10,
      sleep: async (ms) => void pauses.push(ms),
    });
    expect(pauses).toEqual([1, 18, 12]);
  });

  it('does not retry other errors', async () => {
    const { attempt, calls } = failing(3, () => new Error('disk full'));
    await expect(retryOnDuplicateSequence(attempt, { sleep: async () => {} })).rejects.toThrow('disk full');
    expect(calls()).toBe(1);
  });
});
