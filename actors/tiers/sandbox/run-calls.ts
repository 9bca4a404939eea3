import type { SandboxVerdict } from './sandbox-child-line.ts';
import { type SandboxLimits, resolveLimits } from './sandbox-limits.ts';
import { runSandboxProcess } from './sandbox-process.ts';
import { verdictOf } from './sandbox-verdict.ts';

export type { SandboxVerdict } from './sandbox-child-line.ts';
export type { SandboxLimits } from './sandbox-limits.ts';

/** One call's outcome: the value it returned (after a JSON round trip), or what it threw. */
export interface CallResult {
  ok: boolean;
  /** The returned value as JSON reads it back (NaN and Infinity become null, -0 becomes 0); absent for `undefined`. */
  value?: unknown;
  error?: string;
  /** Time inside the call, in ms (the mean over `repeat`); argument parsing and result encoding not included. */
  durationMs: number;
}

/**
 * A run's outcome. `results` holds the calls that finished, in order: all of them when `verdict`
 * is `ok`, the ones before the stop otherwise (a call that throws is `ok: false`, not a verdict).
 */
export interface CallsReport {
  verdict: SandboxVerdict;
  detail?: string;
  results: CallResult[];
  /** The whole run, the child process's start included. */
  durationMs: number;
}

export interface RunCallsInput {
  /** JavaScript source (a script, not a module) that defines the function. */
  code: string;
  functionName: string;
  /** One argument list per call; each must survive JSON (the child gets a JSON copy). */
  calls: unknown[][];
  /** Runs each call this many times (fresh arguments each time) and reports the mean duration; default 1. */
  repeat?: number;
  limits?: Partial<SandboxLimits>;
  /** Aborting kills the child; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Largest solution source the sandbox takes. */
export const MAX_CODE_BYTES = 1024 * 1024;

function encodeCalls(calls: unknown[][]): string[] {
  if (!Array.isArray(calls)) throw new TypeError('runCalls: calls must be an array of argument lists.');
  return calls.map((args, index) => {
    if (!Array.isArray(args)) throw new TypeError(`runCalls: calls[${index}] must be an array of arguments.`);
    try {
      return JSON.stringify(args);
    } catch (error) {
      throw new TypeError(
        `runCalls: calls[${index}] cannot be sent to the sandbox as JSON (${(error as Error).message}).`,
        { cause: error },
      );
    }
  });
}

/**
 * Runs `functionName` of `code` once per argument list, in a fresh child process under the
 * sandbox's limits (defaults 2000 ms, 64 MB). A hostile solution ends with a verdict (`forbidden`,
 * `timeout`, `memory`, `crashed`) and a `detail`; it never acts and never harms this process.
 * Throws only for a caller's mistake (bad limits, arguments that are not JSON) or an abort.
 *
 * @example
 * const report = await runCalls({ code: 'function add(a, b) { return a + b; }', functionName: 'add', calls: [[1, 2]] });
 * // { verdict: 'ok', results: [{ ok: true, value: 3, durationMs: 0.02 }], durationMs: 61 }
 */
export async function runCalls(input: RunCallsInput): Promise<CallsReport> {
  const limits = resolveLimits(input.limits);
  const repeat = input.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > 10_000) {
    throw new RangeError(`runCalls: repeat must be a whole number from 1 to 10000; got ${String(repeat)}.`);
  }
  const calls = encodeCalls(input.calls);
  if (typeof input.code !== 'string') throw new TypeError('runCalls: code must be a string of JavaScript.');
  if (!IDENTIFIER.test(input.functionName)) {
    const detail = `${JSON.stringify(input.functionName)} is not a JavaScript identifier, so no function can have that name`;
    return { verdict: 'compile_error', detail, results: [], durationMs: 0 };
  }
  const size = Buffer.byteLength(input.code);
  if (size > MAX_CODE_BYTES) {
    const detail = `the code is ${size} bytes; the sandbox takes at most ${MAX_CODE_BYTES} (1 MiB)`;
    return { verdict: 'compile_error', detail, results: [], durationMs: 0 };
  }
  const run = await runSandboxProcess({
    code: input.code,
    functionName: input.functionName,
    calls,
    repeat,
    limits,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const results = run.calls.map((call): CallResult => {
    if (!call.ok) return { ok: false, error: call.error ?? 'it failed', durationMs: call.ms };
    if (call.json === undefined) return { ok: true, durationMs: call.ms };
    try {
      return { ok: true, value: JSON.parse(call.json), durationMs: call.ms };
    } catch {
      return { ok: false, error: 'the sandbox reported a result that is not JSON', durationMs: call.ms };
    }
  });
  return { ...verdictOf(run, limits, calls.length), results, durationMs: run.durationMs };
}
