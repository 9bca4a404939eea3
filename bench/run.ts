/**
 * `npm run bench`: every benchmark in one process, each against its baseline run in the same
 * process. Prints one JSON document (and writes it to bench/results.json); exits non-zero when a
 * target is missed, so a regression is visible.
 */
import { writeFile } from 'node:fs/promises';
import { runClusterBench } from './cluster-bench.ts';
import { runCoscientistBench } from './coscientist-bench.ts';
import { runJournalBench } from './journal-bench.ts';
import { runOrgBench } from './org-bench.ts';
import { runPipelineBench } from './pipeline-bench.ts';
import { runPipelineLoadBench } from './pipeline-load-bench.ts';
import { runRoutingBench } from './routing-bench.ts';
import { runSharedStateBench } from './shared-state-bench.ts';
import { runStoreBench } from './store-bench.ts';
import { runStartupBench } from './startup-bench.ts';
import { runTaskQueueBench } from './task-queue-bench.ts';
import { runTiersBench } from './tiers-bench.ts';

type Bench = { name: string; run: () => Promise<{ pass?: boolean } & Record<string, unknown>> };

const benches: Bench[] = [
  { name: 'routing', run: () => runRoutingBench() },
  { name: 'journal', run: () => runJournalBench() },
  { name: 'pipeline', run: () => runPipelineBench() },
  { name: 'pipeline-load', run: () => runPipelineLoadBench() },
  { name: 'store', run: () => runStoreBench() },
  { name: 'startup', run: () => runStartupBench() },
  { name: 'shared-state', run: () => runSharedStateBench() },
  { name: 'task-queue', run: () => runTaskQueueBench() },
  { name: 'tiers', run: () => runTiersBench() },
  { name: 'coscientist', run: () => runCoscientistBench() },
  { name: 'org', run: () => runOrgBench() },
  { name: 'cluster', run: () => runClusterBench() },
];

// Optional benches join as their systems land (each module exports `run<Name>Bench`).
for (const [name, path, exported] of [['trainer', './trainer-bench.ts', 'runTrainerBench']] as const) {
  try {
    const module = (await import(path)) as Record<
      string,
      () => Promise<Bench extends { run: () => infer R } ? Awaited<R> : never>
    >;
    const run = module[exported];
    if (run) benches.push({ name, run });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
  }
}

const only = process.argv.slice(2);
const results: Record<string, unknown> = { node: process.version, at: new Date().toISOString() };
let failed = false;
for (const bench of benches) {
  if (only.length > 0 && !only.includes(bench.name)) continue;
  process.stderr.write(`bench ${bench.name}...\n`);
  const result = await bench.run();
  results[bench.name] = result;
  if (result.pass === false) failed = true;
}
const json = JSON.stringify(results, null, 2);
console.log(json);
await writeFile(new URL('./results.json', import.meta.url), `${json}\n`);
process.exit(failed ? 1 : 0);
