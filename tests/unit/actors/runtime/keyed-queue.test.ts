import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../../../../actors/runtime/keyed-queue.ts';
import { mapLimited } from '../../../../actors/runtime/map-limited.ts';

/** Yields `turns` microtask turns: other queued work runs meanwhile, and no test sleeps. */
const tick = async (turns = 3) => {
  for (let i = 0; i < turns; i++) await Promise.resolve();
};

describe('KeyedQueue', () => {
  it('runs the tasks of a key one at a time in order, whatever their outcome, and keys apart at once', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      queue.run('a', task('a1', true)),
      queue.run('a', task('a2')),
      queue.run('b', task('b1')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('start a2')).toBeGreaterThan(log.indexOf('end a1'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
  });

  it('forgets a key once its queue is empty, and settles after the tasks queued meanwhile', async () => {
    const queue = new KeyedQueue();
    const done: number[] = [];
    void queue.run('a', async () => {
      await tick();
      done.push(1);
      void queue.run('b', async () => {
        await tick();
        done.push(2);
      });
    });
    expect(queue.size).toBe(1);
    await queue.settled();
    expect(done).toEqual([1, 2]);
    expect(queue.size).toBe(0);
    await queue.idle('never-used');
  });
});

describe('mapLimited', () => {
  it('keeps the order of the items with at most `limit` calls under way', async () => {
    let active = 0;
    let most = 0;
    const results = await mapLimited([5, 1, 4, 2, 3], 2, async (n) => {
      active += 1;
      most = Math.max(most, active);
      await tick(n * 3);
      active -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
    expect(await mapLimited([], 4, async () => 1)).toEqual([]);
  });

  it('starts nothing new after a failure, and rejects with it', async () => {
    const started: number[] = [];
    const mapped = mapLimited([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 2) throw new Error('two');
      return n;
    });
    await expect(mapped).rejects.toThrow('two');
    await tick(50);
    expect(started.length).toBeLessThan(6);
  });
});
