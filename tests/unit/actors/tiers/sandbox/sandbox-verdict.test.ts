import { describe, expect, it } from 'vitest';
import type { SandboxProcessRun } from '../../../../../actors/tiers/sandbox/sandbox-process.ts';
import { verdictOf } from '../../../../../actors/tiers/sandbox/sandbox-verdict.ts';

const limits = { timeoutMs: 1_000, memoryMb: 64 };
const call = { t: 'call' as const, i: 0, ms: 1, ok: true, json: '1' };

function died(overrides: Partial<SandboxProcessRun>): SandboxProcessRun {
  return {
    loaded: true,
    calls: [call],
    exit: { code: null, signal: null },
    stderr: '',
    rlimited: true,
    durationMs: 5,
    ...overrides,
  };
}

describe('verdictOf', () => {
  it("takes the child's own end when it reported one", () => {
    const run = died({
      end: { t: 'end', verdict: 'forbidden', detail: 'call 0 tried process' },
      exit: { code: 0, signal: null },
    });
    expect(verdictOf(run, limits, 2)).toEqual({ verdict: 'forbidden', detail: 'call 0 tried process' });
    expect(verdictOf(died({ end: { t: 'end', verdict: 'ok' } }), limits, 1)).toEqual({ verdict: 'ok' });
  });

  it("puts the parent's own kill first, even over an end the child wrote", () => {
    const run = died({
      stopped: { reason: 'timeout', detail: 'the run passed its 1000 ms time limit and was killed' },
      exit: { code: null, signal: 'SIGKILL' },
    });
    expect(verdictOf(run, limits, 2)).toEqual({
      verdict: 'timeout',
      detail: 'the run passed its 1000 ms time limit and was killed (during call 1)',
    });
    const start = died({ loaded: false, calls: [], stopped: { reason: 'start', detail: 'could not start: ENOENT' } });
    expect(verdictOf(start, limits, 1)).toEqual({ verdict: 'crashed', detail: 'could not start: ENOENT' });
  });

  it("reads V8's fatal out-of-memory error on stderr as memory", () => {
    const stderr =
      '<--- Last few GCs --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n 1: 0xb8 node::Abort()';
    const run = died({ loaded: false, calls: [], stderr, exit: { code: null, signal: 'SIGABRT' } });
    expect(verdictOf(run, limits, 1)).toEqual({
      verdict: 'memory',
      detail:
        "it ran out of memory while loading the code (the heap's limit is 64 MB): Reached heap limit Allocation failed - JavaScript heap out of memory",
    });
  });

  it('maps the rlimit signals: CPU time to timeout, file size to forbidden', () => {
    expect(verdictOf(died({ exit: { code: null, signal: 'SIGXCPU' } }), limits, 1)).toEqual({
      verdict: 'timeout',
      detail: 'it used up its CPU time after its last call',
    });
    expect(verdictOf(died({ exit: { code: null, signal: 'SIGXFSZ' } }), limits, 3).verdict).toBe('forbidden');
  });

  it('calls any other death a crash, quoting the end of stderr', () => {
    const run = died({ exit: { code: 7, signal: null }, stderr: 'first\nsecond\nthird\nfourth\n' });
    expect(verdictOf(run, limits, 4)).toEqual({
      verdict: 'crashed',
      detail: 'the sandbox process exited with code 7 during call 1: second | third | fourth',
    });
  });
});
