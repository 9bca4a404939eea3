import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import { loadSystemModules } from '../../../server/system-modules.ts';
import { echoModule } from '../../support/echo/echo-module.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { storedFile, storedIds } from '../../support/store-files.ts';

/** ECHO never answers (until its work is cancelled): a run stuck in `echoing`. */
const silentBrain = fromPromise<unknown, AgentBrainInput>(
  ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')))),
);

const started: Awaited<ReturnType<typeof startRuntime>>[] = [];
async function start(brain?: typeof silentBrain, dir?: string) {
  const rt = await startRuntime({ modules: [...(await loadSystemModules()), echoModule(brain ? { brain } : {})] }, dir);
  started.push(rt);
  return rt;
}
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(started.splice(0).map((rt) => rt.stop().catch(() => undefined)));
});

const until = async (rt: Awaited<ReturnType<typeof start>>, id: string, state: string) =>
  expect.poll(async () => (await rt.call('ada', 'GET', `/echo/${id}`)).body.state, { timeout: 10_000 }).toBe(state);

/** Starts a run that stays in `echoing`, then stops the runtime with it there. */
async function stuckRun() {
  const first = await start(silentBrain);
  const created = await first.call('ada', 'POST', '/echo', { text: 'hello' });
  expect(created.status).toBe(201);
  const id = created.body.run_id as string;
  await until(first, id, 'echoing');
  await first.runtime.close();
  started.splice(started.indexOf(first), 1);
  return { dir: first.dir, id };
}

