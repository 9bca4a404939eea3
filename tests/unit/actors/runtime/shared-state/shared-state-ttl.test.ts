import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../../../actors/runtime/shared-state/open-shared-state.ts';
import { BEADS_SCHEMA as beadsSchema } from '../../../../../protocol/tiers/beads.ts';

const HOUR = 3_600_000;
const SEEN = 'system/seen-messages/ARCHITECT/msg-1';

function setup() {
  const clock = new SimulatedClock();
  clock.set(1_000);
  const journal = createMemoryJournal();
  const open = () => openSharedState({ journal, clock, schema: beadsSchema, scopes: { user: 'ada' } });
  return { clock, journal, open, state: open() };
}

describe('shared state: TTL (spec 002 seen-messages, one hour)', () => {
  it('reads an entry until its TTL has run from the write, then as absent', async () => {
    const { clock, state } = setup();
    const result = await state.write('MONITOR', [{ key: SEEN, value: { status: 'ok' }, ttlMs: HOUR }]);
    expect(result.ok && result.entries[0]).toMatchObject({ writtenAt: 1_000, expiresAt: 1_000 + HOUR });
    clock.increment(HOUR - 1);
    expect(await state.get(SEEN)).toMatchObject({ value: { status: 'ok' } });
    expect(await state.list('system/')).toHaveLength(1);
    clock.increment(1);
    expect(await state.get(SEEN)).toBeUndefined();
    expect(await state.list('system/')).toEqual([]);
  });

  it('treats an expired key as absent for compare-and-set', async () => {
    const { clock, state } = setup();
    await state.write('MONITOR', [{ key: SEEN, value: 1, ttlMs: 10 }]);
    expect(await state.write('MONITOR', [{ key: SEEN, value: 2, expectedVersion: 0 }])).toMatchObject({
      ok: false,
      conflict: { currentVersion: 1 },
    });
    clock.increment(10);
    const again = await state.write('MONITOR', [{ key: SEEN, value: 2, expectedVersion: 0 }]);
    expect(again.ok && again.entries[0]).toMatchObject({ version: 2, value: 2 });
    expect(again.ok && again.entries[0]!.expiresAt).toBeUndefined(); // a new life: no TTL unless given
  });

  it('keeps the expiry through an update without ttlMs, and sets a new one with it', async () => {
    const { clock, state } = setup();
    await state.write('MONITOR', [{ key: SEEN, value: 1, ttlMs: 100 }]);
    clock.increment(60);
    const update = await state.write('MONITOR', [{ key: SEEN, value: 2 }]);
    expect(update.ok && update.entries[0]!.expiresAt).toBe(1_100);
    clock.increment(40);
    expect(await state.get(SEEN)).toBeUndefined();
    await state.write('MONITOR', [{ key: SEEN, value: 3, ttlMs: 100 }]);
    clock.increment(99);
    const renewed = await state.write('MONITOR', [{ key: SEEN, value: 4, ttlMs: 100 }]);
    expect(renewed.ok && renewed.entries[0]!.expiresAt).toBe(1_000 + 200 + 99);
  });

  it('measures TTLs on absolute times across a restart', async () => {
    const { clock, journal, state } = setup();
    await state.write('MONITOR', [{ key: SEEN, value: 1, ttlMs: HOUR }]);
    await state.close();
    clock.increment(HOUR / 2);
    const reopened = openSharedState({ journal, clock, schema: beadsSchema, scopes: { user: 'ada' } });
    expect(await reopened.get(SEEN)).toMatchObject({ expiresAt: 1_000 + HOUR });
    clock.increment(HOUR / 2);
    expect(await reopened.get(SEEN)).toBeUndefined();
  });
});
