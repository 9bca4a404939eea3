import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { SERVER_LOOP_DELAY_TARGET_MS } from '../../../server/run-host/admission.ts';

const dir = mkdtempSync(join(tmpdir(), 'config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const load = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: dir, AUTH_JWT_SECRET: 'a-secret-long-enough-for-hs256-tokens', ...env });

describe('loadConfig: admission from the environment', () => {
  it('adapts the bound to a 10 ms event-loop delay unless told otherwise, and takes each limit it is given', async () => {
    expect(SERVER_LOOP_DELAY_TARGET_MS).toBe(10);
    expect((await load({})).admission).toEqual({ loopDelayTargetMs: 10 });
    expect(
      (
        await load({
          ADMISSION_LOOP_DELAY_MS: '0',
          MAX_WORKING_RUNS: '12',
          MIN_WORKING_RUNS: '2',
          MAX_WORKING_RUNS_PER_USER: '3',
        })
      ).admission,
    ).toEqual({ loopDelayTargetMs: 0, maxWorking: 12, minWorking: 2, maxPerOwner: 3 });
    expect((await load({ ADMISSION_LOOP_DELAY_MS: '25', MAX_WORKING_RUNS: '' })).admission).toEqual({
      loopDelayTargetMs: 25,
    });
  });

  it('refuses a value that is not a whole number in range, naming the variable', async () => {
    await expect(load({ ADMISSION_LOOP_DELAY_MS: '-1' })).rejects.toThrow(
      'ADMISSION_LOOP_DELAY_MS must be a whole number, got "-1".',
    );
    await expect(load({ ADMISSION_LOOP_DELAY_MS: '2.5' })).rejects.toThrow(/ADMISSION_LOOP_DELAY_MS/);
    await expect(load({ MIN_WORKING_RUNS: '0' })).rejects.toThrow(
      'MIN_WORKING_RUNS must be a positive integer, got "0".',
    );
    await expect(load({ MAX_WORKING_RUNS: 'many' })).rejects.toThrow(/MAX_WORKING_RUNS must be a positive integer/);
    await expect(load({ MIN_WORKING_RUNS: '9', MAX_WORKING_RUNS: '8' })).rejects.toThrow(
      'MIN_WORKING_RUNS (9) must not be more than MAX_WORKING_RUNS (8).',
    );
    await expect(load({ MIN_WORKING_RUNS: '33' })).rejects.toThrow(/MAX_WORKING_RUNS \(32\)/);
    // A smaller MAX_WORKING_RUNS alone is taken: the bound then stays at it (the floor cannot pass it).
    expect((await load({ MAX_WORKING_RUNS: '3' })).admission).toEqual({ loopDelayTargetMs: 10, maxWorking: 3 });
  });
});
