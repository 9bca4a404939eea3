import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLowdbStore } from '../../../actors/runtime/lowdb-store.ts';
import type { Store } from '../../../actors/runtime/store.ts';

/** Ids that stress the file names: prototype keys, dots, slashes, case, escapes, non-ASCII. */
const IDS = ['a', 'A', '__proto__', 'constructor', '..', '.', 'x/y', 'é', '%41', 'a.json'] as const;
/** A collection and one under its name, which must never see each other's documents. */
const COLLECTIONS = ['c', 'c/d'] as const;

type Write =
  | { kind: 'put'; collection: string; id: string; doc: unknown }
  | { kind: 'update'; collection: string; id: string; by: number }
  | { kind: 'delete'; collection: string; id: string };
type Op =
  | Write
  | { kind: 'get'; collection: string; id: string }
  | { kind: 'list'; collection: string }
  | { kind: 'reopen' }
  /** Writes issued together and awaited together: they must apply in the order issued. */
  | { kind: 'burst'; writes: Write[] };

const collection = fc.constantFrom(...COLLECTIONS);
const id = fc.constantFrom(...IDS);
const doc = fc.jsonValue({ maxDepth: 2 });
const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), collection, id, doc }),
  fc.record({ kind: fc.constant('update' as const), collection, id, by: fc.integer({ min: -5, max: 5 }) }),
  fc.record({ kind: fc.constant('delete' as const), collection, id }),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: write, weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('get' as const), collection, id }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('list' as const), collection }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'reopen' as const }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('burst' as const),
      writes: fc.array(write, { minLength: 2, maxLength: 6 }),
    }),
    weight: 1,
  },
);
/** What the store held before one file per document: a collection file it must move on first use. */
const legacy = fc.option(fc.dictionary(id, doc, { maxKeys: 4 }), { nil: undefined });

/** What `update` writes: a counter, whatever the document was. */
function bump(current: unknown, by: number): { count: number } {
  const count = typeof current === 'object' && current !== null && 'count' in current ? Number(current.count) : 0;
  return { count: count + by };
}

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** The model: a Map per collection; returns what the store should answer. */
function applyToModel(model: Map<string, Map<string, unknown>>, write: Write): unknown {
  const docs = model.get(write.collection) ?? new Map<string, unknown>();
  model.set(write.collection, docs);
  if (write.kind === 'put') return void docs.set(write.id, asJson(write.doc));
  if (write.kind === 'update') {
    const next = bump(docs.get(write.id), write.by);
    docs.set(write.id, next);
    return next;
  }
  return docs.delete(write.id);
}

function applyToStore(store: Store, write: Write): Promise<unknown> {
  const docs = store.collection<unknown>(write.collection);
  if (write.kind === 'put') return docs.put(write.id, write.doc);
  if (write.kind === 'update') return docs.update(write.id, (current) => bump(current, write.by));
  return docs.delete(write.id);
}

const listed = (docs: Map<string, unknown> | undefined) =>
  [...(docs ?? new Map<string, unknown>()).entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, value]) => value);

// tmpfs when there is one: the same code paths, with fsync nearly free, so runs stay many and fast.
let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'lowdb-property-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('lowdb store properties', () => {
  it('answers every sequence of writes, reads and reopenings as a Map per collection does', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(legacy, fc.array(op, { maxLength: 40 }), async (old, ops) => {
        const dir = join(base, `run-${run++}`);
        await mkdir(dir);
        const model = new Map<string, Map<string, unknown>>();
        if (old) {
          await writeFile(join(dir, 'c.json'), JSON.stringify({ docs: Object.fromEntries(Object.entries(old)) }));
          model.set('c', new Map(Object.entries(asJson(old) as object)));
        }
        let store = await openLowdbStore(dir);
        try {
          for (const step of ops) {
            if (step.kind === 'reopen') {
              await store.close();
              store = await openLowdbStore(dir);
            } else if (step.kind === 'get') {
              expect(await store.collection(step.collection).get(step.id)).toEqual(
                model.get(step.collection)?.get(step.id),
              );
            } else if (step.kind === 'list') {
              expect(await store.collection(step.collection).list()).toEqual(listed(model.get(step.collection)));
            } else if (step.kind === 'burst') {
              const answers = await Promise.all(step.writes.map((one) => applyToStore(store, one)));
              expect(answers).toEqual(step.writes.map((one) => applyToModel(model, one)));
            } else {
              expect(await applyToStore(store, step)).toEqual(applyToModel(model, step));
            }
          }
          await store.close();
          store = await openLowdbStore(dir);
          for (const name of COLLECTIONS) {
            expect(await store.collection(name).list()).toEqual(listed(model.get(name)));
          }
        } finally {
          await store.close();
          await rm(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 500 },
    );
  });
});