describe('a system module the runtime does not name (tests/support/echo)', () => {
  it('is served, journaled and drawn', async () => {
    const rt = await start();
    const created = await rt.call('ada', 'POST', '/echo', { text: 'hello' });
    expect(created.status).toBe(201);
    const id = created.body.run_id;
    await until(rt, id, 'done');
    expect((await rt.call('ada', 'GET', `/echo/${id}`)).body.reply).toBe('HELLO');
    // Another user's run is not found; a bad body names its field.
    expect((await rt.call('bob', 'GET', `/echo/${id}`)).status).toBe(404);
    const bad = await rt.call('ada', 'POST', '/echo', { text: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('text');
    // Journaled: both envelopes, in order, in the echo journal's partition file.
    const messages = (await rt.call('ada', 'GET', `/echo/${id}/messages`)).body.messages;
    expect(messages.map((m: any) => `${m.from_agent}->${m.to_agent}:${m.data_type}`)).toEqual([
      'USER->ECHO:text',
      'ECHO->USER:echo',
    ]);
    const file = await readFile(join(rt.dir, 'journal', 'echo', `${id}.ndjson`), 'utf8');
    expect(
      file
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).seq),
    ).toEqual([1, 2]);
    // Drawn: listed, exported and watchable like the systems' own machines.
    const list = await rt.runtime.app.request('/viz/machines.json');
    expect(((await list.json()) as { machines: { name: string }[] }).machines.map((m) => m.name)).toContain('echoRun');
    const graph = (await (await rt.runtime.app.request('/viz/echoRun.json')).json()) as { states: { key: string }[] };
    expect(graph.states.map((s) => s.key)).toEqual(expect.arrayContaining(['idle', 'echoing', 'done', 'failed']));
    expect(rt.runtime.runSources.has('echoRun')).toBe(true);
  });

  it('is restored from its snapshot after a restart, its text handed over again but not journaled twice', async () => {
    const { dir, id } = await stuckRun();
    const second = await start(undefined, dir);
    await until(second, id, 'done');
    const messages = (await second.call('ada', 'GET', `/echo/${id}/messages`)).body.messages;
    expect(messages.map((m: any) => m.data_type)).toEqual(['text', 'echo']);
  });

  it('is rebuilt from its journal when its snapshot is missing, and from it again when the snapshot is unreadable', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { dir, id } = await stuckRun();
    const recordFile = storedFile(join(dir, 'store'), `echo/runs/${id}`, 'run');
    const record = JSON.parse(await readFile(recordFile, 'utf8'));
    expect(record.doc.snapshot.value).toBe('echoing');
    await rm(recordFile);
    const second = await start(undefined, dir);
    await until(second, id, 'done');
    expect(warn.mock.calls.flat().join('\n')).toMatch(
      new RegExp(`Run ${id} of echo: its record is missing; rebuilding it from its journal`),
    );
    expect((await second.call('ada', 'GET', `/echo/${id}/messages`)).body.messages).toHaveLength(2);
    // Its owner came back with it: once it is over and no longer live, it is still ada's.
    await second.runtime.close();
    started.splice(started.indexOf(second), 1);
    expect(JSON.parse(await readFile(recordFile, 'utf8')).doc).toMatchObject({ partition: id, owner: 'ada' });
    expect((await (await start(undefined, dir)).call('ada', 'GET', `/echo/${id}`)).body.state).toBe('done');

    const { dir: dir2, id: id2 } = await stuckRun();
    const file2 = storedFile(join(dir2, 'store'), `echo/runs/${id2}`, 'run');
    const record2 = JSON.parse(await readFile(file2, 'utf8'));
    record2.doc.snapshot = { status: 'active', value: 'no_such_state', context: 42, children: {} };
    await writeFile(file2, JSON.stringify(record2));
    const third = await start(undefined, dir2);
    await until(third, id2, 'done');
    expect(warn.mock.calls.flat().join('\n')).toMatch(
      new RegExp(`Run ${id2} of echo: its snapshot could not be restored`),
    );

    // A state the machine has, with a context its actions cannot read: the run errs as it resumes,
    // which is heard (never thrown out of the process) and the run is rebuilt from its journal.
    const { dir: dir3, id: id3 } = await stuckRun();
    const file3 = storedFile(join(dir3, 'store'), `echo/runs/${id3}`, 'run');
    const record3 = JSON.parse(await readFile(file3, 'utf8'));
    record3.doc.snapshot = { ...record3.doc.snapshot, context: null };
    await writeFile(file3, JSON.stringify(record3));
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fourth = await start(undefined, dir3);
    await until(fourth, id3, 'done');
    expect(warn.mock.calls.flat().join('\n')).toMatch(
      new RegExp(`Run ${id3} of echo: its snapshot could not be restored`),
    );
    expect(error).toHaveBeenCalled();

    // A record file that is not even JSON: start-up does not read run records, so it starts, and
    // the run, still in the index, is rebuilt from its journal.
    const { dir: dir4, id: id4 } = await stuckRun();
    await writeFile(storedFile(join(dir4, 'store'), `echo/runs/${id4}`, 'run'), '{"id": "run", "doc": ');
    const fifth = await start(undefined, dir4);
    await until(fifth, id4, 'done');
    expect(warn.mock.calls.flat().join('\n')).toMatch(/is corrupt .* It is a cache of the journal: set aside as /);
  });

  it('marks a run that cannot be rebuilt as failed, with a reason, and the server and its other runs go on', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const first = await start(silentBrain);
    const lost = (await first.call('ada', 'POST', '/echo', { text: 'lost' })).body.run_id as string;
    const kept = (await first.call('ada', 'POST', '/echo', { text: 'kept' })).body.run_id as string;
    await until(first, kept, 'echoing');
    await first.runtime.close();
    started.splice(started.indexOf(first), 1);
    // The journal of one run is gone (moved away by hand, say): there is nothing to rebuild it from.
    await rm(join(first.dir, 'journal', 'echo', `${lost}.ndjson`));
    await rm(storedFile(join(first.dir, 'store'), `echo/runs/${lost}`, 'run'));
    const second = await start(undefined, first.dir);
    await until(second, kept, 'done');
    const view = (await second.call('ada', 'GET', `/echo/${lost}`)).body;
    expect(view.state).toBe('failed');
    expect(view.failure).toMatch(/journal holds no envelope/);
    expect(warn.mock.calls.flat().join('\n')).toMatch(new RegExp(`Run ${lost} of echo could not be recovered`));
    // It left the index of unfinished runs: the next start does not look at it again.
    await second.runtime.close();
    started.splice(started.indexOf(second), 1);
    expect(await storedIds(join(first.dir, 'store'), 'echo/unfinished'), JSON.stringify({ lost, kept })).toEqual([]);
    const third = await start(undefined, first.dir);
    expect((await third.call('ada', 'GET', `/echo/${lost}`)).body.state).toBe('failed');
    expect((await third.call('ada', 'GET', `/echo/${kept}`)).body).toMatchObject({ state: 'done', reply: 'KEPT' });
  });
});
