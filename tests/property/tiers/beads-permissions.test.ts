import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../actors/runtime/shared-state/open-shared-state.ts';
import { BEADS_ROLES, BEADS_SCHEMA, BEADS_TABLE, DEDUP_ROLE } from '../../../protocol/tiers/beads.ts';

const namespaces = Object.keys(BEADS_TABLE) as (keyof typeof BEADS_TABLE)[];

describe('Beads permissions with the real schema', () => {
  it('lets a role write a namespace exactly when the spec’s table says RW, and a refusal names role and namespace', async () => {
    const state = openSharedState({
      journal: createMemoryJournal(),
      schema: BEADS_SCHEMA,
      scopes: { task: 't1', user: 'ada' },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...BEADS_ROLES, DEDUP_ROLE),
        fc.constantFrom(...namespaces),
        fc.stringMatching(/^[a-z0-9-]{1,12}(\/[a-z0-9-]{1,8})?$/),
        async (role, namespace, name) => {
          const index = BEADS_ROLES.indexOf(role as (typeof BEADS_ROLES)[number]);
          const allowed = index >= 0 && BEADS_TABLE[namespace][index] === 'RW';
          const key = `${namespace}/${name}`;
          const write = state.write(role, [{ key, value: { by: role } }]);
          if (allowed) {
            expect((await write).ok).toBe(true);
            expect((await state.get(key))?.writtenBy).toBe(role);
          } else {
            const error = await write.then(
              () => undefined,
              (e: unknown) => e as Error,
            );
            expect(error?.message).toContain(role);
            expect(error?.message).toContain(namespace);
          }
          // Every role reads every namespace.
          await state.get(key);
        },
      ),
      { numRuns: 300 },
    );
    await state.close();
  });
});
