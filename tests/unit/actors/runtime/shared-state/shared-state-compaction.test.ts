import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { Journal } from '../../../../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../../../actors/runtime/shared-state/open-shared-state.ts';
import { latestGeneration } from '../../../../../actors/runtime/shared-state/partition-generation.ts';
import type { StateRecord } from '../../../../../actors/runtime/shared-state/state-record.ts';
import { BEADS_SCHEMA as beadsSchema } from '../../../../../protocol/tiers/beads.ts';

/** A memory journal that counts what is read: whole partitions, and probes of their length. */
function countingJournal() {
  const inner = createMemoryJournal<StateRecord>();
  const reads: string[] = [];
  const probes: string[] = [];
  const journal: Journal<StateRecord> = {
    ...inner,
    read: (partition) => (reads.push(partition), inner.read(partition)),
    lastSeq: (partition) => (probes.push(partition), inner.lastSeq(partition)),
  };
  return { journal, inner, reads, probes };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function open(journal: Journal<StateRecord>, clock = new SimulatedClock(), compactAfter = 4) {
  return openSharedState({
    journal,
    clock,
    schema: beadsSchema,
    scopes: { task: 't1' },
    compactAfter,
    historyLimit: 3,
  });
}

describe('shared state: compaction into generations', () => {
  it('opens a new generation with a snapshot every compactAfter writes, and reopens from the newest only', async () => {
    const { journal, inner, reads, probes } = countingJournal();
    const state = open(journal);
    for (let i = 1; i <= 22; i++) {
      await state.write('ARCHITECT', [{ key: `task/k${i % 3}`, value: i }]);
      await tick(); // let a compaction switch generations
    }
    const expected = await state.list('');
    const history = await state.history('task/k1');
    await state.close();
    const partitions = await inner.partitions();
    expect(partitions).toContain('task/t1');
    expect(partitions).toContain('task#5/t1');
    expect(partitions).not.toContain('task#6/t1');
    const [opener] = await inner.read('task#5/t1');
    expect(opener?.data).toMatchObject({ type: 'snapshot', generation: 5, version: 20 });

    reads.length = 0;
    probes.length = 0;
    const reopened = open(journal);
    expect(await reopened.list('')).toEqual(expected);
    expect(await reopened.history('task/k1')).toEqual(history);
    expect(reads).toEqual(['task#5/t1']);
    // Galloping: 1, 2, 4, 8 then bisection between 4 and 8.
    expect(probes).toEqual(['task#1/t1', 'task#2/t1', 'task#4/t1', 'task#8/t1', 'task#6/t1', 'task#5/t1']);
    const next = await reopened.write('ARCHITECT', [{ key: 'task/k1', value: 'after', expectedVersion: 22 }]);
    expect(next.ok && next.entries[0]!.version).toBe(23);
  });

  it('leaves deleted and expired keys out of a snapshot, and keeps historyLimit versions of the others', async () => {
    const { journal, inner } = countingJournal();
    const clock = new SimulatedClock();
    const state = open(journal, clock, 7);
    await state.write('ARCHITECT', [{ key: 'task/gone', value: 1 }]);
    await state.write('ARCHITECT', [{ key: 'task/gone', delete: true }]);
    await state.write('ARCHITECT', [{ key: 'task/brief', value: 1, ttlMs: 10 }]);
    clock.increment(10);
    for (let i = 1; i <= 4; i++) await state.write('ARCHITECT', [{ key: 'task/kept', value: i }]);
    await tick();
    const [opener] = await inner.read('task#1/t1');
    expect(opener?.data).toMatchObject({ type: 'snapshot', version: 7 });
    const keys = (opener?.data as Extract<StateRecord, { type: 'snapshot' }>).keys;
    expect(keys.map((versions) => versions.map((e) => [e.key, e.value]))).toEqual([
      [
        ['task/kept', 2],
        ['task/kept', 3],
        ['task/kept', 4],
      ],
    ]);
    expect(await state.history('task/gone')).toEqual([]);
    await state.close();
    const reopened = open(journal, clock, 7);
    expect(await reopened.history('task/gone')).toEqual([]);
    expect((await reopened.history('task/kept')).map((e) => e.value)).toEqual([2, 3, 4]);
  });

  it('waits for at least one write per key held before compacting', async () => {
    const { journal, inner } = countingJournal();
    const state = open(journal);
    await state.write(
      'ARCHITECT',
      Array.from({ length: 6 }, (_, i) => ({ key: `task/k${i}`, value: i })),
    );
    for (let i = 0; i < 4; i++) await state.write('ARCHITECT', [{ key: 'task/k0', value: i }]);
    await tick();
    expect(await inner.partitions()).toEqual(['task/t1']); // 5 writes < 6 keys
    await state.write('ARCHITECT', [{ key: 'task/k0', value: 'six' }]);
    await tick();
    expect(await inner.partitions()).toEqual(['task/t1', 'task#1/t1']);
  });

  it('finds the newest generation in a logarithmic number of probes', async () => {
    const inner = createMemoryJournal<StateRecord>();
    for (let g = 1; g <= 37; g++)
      await inner.append(`task#${g}/t`, { type: 'snapshot', version: 0, generation: g, keys: [] });
    let probes = 0;
    const counted = { ...inner, lastSeq: (p: string) => (probes++, inner.lastSeq(p)) };
    expect(await latestGeneration(counted, 'task', 't')).toBe(37);
    expect(probes).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(37)) + 1);
    expect(await latestGeneration(createMemoryJournal(), 'task', 't')).toBe(0);
  });

  it('names the partition and entry of a record it cannot read, and a generation without its snapshot', async () => {
    const inner = createMemoryJournal<unknown>();
    await inner.append('task/t1', { type: 'write', version: 1, writtenBy: 'A', writtenAt: 0, keys: [] });
    const state = openSharedState({ journal: inner, schema: beadsSchema, scopes: { task: 't1' } });
    await expect(state.get('task/a')).rejects.toMatchObject({
      code: 'data_file_corrupt',
      message: expect.stringMatching(
        /journal partition task\/t1 is corrupt \(entry 1 is not a shared-state record: keys/,
      ),
    });
    const other = createMemoryJournal<unknown>();
    await other.append('task#1/t2', {
      type: 'write',
      version: 1,
      writtenBy: 'A',
      writtenAt: 0,
      keys: [{ key: 'task/a', value: 1 }],
    });
    const broken = openSharedState({ journal: other, schema: beadsSchema, scopes: { task: 't2' } });
    await expect(broken.get('task/a')).rejects.toThrow(
      /task#1\/t2 is corrupt \(a later generation must open with its snapshot/,
    );
  });

  it('lets a scope instance leave memory when its last view closes, and not before', async () => {
    const { journal, reads } = countingJournal();
    const a = open(journal);
    const b = open(journal);
    await a.write('ARCHITECT', [{ key: 'task/x', value: 1 }]);
    await b.get('task/x');
    expect(reads).toEqual(['task/t1']);
    await a.close();
    await b.get('task/x');
    expect(reads).toEqual(['task/t1']); // b still holds it
    await b.close();
    const c = open(journal);
    expect((await c.get('task/x'))?.value).toBe(1);
    expect(reads).toEqual(['task/t1', 'task/t1']); // read again from the journal
  });

  it('refuses options that are not whole numbers of at least 1', () => {
    const { journal } = countingJournal();
    const base = { journal, schema: beadsSchema, scopes: { task: 't' } };
    expect(() => openSharedState({ ...base, historyLimit: 0 })).toThrow(
      /historyLimit must be a whole number >= 1, got 0/,
    );
    expect(() => openSharedState({ ...base, compactAfter: 1.5 })).toThrow(/compactAfter must be a whole number >= 1/);
  });

  it('reads a generation whatever the order of its lines, keeping a version seen twice once', async () => {
    const inner = createMemoryJournal<StateRecord>();
    const write = (version: number, value: number): StateRecord => ({
      type: 'write',
      version,
      writtenBy: 'ARCHITECT',
      writtenAt: version,
      keys: [{ key: 'task/a', value }],
    });
    for (const record of [write(3, 30), write(1, 10), write(2, 20), write(2, 20)])
      await inner.append('task/t1', record);
    const state = open(inner);
    expect((await state.history('task/a')).map((e) => [e.version, e.value])).toEqual([
      [1, 10],
      [2, 20],
      [3, 30],
    ]);
    const next = await state.write('ARCHITECT', [{ key: 'task/a', value: 40, expectedVersion: 3 }]);
    expect(next.ok && next.entries[0]!.version).toBe(4);
  });
});
