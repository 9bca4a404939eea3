import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { processLoopDelay } from '../../../../server/run-host/loop-delay.ts';

/** Waits until the source gives a reading of a later window than `after`. */
async function nextReading(read: ReturnType<typeof processLoopDelay>, after: number) {
  while (read().window <= after) await sleep(20);
  return read();
}

describe('processLoopDelay (the event loop delay admission adapts to)', () => {
  it('reads a blocked loop as delayed, in the window that saw the block, and one shared monitor serves every caller', async () => {
    const read = processLoopDelay();
    expect(processLoopDelay()).toBe(read);
    let reading = await nextReading(read, read().window);
    const start = performance.now();
    while (performance.now() - start < 120); // the main thread held for 120 ms
    const blockedAfter = reading.window;
    // The block shows in the window it fell in, or in the next one when it straddles both.
    const first = await nextReading(read, blockedAfter);
    const second = await nextReading(read, first.window);
    expect(Math.max(first.delayMs, second.delayMs)).toBeGreaterThanOrEqual(90);
    // A loop left free reads as on time again.
    await sleep(450);
    reading = await nextReading(read, read().window);
    expect(reading.delayMs).toBeLessThan(90);
  });
});
