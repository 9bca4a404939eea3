import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { orgMessage } from '../../../actors/org/org-envelope.ts';
import { openAppendFile, type OpenAppendFile } from '../../../actors/runtime/append-file.ts';
import { loadSystemModules } from '../../../server/system-modules.ts';
import { countedRead } from '../../support/counted-read.ts';
import { SHOP_PRD } from '../../support/org/org-harness.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { storedIds } from '../../support/store-files.ts';

/* Org projects on the durable run host: they rest once settled, resume after a restart, and drop resent ids. */

type Rt = Awaited<ReturnType<typeof startRuntime>>;
const dirs: string[] = [];
const open: Rt[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((rt) => rt.stop(false).catch(() => undefined)));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Journal options that note every journal file opened, to read or to append. */
function countedJournal() {
  const reads = countedRead();
  const appended: string[] = [];
  const openFile: OpenAppendFile = (file) => {
    appended.push(file);
    return openAppendFile(file);
  };
  return { options: { openRead: reads.openRead, openFile }, touched: () => [...reads.counts.files, ...appended] };
}

async function start(dir?: string, journal?: ReturnType<typeof countedJournal>) {
  const modules = (await loadSystemModules()).filter((m) => m.name === 'org');
  const rt = await startRuntime({ modules, ...(journal ? { journal: journal.options } : {}) }, dir);
  if (!dir) dirs.push(rt.dir);
  open.push(rt);
  return rt;
}

async function stop(rt: Rt) {
  open.splice(open.indexOf(rt), 1);
  await rt.stop(false);
}

const statusOf = async (rt: Rt, id: string) => (await rt.call('ada', 'GET', `/org/projects/${id}`)).body.status;
const settled = (rt: Rt, id: string, status = 'done') =>
  expect.poll(() => statusOf(rt, id), { timeout: 20_000, interval: 50 }).toBe(status);
const messagesOf = async (rt: Rt, id: string) =>
  (await rt.call('ada', 'GET', `/org/projects/${id}/messages`)).body.messages.map((m: any) => m.envelope);
const unfinished = (rt: Rt) => storedIds(join(rt.dir, 'store'), 'org/unfinished');

/** An external notification from chief-orchestration to product (the Orchestration Bus), under `seed`'s id. */
const note = (id: string, seed: string) =>
  orgMessage({
    from: 'chief-orchestration',
    to: 'product',
    type: 'notification',
    priority: 'low',
    payload: { task_id: `note-${seed}`, content: { kind: 'fyi', text: seed } },
    prdId: id,
    sprintId: 'x',
    seed: [seed],
    at: Date.now(),
  });

/** What a project holds after it settled: each id journaled once, every handoff accepted, each deliverable at v1. */
async function checkOnce(rt: Rt, id: string) {
  const ids = (await messagesOf(rt, id)).map((m: any) => m.message_id);
  expect(new Set(ids).size).toBe(ids.length);
  const view = (await rt.call('ada', 'GET', `/org/projects/${id}`)).body;
  expect(view.handoffs).toHaveLength(10);
  expect(view.handoffs.every((h: any) => h.state === 'accepted' && h.rejections === 0)).toBe(true);
  // A turn handled twice would publish a second version of its deliverable.
  expect(view.deliverables.map((d: any) => d.version)).toEqual(view.deliverables.map(() => 1));
}

describe('org projects on the durable run host', () => {
  it('rests once settled: out of the index, its journal unread at start-up, a resent id dropped after rest and restart', async () => {
    const first = await start();
    const id = (await first.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    await settled(first, id);
    await expect.poll(() => unfinished(first), { timeout: 10_000 }).toEqual([]);
    const fyi = note(id, 'resent');
    expect((await first.call('ada', 'POST', '/org/messages', fyi)).status).toBe(202);
    await settled(first, id);
    await expect.poll(() => unfinished(first), { timeout: 10_000 }).toEqual([]);
    // Woken from its rest, the project knows the id from its journal: dropped, journaled once.
    expect((await first.call('ada', 'POST', '/org/messages', fyi)).status).toBe(202);
    await settled(first, id);
    const count = async (rt: Rt) =>
      (await messagesOf(rt, id)).filter((m: any) => m.message_id === fyi.message_id).length;
    expect(await count(first)).toBe(1);
    await stop(first);

    const journal = countedJournal();
    const second = await start(first.dir, journal);
    const projectJournal = join(first.dir, 'journal', 'org', `${id}.ndjson`);
    expect(journal.touched()).not.toContain(projectJournal);
    expect((await second.call('ada', 'POST', '/org/messages', fyi)).status).toBe(202);
    const fresh = note(id, 'fresh');
    expect((await second.call('ada', 'POST', '/org/messages', fresh)).status).toBe(202);
    await settled(second, id);
    expect(await count(second)).toBe(1);
    expect((await messagesOf(second, id)).some((m: any) => m.message_id === fresh.message_id)).toBe(true);
    await checkOnce(second, id);
  });

  it.each([
    ['as soon as it is acknowledged', 0],
    ['midway through its handoffs', 12],
  ])('a project cut off by a restart %s resumes from its journal and settles, each turn once', async (_, after) => {
    const first = await start();
    const id = (await first.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    if (after > 0)
      await expect
        .poll(async () => (await messagesOf(first, id)).length, { interval: 5 })
        .toBeGreaterThanOrEqual(after);
    await stop(first);
    const journaled = (await messagesOf(await start(first.dir), id)).length;
    const second = open.at(-1)!;
    expect(journaled).toBeGreaterThanOrEqual(after);
    await settled(second, id);
    await checkOnce(second, id);
    await expect.poll(() => unfinished(second), { timeout: 10_000 }).toEqual([]);
  });

  it('answers 503 overloaded and 429 too_many_runs with Retry-After while projects work', async () => {
    const dir = (await start()).dir;
    await stop(open.at(-1)!);
    const modules = (await loadSystemModules()).filter((m) => m.name === 'org');
    const rt = await startRuntime({ modules }, dir, { admission: { maxWorking: 2, maxPerOwner: 1 } });
    open.push(rt);
    expect((await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).status).toBe(201);
    const mine = await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD });
    expect(mine.status).toBe(429);
    expect(mine.body.error.code).toBe('too_many_runs');
    expect(mine.response.headers.get('retry-after')).toBe('1');
    expect((await rt.call('bob', 'POST', '/org/projects', { prd: SHOP_PRD })).status).toBe(201);
    const full = await rt.call('cy', 'POST', '/org/projects', { prd: SHOP_PRD });
    expect(full.status).toBe(503);
    expect(full.body.error.code).toBe('overloaded');
    expect(full.response.headers.get('retry-after')).toBe('1');
  });
});
