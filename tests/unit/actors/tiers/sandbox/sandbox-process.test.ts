import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCalls } from '../../../../../actors/tiers/sandbox/run-calls.ts';
import { harnessScript } from '../../../../../actors/tiers/sandbox/sandbox-command.ts';
import { type SandboxProcessRequest, runSandboxProcess } from '../../../../../actors/tiers/sandbox/sandbox-process.ts';
import { verdictOf } from '../../../../../actors/tiers/sandbox/sandbox-verdict.ts';

// Real child processes; a loaded machine starts Node slowly, hence the generous test timeouts.
const SLOW = 60_000;

/** One call of `attack` through the process layer, with the tests-only knobs of the request. */
async function runAttack(code: string, options: Partial<SandboxProcessRequest>) {
  const limits = options.limits ?? { timeoutMs: 2_000, memoryMb: 64 };
  const run = await runSandboxProcess({ code, functionName: 'attack', calls: ['[]'], repeat: 1, ...options, limits });
  return { run, ...verdictOf(run, limits, 1) };
}

describe('runSandboxProcess (the parent holds the hard limits)', () => {
  it(
    'kills a child that outlives the time limit, whatever the child itself would do',
    async () => {
      const { run, verdict, detail } = await runAttack('function attack() { for (;;) {} }', {
        limits: { timeoutMs: 300, memoryMb: 64 },
        childTimeoutMs: 120_000,
      });
      expect(run.stopped?.reason).toBe('timeout');
      expect(run.exit.signal).toBe('SIGKILL');
      expect(verdict).toBe('timeout');
      expect(detail).toBe('the run passed its 300 ms time limit and was killed (during call 0)');
    },
    SLOW,
  );

  it(
    'kills a child whose resident memory passes the bound, without prlimit',
    async () => {
      const { run, verdict, detail } = await runAttack(
        'function attack() { const keep = []; for (;;) keep.push(new Uint8Array(8 * 1024 * 1024).fill(7)); }',
        { limits: { timeoutMs: 30_000, memoryMb: 16 }, rlimit: false },
      );
      expect(run.rlimited).toBe(false);
      expect(run.stopped?.reason).toBe('memory');
      expect(verdict).toBe('memory');
      expect(detail).toMatch(
        /^its resident memory reached \d+ MB, over the 160 MB bound \(during call 0\); it was killed$/,
      );
    },
    SLOW,
  );

  it(
    'kills a child that writes more than its output bound',
    async () => {
      const { run, verdict, detail } = await runAttack("function attack() { return 'x'.repeat(10000); }", {
        maxOutputBytes: 4096,
      });
      expect(run.stopped?.reason).toBe('output');
      expect(verdict).toBe('crashed');
      expect(detail).toMatch(/wrote more than 4096 bytes of results/);
    },
    SLOW,
  );

  it(
    'kills the child and rejects with the reason when the caller aborts',
    async () => {
      const controller = new AbortController();
      const pending = runCalls({
        code: 'function attack() { for (;;) {} }',
        functionName: 'attack',
        calls: [[]],
        limits: { timeoutMs: 60_000 },
        signal: controller.signal,
      });
      await new Promise((resolve) => setImmediate(resolve));
      controller.abort(new Error('cancelled by the test'));
      await expect(pending).rejects.toThrow('cancelled by the test');
    },
    SLOW,
  );

  it(
    'has a child that refuses to run code when started without the permission model',
    () => {
      const child = readFileSync(
        new URL('../../../../../actors/tiers/sandbox/sandbox-child.mjs', import.meta.url),
        'utf8',
      );
      const input = { harness: harnessScript(), code: 'function f() { return 1; }', functionName: 'f', calls: ['[]'] };
      const result = spawnSync(process.execPath, ['--input-type=module', '--eval', child], {
        input: JSON.stringify({ ...input, repeat: 1, timeoutMs: 1_000 }),
        encoding: 'utf8',
        env: {},
      });
      expect(result.stdout.trim().split('\n')).toEqual([
        JSON.stringify({
          t: 'end',
          verdict: 'crashed',
          detail:
            "the sandbox's runner failed: the permission model is off or grants access; the sandbox refuses to run the code",
        }),
      ]);
    },
    SLOW,
  );
});
