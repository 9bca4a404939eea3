/** One reading of the event loop's delay: how long work that was due waited for the main thread. */
export interface LoopDelayReading {
  /** Which window it covers; a new number is a new reading. */
  window: number;
  /** The longest delay in that window, in ms (0 when every sample ran on time). */
  delayMs: number;
}

/** Gives the last finished window's reading. */
export type LoopDelaySource = () => LoopDelayReading;

/** A monitor of the loop: its readings, and how to stop it. */
export interface LoopDelayMonitor {
  read: LoopDelaySource;
  stop(): void;
}

/**
 * Samples the event loop every `sampleMs` with a timer that does not keep the process alive: a
 * sample that comes late was delayed by that much. Each window of `windowMs` gives one reading,
 * its longest delay; a block counts in the window its first sample after it falls in, however
 * the block and the windows line up. (perf_hooks' `monitorEventLoopDelay` was the first choice,
 * but its `reset()` drops the time of the last sample, so a block that starts right after a
 * window closes went unseen.)
 */
export function monitorLoopDelay(options: { sampleMs: number; windowMs: number }): LoopDelayMonitor {
  const { sampleMs, windowMs } = options;
  let reading: LoopDelayReading = { window: 0, delayMs: 0 };
  let last = performance.now();
  let windowEnds = last + windowMs;
  let longest = 0; // never negative: it starts at 0 and only grows within a window
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - sampleMs);
    last = now;
    if (now < windowEnds) return;
    reading = { window: reading.window + 1, delayMs: longest };
    longest = 0;
    windowEnds = now + windowMs;
  }, sampleMs).unref();
  return { read: () => reading, stop: () => clearInterval(timer) };
}

let shared: LoopDelaySource | undefined;

/**
 * The process's event-loop delay in windows of 200 ms, sampled every 10 ms. One monitor serves
 * every run host of the process (they share the loop); it starts on first use.
 */
export function processLoopDelay(): LoopDelaySource {
  shared ??= monitorLoopDelay({ sampleMs: 10, windowMs: 200 }).read;
  return shared;
}
