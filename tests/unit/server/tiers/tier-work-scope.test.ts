import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inTierWork, tierCallKey, type TierWork } from '../../../../server/tiers/tier-work-scope.ts';

const work: TierWork = { receiver: 'ABSTRACT_ARCHITECT', message: 'm-1' };
const call = fc.record({ kind: fc.constantFrom('architect', 'dispatcher', 'sandbox.runTests'), input: fc.jsonValue() });
const calls = fc.array(call, { maxLength: 12 });

/** The keys of `made`, made in that order within one tier work. */
function keysOf(scope: TierWork, made: readonly { kind: string; input: unknown }[]): Promise<string[]> {
  return inTierWork(scope, async () => made.map(({ kind }) => tierCallKey(kind)));
}

describe('tierCallKey', () => {
  it('gives the same keys when a message is worked on again with the same calls (after a restart)', async () => {
    await fc.assert(
      fc.asyncProperty(calls, async (made) => {
        expect(await keysOf(work, made)).toEqual(await keysOf(work, made));
      }),
      { numRuns: 200 },
    );
  });

  it('gives each call of one work its own key, even two equal calls, each named by its message', async () => {
    await fc.assert(
      fc.asyncProperty(calls, async (made) => {
        const keys = await keysOf(work, made);
        expect(new Set(keys).size).toBe(made.length);
        for (const key of keys) expect(key.startsWith(`${work.message}/`)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('gives another message (a retry) or another receiver new keys for the same calls', async () => {
    await fc.assert(
      fc.asyncProperty(calls, async (made) => {
        const first = new Set(await keysOf(work, made));
        const retry = await keysOf({ ...work, message: 'm-2' }, made);
        const other = await keysOf({ ...work, receiver: 'ROUTING_DISPATCHER' }, made);
        expect([...retry, ...other].filter((key) => first.has(key))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('keys a call by its place in the work, not its input: redone with another fleet load, it asks under its first key', async () => {
    const first = await keysOf(work, [
      { kind: 'dispatcher', input: { load: 0 } },
      { kind: 'sandbox.runTests', input: { code: 'a' } },
      { kind: 'dispatcher', input: { load: 0 } },
    ]);
    const redone = await keysOf(work, [
      { kind: 'dispatcher', input: { load: 3 } },
      { kind: 'sandbox.runTests', input: { code: 'a' } },
      { kind: 'dispatcher', input: { load: 1 } },
    ]);
    expect(redone).toEqual(first);
    expect(new Set(first).size).toBe(3);
  });

  it('counts calls per work: two works at once do not share their counts', async () => {
    const one = { kind: 'sandbox.runTests', input: { code: 'x' } };
    const [left, right] = await Promise.all([
      inTierWork(work, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return tierCallKey(one.kind);
      }),
      inTierWork(work, async () => tierCallKey(one.kind)),
    ]);
    expect(left).toBe(right);
  });

  it('refuses a call made outside any work, saying where to make it', () => {
    expect(() => tierCallKey('architect')).toThrow(/outside a tier's work on a message/);
  });
});
