import { describe, expect, it } from 'vitest';
import { sandboxCommand } from '../../../../../actors/tiers/sandbox/sandbox-command.ts';
import { processMemoryBytes, resolveLimits } from '../../../../../actors/tiers/sandbox/sandbox-limits.ts';

describe('resolveLimits', () => {
  it('fills in the defaults, 2000 ms and 64 MB', () => {
    expect(resolveLimits()).toEqual({ timeoutMs: 2_000, memoryMb: 64 });
    expect(resolveLimits({ timeoutMs: 500 })).toEqual({ timeoutMs: 500, memoryMb: 64 });
  });

  it('refuses a limit that is not a whole number in range, naming it', () => {
    expect(() => resolveLimits({ timeoutMs: 0 })).toThrow(/timeoutMs must be a whole number from 1 to 600000; got 0/);
    expect(() => resolveLimits({ memoryMb: 1.5 })).toThrow(/memoryMb must be a whole number from 16/);
    expect(() => resolveLimits({ memoryMb: Number.NaN })).toThrow(RangeError);
  });
});

describe('sandboxCommand', () => {
  it('starts Node with the permission model and no --allow-* flag, code generation off, the heap capped', () => {
    const limits = { timeoutMs: 1_000, memoryMb: 48 };
    const { file, args, rlimited } = sandboxCommand(limits, { rlimit: false });
    expect(file).toBe(process.execPath);
    expect(rlimited).toBe(false);
    expect(args).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^--(experimental-)?permission$/),
        '--disallow-code-generation-from-strings',
        '--no-addons',
        '--max-old-space-size=48',
        '--eval',
      ]),
    );
    expect(args.filter((arg) => arg.startsWith('--allow-'))).toEqual([]);
    const withRlimit = sandboxCommand(limits, { rlimit: true });
    if (withRlimit.rlimited) {
      expect(withRlimit.args.slice(0, 6)).toEqual([
        `--data=${processMemoryBytes(limits)}`,
        '--fsize=0',
        '--core=0',
        '--cpu=11',
        '--',
        process.execPath,
      ]);
    }
  });
});
