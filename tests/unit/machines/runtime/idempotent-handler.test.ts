import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedClock } from 'xstate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../../actors/runtime/file-journal.ts';
import type { Journal } from '../../../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../../actors/runtime/shared-state/open-shared-state.ts';
import type { SharedState } from '../../../../actors/runtime/shared-state/shared-state.ts';
import {
  createIdempotentHandler,
  type IdempotentHandlerOptions,
  type ResponseCache,
} from '../../../../machines/runtime/idempotent-handler.ts';
import { BEADS_SCHEMA as beadsSchema } from '../../../../protocol/tiers/beads.ts';

type Outcome = { status: string; run: number };

/** Spec 002's Beads state for user ada on `journal`; the MONITOR writes `system/`. */
const stateOn = (journal: Journal<unknown>, clock: SimulatedClock) =>
  openSharedState({ journal, schema: beadsSchema, scopes: { task: 't1', user: 'ada' }, clock });

/** A handler for the DISPATCHER's requests whose work answers `statuses` in turn, counting runs. */
function setup(
  cache: ResponseCache,
  clock: SimulatedClock,
  statuses: string[] = ['success'],
  more: Partial<IdempotentHandlerOptions<string, Outcome>> = {},
) {
  const runs: string[] = [];
  const gates: (() => void)[] = [];
  let gated = false;
  const handler = createIdempotentHandler<string, Outcome>({
    cache,
    role: 'MONITOR',
    keyPrefix: 'system/seen-messages',
    scope: 'ROUTING_DISPATCHER',
    clock,
    isTerminal: (outcome) => outcome.status !== 'throttled',
    handle: async (request, id) => {
      runs.push(`${id}:${request}`);
      if (gated) await new Promise<void>((resolve) => gates.push(resolve));
      return { status: statuses[(runs.length - 1) % statuses.length]!, run: runs.length };
    },
    ...more,
  });
  return { handler, runs, gates, gate: (on: boolean) => (gated = on) };
}

