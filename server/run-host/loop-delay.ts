import { monitorEventLoopDelay } from 'node:perf_hooks';

/** One reading of the event loop's delay: how long work that was due waited for the main thread. */
export interface LoopDelayReading {
  /** Which window it covers; a new number is a new reading. */
  window: number;
  /** The longest delay in that window, in ms (0 when every timer ran on time). */
  delayMs: number;
}

/** Gives the last finished window's reading. */
export type LoopDelaySource = () => LoopDelayReading;

/** How often the histogram samples the loop, and how long a reading's window is. */
const SAMPLE_MS = 10;
const WINDOW_MS = 200;

let shared: LoopDelaySource | undefined;

/**
 * The process's event-loop delay in windows of 200 ms, from perf_hooks' histogram sampled every
 * 10 ms. One monitor serves every run host of the process (they share the loop); it starts on
 * first use, and its timer does not keep the process alive.
 */
export function processLoopDelay(): LoopDelaySource {
  if (shared) return shared;
  const histogram = monitorEventLoopDelay({ resolution: SAMPLE_MS });
  histogram.enable();
  let reading: LoopDelayReading = { window: 0, delayMs: 0 };
  let due = performance.now() + WINDOW_MS;
  setInterval(() => {
    const now = performance.now();
    // The histogram records each sample's whole interval: the delay is what goes past it. This
    // timer's own lateness counts too, for a block the histogram has not sampled yet.
    const sampled = histogram.count === 0 ? 0 : histogram.max / 1e6 - SAMPLE_MS;
    reading = { window: reading.window + 1, delayMs: Math.max(0, sampled, now - due) };
    due = now + WINDOW_MS;
    histogram.reset();
  }, WINDOW_MS).unref();
  shared = () => reading;
  return shared;
}
