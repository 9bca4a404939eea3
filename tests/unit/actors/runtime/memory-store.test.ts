import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../../actors/runtime/memory-store.ts';

interface Doc {
  name: string;
  at?: unknown;
  count: number;
}

describe('createMemoryStore', () => {
  it('round-trips put, get, update, list and delete', async () => {
    const store = createMemoryStore();
    const docs = store.collection<Doc>('sessions/u1');
    await docs.put('a', { name: 'a', count: 1 });
    await docs.put('b', { name: 'b', count: 2 });
    expect(await docs.update('a', (doc) => ({ name: 'a', count: (doc?.count ?? 0) + 1 }))).toEqual({
      name: 'a',
      count: 2,
    });
    expect(await docs.delete('b')).toBe(true);
    expect(await docs.delete('b')).toBe(false);
    expect(await docs.list()).toEqual([{ name: 'a', count: 2 }]);
    expect(await store.collection<Doc>('sessions/u1').get('a')).toEqual({ name: 'a', count: 2 });
    expect(await store.collection<Doc>('sessions/u2').list()).toEqual([]);
  });

  it('keeps JSON copies, as the lowdb store would', async () => {
    const store = createMemoryStore();
    const docs = store.collection<Doc>('docs');
    const doc: Doc = { name: 'a', at: new Date(0), count: 1 };
    await docs.put('a', doc);
    doc.count = 99;
    const read = await docs.get('a');
    expect(read).toEqual({ name: 'a', at: '1970-01-01T00:00:00.000Z', count: 1 });
    if (read) read.count = 42;
    expect((await docs.get('a'))?.count).toBe(1);
  });

  it('makes concurrent updates atomic and refuses what lowdb refuses', async () => {
    const store = createMemoryStore();
    const counters = store.collection<Doc>('counters');
    const bump = (doc: Doc | undefined): Doc => ({ name: 'c', count: (doc?.count ?? 0) + 1 });
    await Promise.all(Array.from({ length: 50 }, () => counters.update('c', bump)));
    expect((await counters.get('c'))?.count).toBe(50);
    await expect(counters.put('x', undefined as unknown as Doc)).rejects.toMatchObject({
      code: 'validation_failed',
    });
    expect(() => store.collection('a//b')).toThrow(/empty/);
    await store.close();
    await expect(counters.put('y', { name: 'y', count: 0 })).rejects.toMatchObject({
      code: 'store_closed',
    });
  });

  it('hands its documents to another (dump, then reopen), as copies', async () => {
    const store = createMemoryStore();
    await store.collection<{ n: number }>('tiers/tasks').put('t-1', { n: 1 });
    await store.collection<{ n: number }>('tiers/users/ada').put('t-1', { n: 2 });
    await store.collection<{ n: number }>('empty/now').put('x', { n: 3 });
    await store.collection('empty/now').delete('x');
    const dump = store.dump();
    expect(dump).toEqual({ 'tiers/tasks': { 't-1': { n: 1 } }, 'tiers/users/ada': { 't-1': { n: 2 } } });
    const again = createMemoryStore(dump);
    expect(await again.collection('tiers/users/ada').get('t-1')).toEqual({ n: 2 });
    await again.collection<{ n: number }>('tiers/tasks').update('t-1', (doc) => ({ n: doc!.n + 10 }));
    // Neither the dump nor the first store changed.
    expect(dump['tiers/tasks']).toEqual({ 't-1': { n: 1 } });
    expect(await store.collection('tiers/tasks').get('t-1')).toEqual({ n: 1 });
    expect(again.dump()['tiers/tasks']).toEqual({ 't-1': { n: 11 } });
  });
});
