import { describe, expect, it, vi } from 'vitest';
import { CoalescedWrites } from '../../../../server/run-host/coalesced-writes.ts';

interface Doc {
  a?: number;
  b?: string;
}

/** A store whose writes finish only when released, one by one, and that records what each wrote. */
function gatedStore() {
  const writes: { key: string; changes: Partial<Doc> }[] = [];
  const pending: (() => void)[] = [];
  let active = 0;
  let overlapped = false;
  const write = (key: string, changes: Partial<Doc>) => {
    writes.push({ key, changes: { ...changes } });
    active += 1;
    if (active > 1) overlapped = true;
    return new Promise<void>((resolve) => pending.push(() => ((active -= 1), resolve())));
  };
  const release = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { writes, write, release, overlapped: () => overlapped };
}

describe('CoalescedWrites', () => {
  it('merges the changes that arrive during a write into one next write, the latest value of each field winning', async () => {
    const store = gatedStore();
    const writes = new CoalescedWrites<Doc>(store.write);
    const first = writes.update('k', { a: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    const second = writes.update('k', { a: 2, b: 'x' });
    const third = writes.update('k', { a: 3 });
    expect(second).toBe(third);
    await store.release();
    await first;
    await store.release();
    await third;
    expect(store.writes).toEqual([
      { key: 'k', changes: { a: 1 } },
      { key: 'k', changes: { a: 3, b: 'x' } },
    ]);
    expect(store.overlapped()).toBe(false);
  });

  it('keeps keys apart: writes of different keys run side by side', async () => {
    const store = gatedStore();
    const writes = new CoalescedWrites<Doc>(store.write);
    void writes.update('k1', { a: 1 });
    void writes.update('k2', { a: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.writes.map((w) => w.key)).toEqual(['k1', 'k2']);
    await store.release();
    await store.release();
    await writes.settled();
  });

  it('reports a failed write, and the next one still runs', async () => {
    const onError = vi.fn();
    let fail = true;
    const written: Partial<Doc>[] = [];
    const writes = new CoalescedWrites<Doc>(async (_key, changes) => {
      if (fail) {
        fail = false;
        throw new Error('EIO');
      }
      written.push(changes);
    }, onError);
    await expect(writes.update('k', { a: 1 })).rejects.toThrow('EIO');
    await writes.update('k', { a: 2 });
    expect(onError).toHaveBeenCalledWith('k', expect.objectContaining({ message: 'EIO' }));
    expect(written).toEqual([{ a: 2 }]);
  });
});

describe('CoalescedWrites.flushed', () => {
  it('waits for the writes of one key issued so far, merged ones included, and not for other keys', async () => {
    const done: string[] = [];
    let releaseOther: () => void = () => undefined;
    const writes = new CoalescedWrites<Doc>(async (key, changes) => {
      if (key === 'other') await new Promise<void>((resolve) => (releaseOther = resolve));
      else await new Promise((resolve) => setTimeout(resolve, 5));
      done.push(`${key}:${changes.a}`);
    });
    void writes.update('other', { a: 0 });
    void writes.update('k', { a: 1 });
    void writes.update('k', { a: 2 });
    await writes.flushed('k');
    // The second change came before the first write started: one write carries both.
    expect(done).toEqual(['k:2']);
    releaseOther();
    await writes.flushed('other');
    expect(done).toEqual(['k:2', 'other:0']);
    await writes.flushed('never-written');
  });
});
