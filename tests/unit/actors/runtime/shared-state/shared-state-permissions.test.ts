import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../../../actors/runtime/shared-state/open-shared-state.ts';
import { SharedStateError } from '../../../../../actors/runtime/shared-state/shared-state-error.ts';
import { BEADS_ROLES, BEADS_TABLE, BEADS_SCHEMA as beadsSchema } from '../../../../../protocol/tiers/beads.ts';

const open = () =>
  openSharedState({ journal: createMemoryJournal(), schema: beadsSchema, scopes: { task: 't1', user: 'ada' } });

const cells = Object.entries(BEADS_TABLE).flatMap(([namespace, row]) =>
  BEADS_ROLES.map((role, i) => ({ namespace, role, access: row[i]! })),
);

describe('shared state: spec 002 Beads write permissions', () => {
  it('has 20 cells, 5 of them RW (one writer per namespace)', () => {
    expect(cells).toHaveLength(20);
    expect(cells.filter((cell) => cell.access === 'RW')).toHaveLength(5);
  });

  it.each(cells.filter((cell) => cell.access === 'RW'))(
    'lets $role write $namespace/*',
    async ({ namespace, role }) => {
      const state = open();
      const key = `${namespace}/probe`;
      const result = await state.write(role, [{ key, value: { by: role } }]);
      expect(result.ok).toBe(true);
      expect(await state.get(key)).toMatchObject({ key, value: { by: role }, writtenBy: role });
    },
  );

  it.each(cells.filter((cell) => cell.access === 'R'))(
    'refuses $role writing $namespace/*, naming both, and writes nothing',
    async ({ namespace, role }) => {
      const state = open();
      const key = `${namespace}/probe`;
      const refusal = state.write(role, [{ key, value: 1 }]);
      await expect(refusal).rejects.toBeInstanceOf(SharedStateError);
      await expect(refusal).rejects.toMatchObject({
        code: 'write_forbidden',
        status: 403,
        message: expect.stringMatching(new RegExp(`Role "${role}" may not write in namespace "${namespace}"`)),
      });
      await expect(state.rollback(role, key, 1)).rejects.toMatchObject({ code: 'write_forbidden' });
      expect(await state.get(key)).toBeUndefined();
    },
  );

  it('names the writers of a namespace in the refusal', async () => {
    await expect(open().write('FLEET', [{ key: 'task/x', value: 1 }])).rejects.toThrow(/only ARCHITECT may/);
  });

  it('refuses a role the table does not name, and a whole write when one key is forbidden', async () => {
    const state = open();
    await expect(state.write('INTERN', [{ key: 'task/x', value: 1 }])).rejects.toThrow(
      /Role "INTERN" may not write in namespace "task" \(its access there is none\)/,
    );
    await expect(
      state.write('ARCHITECT', [
        { key: 'task/a', value: 1 },
        { key: 'routing/b', value: 2 },
      ]),
    ).rejects.toMatchObject({ code: 'write_forbidden' });
    expect(await state.list('')).toEqual([]);
  });

  it('refuses an unknown namespace, naming it and the known ones', async () => {
    const state = open();
    await expect(state.write('MONITOR', [{ key: 'beads/x', value: 1 }])).rejects.toMatchObject({
      code: 'unknown_namespace',
      message: expect.stringMatching(/Namespace "beads" is not in the shared-state schema \(namespaces: task, routing/),
    });
    await expect(state.get('nope/x')).rejects.toMatchObject({ code: 'unknown_namespace' });
  });

  it('refuses keys that are not <namespace>/<name>', async () => {
    const state = open();
    for (const key of ['task', 'task/', '/x', '']) {
      await expect(state.get(key)).rejects.toMatchObject({ code: 'invalid_key' });
    }
  });

  it('refuses a schema that is not data of the right shape, naming the fields', () => {
    const journal = createMemoryJournal();
    const refusal = (schema: unknown) => {
      try {
        openSharedState({ journal, schema: schema as never, scopes: {} });
      } catch (error) {
        return error as { code: string; issues: { path: string }[] };
      }
      throw new Error('the schema was accepted');
    };
    expect(refusal({ namespaces: { 'task/x': { scope: 'task', access: {} } } })).toMatchObject({
      code: 'invalid_state_schema',
      issues: [{ path: 'namespaces.task/x' }],
    });
    expect(refusal({ namespaces: { task: { scope: 'Task', access: { A: 'W' } } } }).issues.map((i) => i.path)).toEqual([
      'namespaces.task.scope',
      'namespaces.task.access.A',
    ]);
  });
});
