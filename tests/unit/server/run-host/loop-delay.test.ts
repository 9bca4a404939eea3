import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { monitorLoopDelay, processLoopDelay, type LoopDelayMonitor } from '../../../../server/run-host/loop-delay.ts';

const monitors: LoopDelayMonitor[] = [];
afterEach(() => monitors.splice(0).forEach((monitor) => monitor.stop()));

function monitor(windowMs: number) {
  const made = monitorLoopDelay({ sampleMs: 10, windowMs });
  monitors.push(made);
  return made;
}

/** Waits until the monitor gives a reading of a later window than `after`. */
async function readingAfter(read: LoopDelayMonitor['read'], after: number) {
  while (read().window <= after) await sleep(5);
  return read();
}

/** Holds the main thread for `ms`. */
function block(ms: number) {
  const start = performance.now();
  while (performance.now() - start < ms);
}

describe('monitorLoopDelay (the event loop delay admission adapts to)', () => {
  it('reads a blocked loop as delayed, wherever the block falls in a window, and a free loop as on time again', async () => {
    // Windows of 600 ms, so that a slow machine's own stalls cannot hide the reading.
    const { read } = monitor(600);
    for (const offset of [0, 3, 300]) {
      const before = await readingAfter(read, read().window);
      await sleep(offset); // right after a window closes, and in its middle
      block(300);
      const blocked = await readingAfter(read, before.window);
      // The block shows in the window whose first sample after it closed it (or, across a
      // boundary, the next one).
      const next = await readingAfter(read, blocked.window);
      expect(Math.max(blocked.delayMs, next.delayMs)).toBeGreaterThanOrEqual(280);
    }
    // Left free, some window reads well under the block again: the reading does not stick.
    const free = [];
    for (let i = 0; i < 3; i++) free.push((await readingAfter(read, read().window)).delayMs);
    expect(Math.min(...free)).toBeLessThan(150);
  }, 30_000);

  it('shares one monitor among every caller of the process', () => {
    expect(processLoopDelay()).toBe(processLoopDelay());
    expect(processLoopDelay()()).toMatchObject({ window: expect.any(Number), delayMs: expect.any(Number) });
  });
});
