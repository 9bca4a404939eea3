import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedClock } from 'xstate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../../../actors/runtime/file-journal.ts';
import { openSharedState } from '../../../../../actors/runtime/shared-state/open-shared-state.ts';
import { BEADS_SCHEMA as beadsSchema } from '../../../../../protocol/tiers/beads.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shared-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const scopes = { task: 't1', user: 'ada' };

describe('shared state over a file journal', () => {
  it('reopens with the same entries, versions, history and expiries', async () => {
    const clock = new SimulatedClock();
    const journal = await openFileJournal(dir);
    const state = openSharedState({ journal, clock, schema: beadsSchema, scopes });
    await state.write('ARCHITECT', [{ key: 'task/objective', value: { text: 'parse' } }]);
    await state.write('ARCHITECT', [
      { key: 'task/objective', value: { text: 'parse logs' }, expectedVersion: 1 },
      { key: 'task/constraints', value: ['offline'] },
    ]);
    await state.write('MONITOR', [{ key: 'system/seen-messages/FLEET/m1', value: 'done', ttlMs: 500 }]);
    await state.write('ARCHITECT', [{ key: 'task/constraints', delete: true }]);
    const before = {
      list: await state.list(''),
      history: await state.history('task/objective'),
      deleted: await state.history('task/constraints'),
    };
    await journal.close();

    const reopened = openSharedState({ journal: await openFileJournal(dir), clock, schema: beadsSchema, scopes });
    expect(await reopened.list('')).toEqual(before.list);
    expect(await reopened.history('task/objective')).toEqual(before.history);
    expect(await reopened.history('task/constraints')).toEqual(before.deleted);
    expect(before.list.map((e) => [e.key, e.version])).toEqual([
      ['system/seen-messages/FLEET/m1', 1],
      ['task/objective', 2],
    ]);
    // Versions go on from where they were; a stale CAS still fails.
    expect(
      await reopened.write('ARCHITECT', [{ key: 'task/objective', value: 'x', expectedVersion: 1 }]),
    ).toMatchObject({ ok: false, conflict: { currentVersion: 2 } });
    const next = await reopened.write('ARCHITECT', [{ key: 'task/objective', value: 'x', expectedVersion: 2 }]);
    expect(next.ok && next.entries[0]!.version).toBe(4);
    clock.increment(500);
    expect(await reopened.get('system/seen-messages/FLEET/m1')).toBeUndefined();
  });
});
