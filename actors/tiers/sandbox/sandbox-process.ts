import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type ChildCallLine, type ChildEndLine, ChildLineSchema } from './sandbox-child-line.ts';
import { harnessScript, sandboxCommand } from './sandbox-command.ts';
import { type SandboxLimits, processMemoryBytes } from './sandbox-limits.ts';
import { sandboxSlots } from './sandbox-slots.ts';

/** One run of a solution in a fresh child process. */
export interface SandboxProcessRequest {
  code: string;
  functionName: string;
  /** Each call's argument list as JSON text. */
  calls: string[];
  repeat: number;
  limits: SandboxLimits;
  signal?: AbortSignal;
  /** Tests only: false leaves `prlimit` out, so the parent's polling of the resident set bounds memory. */
  rlimit?: boolean;
  /** Tests only: the child's own deadline, set past the parent's to see the parent kill it. */
  childTimeoutMs?: number;
  /** Tests only: a lower bound on the bytes of output than MAX_OUTPUT_BYTES. */
  maxOutputBytes?: number;
}

/** Why the parent killed the child before it reported an end. */
export type ParentStop = 'start' | 'timeout' | 'memory' | 'output' | 'protocol';

/** What a child did: its calls and end as it reported them, and how the process ended. */
export interface SandboxProcessRun {
  /** True once the solution loaded and its function was found. */
  loaded: boolean;
  calls: ChildCallLine[];
  end?: ChildEndLine;
  stopped?: { reason: ParentStop; detail: string };
  exit: { code: number | null; signal: NodeJS.Signals | null };
  /** The start of what the child wrote on stderr (Node's own fatal errors land there). */
  stderr: string;
  rlimited: boolean;
  durationMs: number;
}

/** A child that has not said `ready` by then is killed (a loaded machine starts Node slowly). */
export const START_LIMIT_MS = 15_000;
/** The parent kills at `timeoutMs` plus this, after the child's own deadline had its chance. */
export const KILL_GRACE_MS = 1_000;
/** Most bytes of results a child may write; past it, it is killed. */
export const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
const STDERR_KEPT = 16 * 1024;
const POLL_MS = 20;

/** The resident set of `pid` in bytes, from /proc; undefined where there is none (exited, not Linux). */
function residentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs one solution in a fresh child (sandbox-command.ts says how it is started), waiting for a
 * slot first. The parent holds the hard limits: SIGKILL when the child does not start, runs past
 * `timeoutMs` + grace after `ready`, grows its resident set past the memory bound (polled every
 * 20 ms), or writes more than 32 MiB; every line it reads is parsed by `ChildLineSchema`. Rejects
 * only when `signal` aborts (the child is killed first).
 */
export async function runSandboxProcess(request: SandboxProcessRequest): Promise<SandboxProcessRun> {
  const release = await sandboxSlots.acquire(request.signal);
  try {
    return await runChild(request);
  } finally {
    release();
  }
}

function runChild(request: SandboxProcessRequest): Promise<SandboxProcessRun> {
  const { limits, signal } = request;
  signal?.throwIfAborted();
  const command = sandboxCommand(limits, { rlimit: request.rlimit ?? true });
  const memoryBound = processMemoryBytes(limits);
  const outputBound = request.maxOutputBytes ?? MAX_OUTPUT_BYTES;
  const startedAt = performance.now();
  const calls: ChildCallLine[] = [];
  let loaded = false;
  let end: ChildEndLine | undefined;
  let stopped: SandboxProcessRun['stopped'];
  let stderr = '';
  let outputBytes = 0;
  let pending = '';
  let runTimer: NodeJS.Timeout | undefined;

  const child = spawn(command.file, command.args, { env: {}, cwd: '/', stdio: ['pipe', 'pipe', 'pipe'] });
  const stop = (reason: ParentStop, detail: string): void => {
    if (end === undefined && stopped === undefined) stopped = { reason, detail };
    child.kill('SIGKILL');
  };
  const startTimer = setTimeout(
    () => stop('start', `the sandbox process did not start within ${START_LIMIT_MS / 1000} s`),
    START_LIMIT_MS,
  );
  const poll = setInterval(() => {
    const rss = child.pid === undefined ? undefined : residentBytes(child.pid);
    if (rss !== undefined && rss > memoryBound) {
      stop(
        'memory',
        `its resident memory reached ${Math.round(rss / 2 ** 20)} MB, over the ${memoryBound / 2 ** 20} MB bound`,
      );
    }
  }, POLL_MS);
  const onAbort = (): void => void child.kill('SIGKILL');
  signal?.addEventListener('abort', onAbort, { once: true });

  const take = (text: string): void => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const line = ChildLineSchema.safeParse(parsed);
    if (!line.success)
      return stop('protocol', `the sandbox process wrote a line that is not its protocol: ${text.slice(0, 200)}`);
    const message = line.data;
    if (message.t === 'ready') {
      clearTimeout(startTimer);
      runTimer = setTimeout(
        () => stop('timeout', `the run passed its ${limits.timeoutMs} ms time limit and was killed`),
        limits.timeoutMs + KILL_GRACE_MS,
      );
    } else if (message.t === 'loaded') {
      loaded = true;
    } else if (message.t === 'call') {
      if (message.i !== calls.length)
        return stop('protocol', `the sandbox process reported call ${message.i} out of order`);
      calls.push(message);
    } else end ??= message;
  };

  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    outputBytes += Buffer.byteLength(chunk);
    if (outputBytes > outputBound) return stop('output', `it wrote more than ${outputBound} bytes of results`);
    pending += chunk;
    let from = 0;
    for (let newline = pending.indexOf('\n'); newline >= 0 && stopped === undefined;) {
      take(pending.slice(from, newline));
      from = newline + 1;
      newline = pending.indexOf('\n', from);
    }
    pending = pending.slice(from);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < STDERR_KEPT) stderr += chunk.slice(0, STDERR_KEPT - stderr.length);
  });
  // A child that dies before reading its input closes the pipe: EPIPE here is expected.
  child.stdin.on('error', () => undefined);
  child.stdin.end(
    JSON.stringify({
      harness: harnessScript(),
      code: request.code,
      functionName: request.functionName,
      calls: request.calls,
      repeat: request.repeat,
      timeoutMs: request.childTimeoutMs ?? limits.timeoutMs,
    }),
  );

  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (code: number | null, exitSignal: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(startTimer);
      clearTimeout(runTimer);
      clearInterval(poll);
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(signal.reason);
      resolve({
        loaded,
        calls,
        ...(end ? { end } : {}),
        ...(stopped ? { stopped } : {}),
        exit: { code, signal: exitSignal },
        stderr,
        rlimited: command.rlimited,
        durationMs: performance.now() - startedAt,
      });
    };
    child.on('error', (error) => {
      // Only a child that never started ends here; a running one still closes.
      if (child.pid !== undefined) return;
      stopped ??= { reason: 'start', detail: `the sandbox process could not start: ${error.message}` };
      finish(null, null);
    });
    child.on('close', finish);
  });
}