describe('createIdempotentHandler', () => {
  it("returns the cached response to a duplicate without running the work again, under spec 002's key", async () => {
    const clock = new SimulatedClock();
    const state = stateOn(createMemoryJournal(), clock);
    const { handler, runs } = setup(state, clock);
    expect(await handler.handle('msg-001', 'solve')).toEqual({ status: 'success', run: 1 });
    expect(await handler.handle('msg-001', 'solve again')).toEqual({ status: 'success', run: 1 });
    expect(runs).toEqual(['msg-001:solve']);
    expect(handler.keyOf('msg-001')).toBe('system/seen-messages/ROUTING_DISPATCHER/msg-001');
    expect(await state.get('system/seen-messages/ROUTING_DISPATCHER/msg-001')).toMatchObject({
      value: { status: 'success', run: 1 },
      writtenBy: 'MONITOR',
      expiresAt: 3_600_000,
    });
  });

  it('makes a duplicate of work in flight wait for its result', async () => {
    const clock = new SimulatedClock();
    const { handler, runs, gates, gate } = setup(stateOn(createMemoryJournal(), clock), clock);
    gate(true);
    const first = handler.handle('msg-1', 'a');
    const second = handler.handle('msg-1', 'b');
    expect(handler.inFlight).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(gates).toHaveLength(1);
    gates[0]!();
    expect(await Promise.all([first, second])).toEqual([
      { status: 'success', run: 1 },
      { status: 'success', run: 1 },
    ]);
    expect(runs).toEqual(['msg-1:a']);
    expect(handler.inFlight).toBe(0);
  });

  it('caches only terminal responses: a throttled answer runs again on the next delivery', async () => {
    const clock = new SimulatedClock();
    const state = stateOn(createMemoryJournal(), clock);
    const { handler, runs } = setup(state, clock, ['throttled', 'partial']);
    expect(await handler.handle('m', 'x')).toEqual({ status: 'throttled', run: 1 });
    expect(await state.get(handler.keyOf('m'))).toBeUndefined();
    expect(await handler.handle('m', 'x')).toEqual({ status: 'partial', run: 2 });
    expect(await handler.handle('m', 'x')).toEqual({ status: 'partial', run: 2 });
    expect(runs).toHaveLength(2);
  });

  it('forgets a response one TTL after the first receipt, not after the answer', async () => {
    const clock = new SimulatedClock();
    const state = stateOn(createMemoryJournal(), clock);
    const { handler, runs, gates, gate } = setup(state, clock, ['success'], { ttlMs: 1_000 });
    gate(true);
    const pending = handler.handle('m', 'x');
    await new Promise((resolve) => setImmediate(resolve));
    clock.increment(400); // the work takes 400 ms
    gates[0]!();
    await pending;
    expect((await state.get(handler.keyOf('m')))?.expiresAt).toBe(1_000);
    gate(false);
    clock.increment(599);
    await handler.handle('m', 'x');
    expect(runs).toHaveLength(1);
    clock.increment(1);
    await handler.handle('m', 'x');
    expect(runs).toHaveLength(2);
  });

  it('never answers before the response is cached, and says so when it cannot be', async () => {
    const clock = new SimulatedClock();
    const state = stateOn(createMemoryJournal(), clock);
    const failing: ResponseCache = {
      get: (key) => state.get(key),
      write: () => Promise.reject(new Error('disk full')),
    };
    const { handler, runs } = setup(failing, clock);
    await expect(handler.handle('m', 'x')).rejects.toMatchObject({
      code: 'response_not_cached',
      message: expect.stringMatching(
        /system\/seen-messages\/ROUTING_DISPATCHER\/m .*disk full.*send the request again/,
      ),
    });
    expect(handler.inFlight).toBe(0);
    const refused: ResponseCache = { get: async () => undefined, write: async () => ({ ok: false }) };
    await expect(setup(refused, clock).handler.handle('m', 'x')).rejects.toMatchObject({
      code: 'response_not_cached',
    });
    expect(runs).toHaveLength(1);
  });

  it('returns the response another handler cached first', async () => {
    const clock = new SimulatedClock();
    const state = stateOn(createMemoryJournal(), clock);
    const one = setup(state, clock);
    const other = setup(state, clock, ['failed']);
    one.gate(true);
    const first = one.handler.handle('m', 'x');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await other.handler.handle('m', 'x')).toEqual({ status: 'failed', run: 1 });
    one.gates[0]!();
    expect(await first).toEqual({ status: 'failed', run: 1 });
  });

  it('passes a failure of the work to every waiter, and runs it again on the next delivery', async () => {
    const clock = new SimulatedClock();
    let fail = true;
    const { handler, runs } = setup(stateOn(createMemoryJournal(), clock), clock, ['success'], {
      handle: async (request, id) => {
        runs.push(`${id}:${request}`);
        if (fail) throw new Error('brain crashed');
        return { status: 'success', run: runs.length };
      },
    });
    const results = await Promise.allSettled([handler.handle('m', 'x'), handler.handle('m', 'x')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await handler.handle('m', 'x')).toEqual({ status: 'success', run: 2 });
  });
});

describe('createIdempotentHandler after a restart', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'idempotent-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('still answers a duplicate from the cache kept in shared state on a file journal', async () => {
    const clock = new SimulatedClock();
    let journal = await openFileJournal(join(dir, 'state'), { warn: () => {} });
    let state: SharedState = stateOn(journal, clock);
    const before = setup(state, clock);
    expect(await before.handler.handle('msg-7', 'x')).toEqual({ status: 'success', run: 1 });
    await journal.close(); // the process stops

    journal = await openFileJournal(join(dir, 'state'), { warn: () => {} });
    state = stateOn(journal, clock);
    const after = setup(state, clock, ['failed']);
    expect(await after.handler.handle('msg-7', 'x')).toEqual({ status: 'success', run: 1 });
    expect(after.runs).toEqual([]);
    clock.increment(3_600_000); // an hour after the first receipt the id may be forgotten
    expect(await after.handler.handle('msg-7', 'x')).toEqual({ status: 'failed', run: 1 });
    await state.close();
    await journal.close();
  });
});
