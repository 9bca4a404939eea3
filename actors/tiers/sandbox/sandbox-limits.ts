/** How long and how large a sandbox run may grow. */
export interface SandboxLimits {
  /** Wall-clock time the solution may run, over loading and every call together (not the process's start). */
  timeoutMs: number;
  /** The solution's memory: the V8 heap's old space, and the budget of the process on top of Node's own. */
  memoryMb: number;
}

/** Limits a run gets for what its caller leaves out. */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({ timeoutMs: 2_000, memoryMb: 64 });

/** What Node itself takes before any solution runs (about 80 MB of data segment here), with room. */
export const RUNTIME_OVERHEAD_MB = 128;

const BOUNDS = { timeoutMs: [1, 600_000], memoryMb: [16, 8_192] } as const;

/**
 * The caller's limits over the defaults, each checked to be a whole number in its range.
 *
 * @example
 * resolveLimits({ timeoutMs: 500 }); // { timeoutMs: 500, memoryMb: 64 }
 */
export function resolveLimits(limits: Partial<SandboxLimits> = {}): SandboxLimits {
  const resolved = { ...DEFAULT_SANDBOX_LIMITS, ...limits };
  for (const key of ['timeoutMs', 'memoryMb'] as const) {
    const [min, max] = BOUNDS[key];
    const value = resolved[key];
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new RangeError(`Sandbox limit ${key} must be a whole number from ${min} to ${max}; got ${String(value)}.`);
    }
  }
  return { timeoutMs: resolved.timeoutMs, memoryMb: resolved.memoryMb };
}

/**
 * The most memory the whole child process may hold (data segment by `prlimit`, resident set by
 * polling): Node's own overhead, the heap's `memoryMb`, and as much again outside the heap
 * (ArrayBuffers).
 */
export function processMemoryBytes(limits: SandboxLimits): number {
  return (RUNTIME_OVERHEAD_MB + 2 * limits.memoryMb) * 1024 * 1024;
}
