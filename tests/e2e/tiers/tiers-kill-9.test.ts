import { afterAll, describe, expect, it } from 'vitest';
import { killAllServers, makeCrashDir, removeCrashDir, runCrashRounds } from '../../support/crash/kill-harness.ts';
import { tiersWorkload } from '../../support/tiers/tiers-crash-workload.ts';

// The real server in a child process, tiers tasks submitted continuously (over both routes),
// kill -9 at random moments on one data dir: every acknowledged task is there after each restart
// and settles, no message is journaled twice, and a duplicate message id is answered from cache.
// Replay a failure with the printed seed: CRASH_SEED=<seed>.

let dataDir: string | undefined;

afterAll(async () => {
  await killAllServers();
  await removeCrashDir(dataDir);
});

describe('kill -9 with tiers tasks', () => {
  it('loses no acknowledged task over 4 kills in a row on one data dir', async () => {
    dataDir = await makeCrashDir();
    const tiers = tiersWorkload();
    const report = await runCrashRounds(dataDir, {
      workloads: [tiers],
      rounds: 4,
      driveMs: [1_500, 3_500],
      budgetMs: 200_000,
    });
    expect(report.kills).toBe(4);
    expect(tiers.acknowledged.size).toBeGreaterThan(0);
  }, 400_000);
});
