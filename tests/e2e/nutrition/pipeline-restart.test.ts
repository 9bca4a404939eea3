import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock } from 'xstate';
import { payload } from '../../support/nutrition/nutrition-fakes.ts';
import {
  restingRun as restingRunIn,
  runsOf,
  stuckAtDietitian,
  stuckRun as stuckRunIn,
} from '../../support/nutrition/restart-runs.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { readStoredDoc, storedFile, storedIds, writeStoredDoc } from '../../support/store-files.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function stuckRun() {
  const run = await stuckRunIn();
  dirs.push(run.dir);
  return run;
}

describe('a pipeline across a restart', () => {
  it('continues from its persisted state; no message is lost or journaled twice', async () => {
    const { dir, id, before } = await stuckRun();
    const second = await startRuntime({}, dir);
    try {
      await expect
        .poll(async () => (await second.call('ada', 'GET', `/pipelines/${id}`)).body.state, { timeout: 10_000 })
        .toBe('output_ready');
      const after = (await second.call('ada', 'GET', `/pipelines/${id}/messages`)).body.messages as any[];
      // Everything journaled before the restart is still there, first and in order.
      expect(after.slice(0, before.length)).toEqual(before);
      const ids = after.map((m) => m.message_id);
      expect(new Set(ids).size).toBe(ids.length);
      const routes = after.map((m) => `${m.from_agent}->${m.to_agent}:${m.data_type}`);
      expect(new Set(routes).size).toBe(routes.length);
      expect(routes).toEqual(
        expect.arrayContaining([
          'DIETITIAN->CHEF:weekly_meal_plan',
          'CHEF->USER:recipes',
          'COACH->USER:training_program',
        ]),
      );
      // The strategy that was in flight went to the new DIETITIAN without a second journal entry.
      expect(routes.filter((r) => r === 'NUTRITIONIST->DIETITIAN:nutrition_strategy')).toHaveLength(1);
    } finally {
      await second.stop(false);
    }
  });

  it('re-arms the pipeline timeout of a restored run', async () => {
    const { dir, id } = await stuckRun();
    const clock = new SimulatedClock();
    const second = await startRuntime(
      { clock, systems: { nutrition: { brains: stuckAtDietitian(), agentTimeoutMs: 10 * 60_000 } } },
      dir,
    );
    try {
      expect((await second.call('ada', 'GET', `/pipelines/${id}`)).body.state).toBe('dietitian_processing');
      clock.increment(179_999);
      expect((await second.call('ada', 'GET', `/pipelines/${id}`)).body.state).toBe('dietitian_processing');
      clock.increment(1);
      const view = (await second.call('ada', 'GET', `/pipelines/${id}`)).body;
      expect(view.state).toBe('error');
      expect(view.error).toMatchObject({ error_type: 'timeout', timeout_duration_ms: 180_000 });
    } finally {
      await second.stop(false);
    }
  });
});

async function restingRun() {
  const run = await restingRunIn();
  dirs.push(run.dir);
  return run;
}

describe('a pipeline that waits for its user', () => {
  it('rests: out of the index of unfinished runs and not kept live, not restored at start-up, woken by a check-in', async () => {
    const { dir, first, id } = await restingRun();
    expect(await storedIds(join(dir, 'store'), 'nutrition/unfinished')).toEqual([]);
    // Its view and messages come from its record and journal while it rests.
    const view = (await first.call('ada', 'GET', `/pipelines/${id}`)).body;
    expect(view).toMatchObject({ state: 'output_ready', status: 'completed' });
    await first.stop(false);

    const second = await startRuntime({}, dir);
    try {
      const again = runsOf(second);
      expect(again.liveState(id)).toBeUndefined();
      expect((await second.call('ada', 'GET', `/pipelines/${id}`)).body).toEqual(view);
      const answered = await second.call('ada', 'POST', `/pipelines/${id}/checkins`, payload('weekly_checkin'));
      expect(answered.status).toBe(200);
      expect(answered.body.data_type).toBe('adjustment_result');
      const after = (await second.call('ada', 'GET', `/pipelines/${id}`)).body;
      expect(after.last_adjustment).toEqual(answered.body.payload);
      // Done with the check-in, it rests again.
      await expect.poll(() => again.liveState(id), { timeout: 5_000 }).toBeUndefined();
      const messages = (await second.call('ada', 'GET', `/pipelines/${id}/messages`)).body.messages as {
        message_id: string;
      }[];
      expect(new Set(messages.map((m) => m.message_id)).size).toBe(messages.length);
    } finally {
      await second.stop(false);
    }
  });
});

