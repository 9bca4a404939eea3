import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../../../actors/runtime/shared-state/open-shared-state.ts';
import type { StateEntry } from '../../../../../actors/runtime/shared-state/shared-state.ts';
import { BEADS_SCHEMA as beadsSchema } from '../../../../../protocol/tiers/beads.ts';

const open = (historyLimit?: number) =>
  openSharedState({
    journal: createMemoryJournal(),
    schema: beadsSchema,
    scopes: { task: 't1', user: 'ada' },
    ...(historyLimit === undefined ? {} : { historyLimit }),
  });

describe('shared state: history and rollback (spec 004 superseded decisions)', () => {
  it('keeps every version of a key, deletions included, oldest first', async () => {
    const state = open();
    await state.write('DISPATCHER', [{ key: 'routing/task-graph', value: 'g1' }]);
    await state.write('DISPATCHER', [{ key: 'routing/assignments', value: {} }]);
    await state.write('DISPATCHER', [{ key: 'routing/task-graph', value: 'g2' }]);
    await state.write('DISPATCHER', [{ key: 'routing/task-graph', delete: true }]);
    const history = await state.history('routing/task-graph');
    expect(history.map((e) => [e.version, e.value, e.deleted])).toEqual([
      [1, 'g1', undefined],
      [3, 'g2', undefined],
      [4, undefined, true],
    ]);
    expect(await state.history('routing/pending')).toEqual([]);
  });

  it('keeps only the last historyLimit versions', async () => {
    const state = open(3);
    for (let i = 1; i <= 6; i++) await state.write('DISPATCHER', [{ key: 'routing/pending', value: i }]);
    expect((await state.history('routing/pending')).map((e) => e.value)).toEqual([4, 5, 6]);
    await expect(state.rollback('DISPATCHER', 'routing/pending', 2)).rejects.toMatchObject({
      code: 'version_not_found',
      message: expect.stringMatching(/no version 2 kept \(kept: 4, 5, 6\); the last 3 versions/),
    });
  });

  it('rolls back by writing the old value as a new version, by the role that asked', async () => {
    const state = open();
    await state.write('ARCHITECT', [{ key: 'task/objective', value: 'v1' }]);
    await state.write('ARCHITECT', [{ key: 'task/objective', value: 'v2' }]);
    const result = await state.rollback('ARCHITECT', 'task/objective', 1);
    expect(result.ok && result.entries[0]).toMatchObject({ key: 'task/objective', value: 'v1', version: 3 });
    expect((await state.get('task/objective'))?.value).toBe('v1');
    expect((await state.history('task/objective')).map((e) => e.value)).toEqual(['v1', 'v2', 'v1']);
  });

  it('rolls back to a deletion by deleting, and from a deletion by writing the value again', async () => {
    const state = open();
    await state.write('ARCHITECT', [{ key: 'task/a', value: 'x' }]);
    await state.write('ARCHITECT', [{ key: 'task/a', delete: true }]);
    await state.rollback('ARCHITECT', 'task/a', 1);
    expect((await state.get('task/a'))?.value).toBe('x');
    await state.rollback('ARCHITECT', 'task/a', 2);
    expect(await state.get('task/a')).toBeUndefined();
  });

  it('refuses a version the key never had', async () => {
    await expect(open().rollback('ARCHITECT', 'task/none', 1)).rejects.toMatchObject({
      code: 'version_not_found',
      message: expect.stringMatching(/kept: none/),
    });
  });
});

describe('shared state: watch', () => {
  it('tells each durable change under the prefix once, in version order, and stops on unsubscribe', async () => {
    const state = open();
    const heard: StateEntry[] = [];
    const stop = state.watch('execution/outputs/', (change) => heard.push(change));
    await Promise.all([
      state.write('FLEET', [
        { key: 'execution/outputs/m1', value: 1 },
        { key: 'execution/logs/m1', value: 'log' },
      ]),
      state.write('FLEET', [{ key: 'execution/outputs/m2', value: 2 }]),
      state.write('FLEET', [{ key: 'execution/outputs/m1', delete: true }]),
    ]);
    expect(heard.map((e) => [e.key, e.version, e.deleted ?? false])).toEqual([
      ['execution/outputs/m1', 1, false],
      ['execution/outputs/m2', 2, false],
      ['execution/outputs/m1', 3, true],
    ]);
    stop();
    await state.write('FLEET', [{ key: 'execution/outputs/m3', value: 3 }]);
    expect(heard).toHaveLength(3);
  });

  it('hears writes made through another view of the same journal, and nothing refused', async () => {
    const journal = createMemoryJournal();
    const a = openSharedState({ journal, schema: beadsSchema, scopes: { task: 'A', user: 'ada' } });
    const b = openSharedState({ journal, schema: beadsSchema, scopes: { task: 'B', user: 'ada' } });
    const heard: string[] = [];
    a.watch('', (change) => heard.push(`${change.key}@${change.version}`));
    await b.write('MONITOR', [{ key: 'history/context-vector', value: [0.1] }]);
    await b.write('ARCHITECT', [{ key: 'task/objective', value: 'only B' }]); // another task: not A's
    await b.write('MONITOR', [{ key: 'history/context-vector', value: [0.2], expectedVersion: 0 }]); // conflict
    await a.write('ARCHITECT', [{ key: 'task/objective', value: 'A' }]);
    expect(heard).toEqual(['history/context-vector@1', 'task/objective@1']);
  });

  it('keeps telling the other listeners when one throws, and reports it', async () => {
    const warnings: string[] = [];
    const state = openSharedState({
      journal: createMemoryJournal(),
      schema: beadsSchema,
      scopes: { task: 't1' },
      warn: (message) => warnings.push(message),
    });
    const heard: number[] = [];
    state.watch('task/', () => {
      throw new Error('boom');
    });
    state.watch('task/', (change) => heard.push(change.version));
    const result = await state.write('ARCHITECT', [{ key: 'task/a', value: 1 }]);
    expect(result.ok).toBe(true);
    expect(heard).toEqual([1]);
    expect(warnings).toEqual([expect.stringMatching(/listener on "task\/" threw on task\/a v1: Error: boom/)]);
  });

  it('drops a view’s listeners when it closes', async () => {
    const journal = createMemoryJournal();
    const a = openSharedState({ journal, schema: beadsSchema, scopes: { task: 't' } });
    const b = openSharedState({ journal, schema: beadsSchema, scopes: { task: 't' } });
    const heard: number[] = [];
    a.watch('task/', (change) => heard.push(change.version));
    await b.write('ARCHITECT', [{ key: 'task/a', value: 1 }]);
    await a.close();
    await b.write('ARCHITECT', [{ key: 'task/a', value: 2 }]);
    expect(heard).toEqual([1]);
  });
});
