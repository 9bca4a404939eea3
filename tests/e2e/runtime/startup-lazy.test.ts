import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenAppendFile } from '../../../actors/runtime/append-file.ts';
import { openAppendFile } from '../../../actors/runtime/append-file.ts';
import { payload } from '../../support/nutrition/nutrition-fakes.ts';
import { restingRun } from '../../support/nutrition/restart-runs.ts';
import { countedRead } from '../../support/counted-read.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { USER_SETUP } from '../../support/trainer/trainer-http.ts';

/* Start-up reads the index of unfinished runs only: no journal partition of a settled run or an idle session. */

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Every journal file under `dir`, by path. */
async function journalFiles(dir: string): Promise<string[]> {
  const root = join(dir, 'journal');
  const files: string[] = [];
  for (const journal of await readdir(root)) {
    for (const name of await readdir(join(root, journal)))
      if (name.endsWith('.ndjson')) files.push(join(root, journal, name));
  }
  return files.sort();
}

/** Journal options that note every file opened, to read or to append. */
function countedJournal() {
  const reads = countedRead();
  const appended: string[] = [];
  const openFile: OpenAppendFile = (file) => {
    appended.push(file);
    return openAppendFile(file);
  };
  return { options: { openRead: reads.openRead, openFile }, touched: () => [...reads.counts.files, ...appended] };
}

describe('start-up on a data dir with history', () => {
  it('opens no journal partition of a settled run or an idle session; the first touch opens only its own', async () => {
    const { dir, first, id } = await restingRun(undefined, 'ada', { systems: { trainer: { consoleLog: false } } });
    dirs.push(dir);
    const others = [id];
    for (const user of ['bob', 'cy']) {
      const created = await first.call(user, 'POST', '/pipelines', payload('intake_data'));
      others.push(created.body.pipeline_run_id as string);
    }
    for (const [source, body] of Object.entries(USER_SETUP))
      await first.call('dee', 'PUT', `/users/me/${source}`, body);
    const chat = await first.call('dee', 'POST', '/agent/chat', { message: 'Give me a quick chest workout' });
    expect(chat.status).toBe(200);
    for (const [user, run] of [
      ['bob', others[1]],
      ['cy', others[2]],
    ] as const)
      await expect
        .poll(async () => (await first.call(user, 'GET', `/pipelines/${run}`)).body.state, { timeout: 10_000 })
        .toBe('output_ready');
    await first.stop(false);
    const history = await journalFiles(dir);
    expect(history.length).toBeGreaterThanOrEqual(5); // three runs, a session's events and its turn

    const journal = countedJournal();
    const second = await startRuntime({ journal: journal.options }, dir);
    try {
      expect(journal.touched().filter((file) => history.includes(file))).toEqual([]);
      // A settled run answers from its record; a check-in wakes it and reads its journal alone.
      expect((await second.call('ada', 'GET', `/pipelines/${id}`)).body.state).toBe('output_ready');
      expect(journal.touched().filter((file) => history.includes(file))).toEqual([]);
      const checkin = await second.call('ada', 'POST', `/pipelines/${id}/checkins`, payload('weekly_checkin'));
      expect(checkin.status).toBe(200);
      expect([...new Set(journal.touched().filter((file) => history.includes(file)))]).toEqual([
        join(dir, 'journal', 'pipelines', `${id}.ndjson`),
      ]);
    } finally {
      await second.stop(false);
    }
  });
});