describe('a pipeline whose snapshot is older than its journal', () => {
  it('is restored and handed the check-ins the user sent after the snapshot, without journaling anything twice', async () => {
    const { dir, first, id } = await restingRun();
    const recordFile = storedFile(join(dir, 'store'), `nutrition/runs/${id}`, 'run');
    const before = await readFile(recordFile, 'utf8');
    const answered = await first.call('ada', 'POST', `/pipelines/${id}/checkins`, payload('weekly_checkin'));
    expect(answered.status).toBe(200);
    const messages = (await first.call('ada', 'GET', `/pipelines/${id}/messages`)).body.messages as {
      message_id: string;
    }[];
    await first.stop(false);
    // As if the process died after the check-in was journaled and answered but before its
    // snapshot was written: the record still holds the snapshot from before, and the run is indexed.
    await writeFile(recordFile, before);
    await writeStoredDoc(join(dir, 'store'), 'nutrition/unfinished', id, { partition: id, owner: 'ada' });
    expect(JSON.parse(before).doc.journal_seq).toBeLessThan(messages.length);

    const second = await startRuntime({}, dir);
    try {
      await expect
        .poll(async () => (await second.call('ada', 'GET', `/pipelines/${id}`)).body.last_adjustment, {
          timeout: 10_000,
        })
        .toEqual(answered.body.payload);
      const after = (await second.call('ada', 'GET', `/pipelines/${id}/messages`)).body.messages;
      expect(after).toEqual(messages);
    } finally {
      await second.stop(false);
    }
  });
});

describe('runs stored before the run host', () => {
  it('are adopted at start-up: a finished one answers from its snapshot, one without a snapshot is rebuilt from its journal', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restart-'));
    dirs.push(dir);
    const first = await startRuntime({}, dir);
    const ready = (await first.call('ada', 'POST', '/pipelines', payload('intake_data'))).body
      .pipeline_run_id as string;
    const crashed = (await first.call('ada', 'POST', '/pipelines', payload('intake_data'))).body
      .pipeline_run_id as string;
    for (const id of [ready, crashed])
      await expect
        .poll(async () => (await first.call('ada', 'GET', `/pipelines/${id}`)).body.state, { timeout: 10_000 })
        .toBe('output_ready');
    const view = (await first.call('ada', 'GET', `/pipelines/${ready}`)).body;
    await first.stop(false);
    // The old layout: an index of every run, and each run's snapshot inside the user's listing
    // (`crashed` as the old fault left it: its record written before its first snapshot), each
    // collection in one file as stores wrote them before one file per document.
    const store = join(dir, 'store');
    const listings = Object.fromEntries(
      await Promise.all(
        (await storedIds(store, 'pipelines/ada')).map(async (id) => [
          id,
          await readStoredDoc(store, 'pipelines/ada', id),
        ]),
      ),
    );
    listings[ready].snapshot = (await readStoredDoc(store, `nutrition/runs/${ready}`, 'run')).snapshot;
    listings[crashed].snapshot = null;
    await writeFile(join(store, 'pipelines', 'ada.json'), JSON.stringify({ docs: listings }));
    await rm(join(store, 'pipelines', 'ada.docs'), { recursive: true });
    await writeFile(
      join(store, 'pipeline-index.json'),
      JSON.stringify({ docs: Object.fromEntries([ready, crashed].map((id) => [id, { run_id: id, user_id: 'ada' }])) }),
    );
    await rm(join(store, 'nutrition'), { recursive: true });

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const second = await startRuntime({}, dir);
    try {
      expect((await second.call('ada', 'GET', `/pipelines/${ready}`)).body).toEqual(view);
      await expect
        .poll(async () => (await second.call('ada', 'GET', `/pipelines/${crashed}`)).body.state, { timeout: 10_000 })
        .toBe('output_ready');
      expect(warn.mock.calls.flat().join('\n')).toMatch(
        new RegExp(`Run ${crashed} of nutrition: .*; rebuilding it from its journal`),
      );
      const checkin = await second.call('ada', 'POST', `/pipelines/${ready}/checkins`, payload('weekly_checkin'));
      expect(checkin.status).toBe(200);
      const listed = (await second.call('ada', 'GET', '/pipelines')).body.pipelines.map(
        (p: { pipeline_run_id: string }) => p.pipeline_run_id,
      );
      expect(listed.sort()).toEqual([ready, crashed].sort());
      // Both old files moved to one file per document, and adopted: nothing indexed, no snapshot left.
      expect(await readdir(store)).not.toContain('pipeline-index.json');
      expect(await storedIds(store, 'pipeline-index')).toEqual([]);
      expect(await readdir(join(store, 'pipelines'))).toEqual(['ada.docs']);
      for (const id of [ready, crashed])
        expect(JSON.stringify(await readStoredDoc(store, 'pipelines/ada', id))).not.toContain('"snapshot"');
    } finally {
      warn.mockRestore();
      await second.stop(false);
    }
  });
});
