import { afterAll, describe, expect, it } from 'vitest';
import { killAllServers, makeCrashDir, removeCrashDir, runCrashRounds } from '../../support/crash/kill-harness.ts';
import { orgWorkload } from '../../support/org/org-crash-workload.ts';

// The real server in a child process, org projects started continuously, kill -9 at random
// moments on one data dir: every acknowledged project is there after each restart and settles
// with its handoffs accepted, and no envelope is journaled twice. Replay with CRASH_SEED=<seed>.

let dataDir: string | undefined;

afterAll(async () => {
  await killAllServers();
  await removeCrashDir(dataDir);
});

describe('kill -9 with org projects', () => {
  it('loses no acknowledged project over 4 kills in a row on one data dir', async () => {
    dataDir = await makeCrashDir();
    const org = orgWorkload();
    const report = await runCrashRounds(dataDir, {
      workloads: [org],
      rounds: 4,
      driveMs: [1_000, 3_000],
      budgetMs: 330_000,
    });
    expect(report.kills).toBe(4);
    expect(org.acknowledged.size).toBeGreaterThan(0);
  }, 400_000);
});
