import type { SandboxVerdict } from './sandbox-child-line.ts';
import type { SandboxLimits } from './sandbox-limits.ts';
import type { SandboxProcessRun } from './sandbox-process.ts';

/** Node's own words when V8 or the allocator runs out of memory (stderr of a child that died). */
const OUT_OF_MEMORY =
  /heap out of memory|Reached heap limit|Fatal process out of memory|allocation failed|Out of memory/i;

/** Where a child was when it stopped: loading its code, in a call, or done with them. */
function whereOf(run: SandboxProcessRun, callCount: number): string {
  if (!run.loaded) return 'while loading the code';
  return run.calls.length < callCount ? `during call ${run.calls.length}` : 'after its last call';
}

/** The last lines of stderr worth quoting, or nothing. */
function stderrTail(stderr: string): string {
  const lines = stderr.trim().split('\n').filter(Boolean);
  return lines.length === 0 ? '' : `: ${lines.slice(-3).join(' | ').slice(0, 500)}`;
}

/**
 * The verdict and detail of one run. The parent's own kill comes first (it alone knows it killed
 * for time, memory or output); then the child's reported end; then how the process died: a fatal
 * out-of-memory error on stderr is `memory`, SIGXCPU (CPU rlimit) `timeout`, SIGXFSZ (a write to
 * a file past the 0-byte rlimit) `forbidden`, anything else `crashed`.
 */
export function verdictOf(
  run: SandboxProcessRun,
  limits: SandboxLimits,
  callCount: number,
): { verdict: SandboxVerdict; detail?: string } {
  const where = whereOf(run, callCount);
  if (run.stopped) {
    const { reason, detail } = run.stopped;
    if (reason === 'timeout') return { verdict: 'timeout', detail: `${detail} (${where})` };
    if (reason === 'memory') return { verdict: 'memory', detail: `${detail} (${where}); it was killed` };
    return { verdict: 'crashed', detail: reason === 'start' ? detail : `${detail} (${where}); it was killed` };
  }
  if (run.end) {
    const { verdict, detail } = run.end;
    return detail === undefined ? { verdict } : { verdict, detail };
  }
  const { code, signal } = run.exit;
  if (OUT_OF_MEMORY.test(run.stderr)) {
    const fatal = /(?:FATAL ERROR|Fatal process out of memory):?\s*(.*)/.exec(run.stderr)?.[1]?.trim();
    return {
      verdict: 'memory',
      detail: `it ran out of memory ${where} (the heap's limit is ${limits.memoryMb} MB)${fatal ? `: ${fatal.slice(0, 300)}` : ''}`,
    };
  }
  if (signal === 'SIGXCPU') return { verdict: 'timeout', detail: `it used up its CPU time ${where}` };
  if (signal === 'SIGXFSZ') return { verdict: 'forbidden', detail: `it wrote to a file ${where}` };
  const how = signal === null ? `exited with code ${String(code)}` : `was killed by ${signal}`;
  return { verdict: 'crashed', detail: `the sandbox process ${how} ${where}${stderrTail(run.stderr)}` };
}
