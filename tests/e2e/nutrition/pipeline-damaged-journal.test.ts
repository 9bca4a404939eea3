import { appendFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { payload } from '../../support/nutrition/nutrition-fakes.ts';
import { pipelineJournalFile, restingRun, stuckRun } from '../../support/nutrition/restart-runs.ts';
import { startRuntime } from '../../support/runtime-harness.ts';

/* A journal partition is read on its first touch: a damaged one is reported for its run alone. */

const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Replaces line 2 of a journal file with bytes that do not parse (a complete line: never a tear). */
async function damageLine2(file: string): Promise<string> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  lines[1] = '{"seq":2,"data":{"kind":"dir';
  const damaged = lines.join('\n');
  await writeFile(file, damaged);
  return damaged;
}

describe('a resting run whose journal was damaged while the server was down', () => {
  it('does not stop the start; its first touch reports it failed, naming the file, and other runs go on', async () => {
    const { dir, first, id } = await restingRun();
    dirs.push(dir);
    await first.stop(false);
    const other = await restingRun(dir, 'bob');
    await other.first.stop(false);
    const file = pipelineJournalFile(dir, id);
    const damaged = await damageLine2(file);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const second = await startRuntime({}, dir);
    try {
      expect(warn).not.toHaveBeenCalled();
      // Its view comes from its record: the journal is not read for it.
      expect((await second.call('ada', 'GET', `/pipelines/${id}`)).body.state).toBe('output_ready');
      const checkin = await second.call('ada', 'POST', `/pipelines/${id}/checkins`, payload('weekly_checkin'));
      expect(checkin.status).toBe(409);
      const view = (await second.call('ada', 'GET', `/pipelines/${id}`)).body;
      expect(view).toMatchObject({ state: 'error', failure: { code: 'run_unrecoverable' } });
      expect(view.failure.message).toContain(`${file} is corrupt (line 2`);
      expect(warn.mock.calls.flat().join('\n')).toContain(`Run ${id} of nutrition could not be recovered`);
      expect(await readFile(file, 'utf8')).toBe(damaged);
      const fine = await second.call('bob', 'POST', `/pipelines/${other.id}/checkins`, payload('weekly_checkin'));
      expect(fine.status).toBe(200);
    } finally {
      await second.stop(false);
    }
  });

  it('sets a torn last line aside on its first touch, then takes the check-in after the complete lines', async () => {
    const { dir, first, id } = await restingRun();
    dirs.push(dir);
    const before = (await first.call('ada', 'GET', `/pipelines/${id}/messages`)).body.messages as unknown[];
    await first.stop(false);
    const file = pipelineJournalFile(dir, id);
    const torn = `{"seq":${before.length + 1},"data":{"kind":"dir`;
    await appendFile(file, torn);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const second = await startRuntime({}, dir);
    try {
      expect(warn).not.toHaveBeenCalled();
      const checkin = await second.call('ada', 'POST', `/pipelines/${id}/checkins`, payload('weekly_checkin'));
      expect(checkin.status).toBe(200);
      expect(warn.mock.calls.flat().join('\n')).toContain(`Journal file ${file}`);
      const [side] = await readdir(join(dir, 'journal', 'pipelines', 'torn'));
      expect(await readFile(join(dir, 'journal', 'pipelines', 'torn', side!), 'utf8')).toBe(torn);
      const after = (await second.call('ada', 'GET', `/pipelines/${id}/messages`)).body.messages as unknown[];
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.length).toBeGreaterThan(before.length);
    } finally {
      await second.stop(false);
    }
  });
});

describe('an unfinished run whose journal was damaged while the server was down', () => {
  it('is reported failed at start-up, naming the file, and the server starts', async () => {
    const { dir, id } = await stuckRun();
    dirs.push(dir);
    const file = pipelineJournalFile(dir, id);
    const damaged = await damageLine2(file);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const second = await startRuntime({}, dir);
    try {
      const view = (await second.call('ada', 'GET', `/pipelines/${id}`)).body;
      expect(view).toMatchObject({ state: 'error', failure: { code: 'run_unrecoverable' } });
      expect(view.failure.message).toContain(`${file} is corrupt (line 2`);
      expect(warn.mock.calls.flat().join('\n')).toContain(`Run ${id} of nutrition could not be recovered`);
      expect(await readFile(file, 'utf8')).toBe(damaged);
      expect((await second.call('ada', 'POST', '/pipelines', payload('intake_data'))).status).toBe(201);
    } finally {
      await second.stop(false);
    }
  });
});
