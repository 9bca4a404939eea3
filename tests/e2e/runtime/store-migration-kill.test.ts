import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLowdbStore } from '../../../actors/runtime/lowdb-store.ts';
import { readStoredDoc, storedIds } from '../../support/store-files.ts';

const DOCS = 1_000;
/** Where, as a share of a whole move's time, each kill -9 falls. */
const KILL_AT = [0.1, 0.5, 0.9];

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Runs the move in a child; kills it with SIGKILL `afterMs` after it says it is moving (never, when undefined). */
function moveInChild(dir: string, afterMs?: number): Promise<{ output: string; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'tests/support/crash/move-collection.ts', dir, 'pipelines/ada'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let started = 0;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (!started && output.includes('moving')) {
        started = performance.now();
        if (afterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), afterMs);
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', () => resolve({ output, elapsedMs: performance.now() - started }));
  });
}

const doc = (i: number) => ({ pipeline_run_id: `run-${i}`, state: 'output_ready', notes: 'n'.repeat(400) });

describe('moving a collection to one file per document, under kill -9', () => {
  it('never loses or duplicates a document, and a later start finishes the move', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'store-kill-'));
    dirs.push(dir);
    const legacyFile = join(dir, 'pipelines', 'ada.json');
    const docs = Object.fromEntries(Array.from({ length: DOCS }, (_, i) => [`run-${i}`, doc(i)]));
    const writeLegacy = async () => {
      await rm(join(dir, 'pipelines'), { recursive: true, force: true });
      await mkdir(join(dir, 'pipelines'));
      await writeFile(legacyFile, JSON.stringify({ docs }));
    };
    // How long a whole move takes here, now: the kills are placed along it.
    await writeLegacy();
    const whole = await moveInChild(dir);
    expect(whole.output).toContain(`moved ${DOCS}`);

    const outcomes: string[] = [];
    for (const share of KILL_AT) {
      await writeLegacy();
      // One kill in the first move, a second one in the move that takes over from it.
      for (const afterMs of [share * whole.elapsedMs, (1 - share) * whole.elapsedMs]) {
        const { output } = await moveInChild(dir, afterMs);
        const legacyLeft = await access(legacyFile).then(
          () => true,
          () => false,
        );
        outcomes.push(
          output.includes('moved') ? 'done' : legacyLeft ? 'cut, old file kept' : 'cut after the old file went',
        );
        // Until the old file is gone it is the truth; once it is gone, every document is in place.
        if (!legacyLeft) {
          const ids = await storedIds(dir, 'pipelines/ada');
          expect(ids).toEqual(Object.keys(docs).sort());
          for (const id of [ids[0]!, ids[DOCS - 1]!])
            expect(await readStoredDoc(dir, 'pipelines/ada', id)).toEqual(docs[id]);
        }
      }
      const store = await openLowdbStore(dir);
      const listed = await store.collection<{ pipeline_run_id: string }>('pipelines/ada').list();
      await store.close();
      expect(listed.length).toBe(DOCS);
      expect(Object.fromEntries(listed.map((one) => [one.pipeline_run_id, one]))).toEqual(docs);
    }
    // The kills cut moves short, not only after they were done.
    expect(outcomes, outcomes.join('; ')).toContain('cut, old file kept');
  }, 120_000);
});
