import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../../../actors/runtime/shared-state/open-shared-state.ts';
import type { StateRecord } from '../../../../../actors/runtime/shared-state/state-record.ts';
import { BEADS_SCHEMA as beadsSchema } from '../../../../../protocol/tiers/beads.ts';

const journal = () => createMemoryJournal<StateRecord>();
const open = (j = journal(), scopes: Record<string, string> = { task: 't1', user: 'ada' }) =>
  openSharedState({ journal: j, schema: beadsSchema, scopes });

describe('shared state: writes and compare-and-set', () => {
  it('gives each write the next version of its scope instance, shared by its keys', async () => {
    const state = open();
    const first = await state.write('ARCHITECT', [{ key: 'task/objective', value: 'parse' }]);
    const second = await state.write('ARCHITECT', [
      { key: 'task/objective', value: 'parse logs' },
      { key: 'task/constraints', value: ['no network'] },
    ]);
    expect(first).toEqual({ ok: true, entries: [expect.objectContaining({ key: 'task/objective', version: 1 })] });
    expect(second.ok && second.entries.map((e) => [e.key, e.version])).toEqual([
      ['task/objective', 2],
      ['task/constraints', 2],
    ]);
    // Another scope instance counts on its own.
    const system = await state.write('MONITOR', [{ key: 'system/loaded-loras', value: [] }]);
    expect(system.ok && system.entries[0]!.version).toBe(1);
  });

  it('accepts a write whose expectedVersion is current and refuses a stale one with the current version', async () => {
    const state = open();
    await state.write('ARCHITECT', [{ key: 'task/objective', value: 'a', expectedVersion: 0 }]);
    const stale = await state.write('ARCHITECT', [{ key: 'task/objective', value: 'b', expectedVersion: 0 }]);
    expect(stale).toEqual({ ok: false, conflict: { key: 'task/objective', expectedVersion: 0, currentVersion: 1 } });
    const fresh = await state.write('ARCHITECT', [{ key: 'task/objective', value: 'b', expectedVersion: 1 }]);
    expect(fresh.ok).toBe(true);
    const older = await state.write('ARCHITECT', [{ key: 'task/objective', value: 'c', expectedVersion: 1 }]);
    expect(older).toEqual({ ok: false, conflict: { key: 'task/objective', expectedVersion: 1, currentVersion: 2 } });
    expect((await state.get('task/objective'))?.value).toBe('b');
  });

  it('writes no key of an atomic write when one key conflicts', async () => {
    const state = open();
    await state.write('ARCHITECT', [{ key: 'task/a', value: 1 }]);
    const result = await state.write('ARCHITECT', [
      { key: 'task/b', value: 2, expectedVersion: 0 },
      { key: 'task/a', value: 3, expectedVersion: 0 },
    ]);
    expect(result).toEqual({ ok: false, conflict: { key: 'task/a', expectedVersion: 0, currentVersion: 1 } });
    expect(await state.get('task/b')).toBeUndefined();
    expect((await state.get('task/a'))?.value).toBe(1);
    // The refused write took no version.
    const next = await state.write('ARCHITECT', [{ key: 'task/b', value: 2 }]);
    expect(next.ok && next.entries[0]!.version).toBe(2);
  });

  it('deletes: the key reads as absent, expectedVersion 0 then holds, and versions go on', async () => {
    const state = open();
    await state.write('ARCHITECT', [{ key: 'task/a', value: 1 }]);
    const gone = await state.write('ARCHITECT', [{ key: 'task/a', delete: true, expectedVersion: 1 }]);
    expect(gone.ok && gone.entries[0]).toMatchObject({ key: 'task/a', version: 2, deleted: true });
    expect(await state.get('task/a')).toBeUndefined();
    expect(await state.list('task/')).toEqual([]);
    const again = await state.write('ARCHITECT', [{ key: 'task/a', value: 'back', expectedVersion: 0 }]);
    expect(again.ok && again.entries[0]!.version).toBe(3);
  });

  it('lists live entries by prefix, ordered by key, across the namespaces and scopes a prefix covers', async () => {
    const state = open();
    await state.write('FLEET', [
      { key: 'execution/outputs/m2', value: 2 },
      { key: 'execution/outputs/m1', value: 1 },
      { key: 'execution/logs/m1', value: 'log' },
    ]);
    await state.write('MONITOR', [{ key: 'system/bottlenecks', value: [] }]);
    expect((await state.list('execution/outputs/')).map((e) => e.key)).toEqual([
      'execution/outputs/m1',
      'execution/outputs/m2',
    ]);
    expect((await state.list('')).map((e) => e.key)).toEqual([
      'execution/logs/m1',
      'execution/outputs/m1',
      'execution/outputs/m2',
      'system/bottlenecks',
    ]);
    expect((await state.list('s')).map((e) => e.key)).toEqual(['system/bottlenecks']);
  });

  it('refuses an atomic write across scope instances, naming both keys, and writes neither', async () => {
    const schema = {
      namespaces: {
        task: { scope: 'task', access: { PM: 'RW' as const } },
        system: { scope: 'user', access: { PM: 'RW' as const } },
        notes: { scope: 'task', access: { PM: 'RW' as const } },
      },
    };
    const state = openSharedState({ journal: journal(), schema, scopes: { task: 't', user: 'u' } });
    const refused = state.write('PM', [
      { key: 'task/a', value: 1 },
      { key: 'system/b', value: 2 },
    ]);
    await expect(refused).rejects.toMatchObject({
      code: 'cross_scope_write',
      message: expect.stringMatching(/"task\/a" is in scope "task" and "system\/b" in "user"/),
    });
    expect(await state.list('')).toEqual([]);
    // Two namespaces of one scope share its instance: atomic together.
    const together = await state.write('PM', [
      { key: 'task/a', value: 1 },
      { key: 'notes/b', value: 2 },
    ]);
    expect(together.ok && together.entries.map((e) => e.version)).toEqual([1, 1]);
  });

  it('refuses malformed writes with what to do, writing nothing', async () => {
    const state = open();
    const cases: [unknown[], RegExp][] = [
      [[], /at least one/],
      [[{ key: 'task/a' }], /has no value/],
      [[{ key: 'task/a', value: 1, delete: true }], /both a value and delete/],
      [[{ key: 'task/a', value: undefined }], /is not JSON/],
      [[{ key: 'task/a', value: 10n }], /is not JSON/],
      [[{ key: 'task/a', value: () => 1 }], /is not JSON/],
      [[{ key: 'task/a', value: 1, expectedVersion: -1 }], /expectedVersion/],
      [[{ key: 'task/a', value: 1, expectedVersion: 1.5 }], /expectedVersion/],
      [[{ key: 'task/a', value: 1, ttlMs: 0 }], /ttlMs/],
      [[{ key: 'task/a', delete: true, ttlMs: 5 }], /drop the ttlMs/],
      [
        [
          { key: 'task/a', value: 1 },
          { key: 'task/a', value: 2 },
        ],
        /twice/,
      ],
    ];
    for (const [writes, message] of cases) {
      await expect(state.write('ARCHITECT', writes as never)).rejects.toMatchObject({
        code: 'invalid_write',
        message: expect.stringMatching(message),
      });
    }
    expect(await state.list('')).toEqual([]);
  });

  it('stores a frozen JSON copy: the caller cannot change it afterwards, and readers cannot either', async () => {
    const state = open();
    const value = { at: new Date(0), list: [1] };
    await state.write('ARCHITECT', [{ key: 'task/a', value }]);
    value.list.push(2);
    const entry = await state.get('task/a');
    expect(entry?.value).toEqual({ at: '1970-01-01T00:00:00.000Z', list: [1] });
    expect(Object.isFrozen(entry)).toBe(true);
    expect(() => (entry!.value as { list: number[] }).list.push(3)).toThrow(TypeError);
  });

  it('shares a scope instance between views over one journal: CAS sees the other view’s writes', async () => {
    const shared = journal();
    const taskA = open(shared, { task: 'A', user: 'ada' });
    const taskB = open(shared, { task: 'B', user: 'ada' });
    await taskA.write('MONITOR', [{ key: 'system/seen', value: 1, expectedVersion: 0 }]);
    const stale = await taskB.write('MONITOR', [{ key: 'system/seen', value: 2, expectedVersion: 0 }]);
    expect(stale).toMatchObject({ ok: false, conflict: { currentVersion: 1 } });
    // Task scopes stay apart.
    await taskA.write('ARCHITECT', [{ key: 'task/x', value: 'A' }]);
    expect(await taskB.get('task/x')).toBeUndefined();
    expect(await shared.partitions()).toEqual(['user/ada', 'task/A']);
  });

  it('refuses a namespace whose scope the view was not opened with, and scopes the schema does not use', async () => {
    const state = open(journal(), { task: 't1' });
    await expect(state.get('system/x')).rejects.toMatchObject({
      code: 'scope_not_open',
      message: expect.stringMatching(/pass scopes: \{ user: '<id>' \}/),
    });
    expect((await state.list('')).length).toBe(0); // a prefix over every namespace skips the scopes not open
    expect(() => open(journal(), { tsk: 't1' })).toThrow(/Scope "tsk" is not used by any namespace/);
    expect(() => open(journal(), { task: '' })).toThrow(/needs a non-empty id/);
  });

  it('decides writes in call order, even while the scope instance is first read', async () => {
    const state = open();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => state.write('ARCHITECT', [{ key: 'task/n', value: i, expectedVersion: i }])),
    );
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true, true]);
    expect((await state.get('task/n'))?.value).toBe(4);
  });
});
