import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../../actors/runtime/shared-state/open-shared-state.ts';
import {
  createIdempotentHandler,
  ResponseNotCachedError,
  type ResponseCache,
} from '../../../../machines/runtime/idempotent-handler.ts';
import { BEADS_SCHEMA as beadsSchema } from '../../../../protocol/tiers/beads.ts';

type Outcome = { status: string };

/** A handler of the DISPATCHER's requests on `cache`, whose work takes `workMs` on `clock`. */
function handlerOn(cache: ResponseCache, clock: SimulatedClock, options: { ttlMs?: number; workMs?: number } = {}) {
  let runs = 0;
  const handler = createIdempotentHandler<string, Outcome>({
    cache,
    role: 'MONITOR',
    keyPrefix: 'system/seen-messages',
    scope: 'ROUTING_DISPATCHER',
    clock,
    ttlMs: options.ttlMs,
    isTerminal: (outcome) => outcome.status !== 'throttled',
    handle: async () => {
      runs += 1;
      clock.increment(options.workMs ?? 0);
      return { status: 'success' };
    },
  });
  return { handler, runs: () => runs };
}

describe('createIdempotentHandler cache writes', () => {
  it('caches a response for one TTL from the first receipt, whatever the clock read then', async () => {
    const clock = new SimulatedClock();
    clock.set(50_000);
    const state = openSharedState({
      journal: createMemoryJournal(),
      schema: beadsSchema,
      scopes: { task: 't1', user: 'ada' },
      clock,
    });
    const { handler, runs } = handlerOn(state, clock, { ttlMs: 1_000, workMs: 300 });
    await handler.handle('m', 'x');
    expect((await state.get(handler.keyOf('m')))?.expiresAt).toBe(51_000);
    clock.increment(699);
    await handler.handle('m', 'x');
    expect(runs()).toBe(1);
    clock.increment(1);
    await handler.handle('m', 'x');
    expect(runs()).toBe(2);
  });

  it("answers with its own response once the cache took it, without reading it back (a replica's reads may lag)", async () => {
    const clock = new SimulatedClock();
    const writes: unknown[] = [];
    const lagging: ResponseCache = {
      get: async () => undefined,
      write: async (_, entries) => (writes.push(...entries.map((entry) => entry.value)), { ok: true }),
    };
    const { handler } = handlerOn(lagging, clock);
    expect(await handler.handle('m', 'x')).toEqual({ status: 'success' });
    expect(writes).toEqual([{ status: 'success' }]);
  });

  it('says when the cache refused the write and holds no response either', async () => {
    const clock = new SimulatedClock();
    const refusing: ResponseCache = { get: async () => undefined, write: async () => ({ ok: false }) };
    const error = await handlerOn(refusing, clock)
      .handler.handle('m', 'x')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseNotCachedError);
    expect(error).toMatchObject({
      name: 'ResponseNotCachedError',
      code: 'response_not_cached',
      status: 503,
      message: expect.stringMatching(
        /^The response to system\/seen-messages\/ROUTING_DISPATCHER\/m could not be stored \(the write was refused and no response is cached\)/,
      ),
    });
  });
});
