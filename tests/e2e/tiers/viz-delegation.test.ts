import { serve, type ServerType } from '@hono/node-server';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_SPECIALISTS } from '../../../actors/tiers/fleet/offline-specialists.ts';
import { DelegationStatusSchema } from '../../../protocol/tiers/delegation-transitions.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { gatedSpecialist } from '../../support/tiers/fleet-hooks.ts';
import { example, settledTask, submitTask, treeNodes, type TiersRuntime } from '../../support/tiers/tiers-e2e.ts';

// The page.evaluate callbacks run in Chromium; the project's lib has no DOM types, so these stay loose.
declare const document: any;

const OUT = 'test-results';

describe('the delegation statechart with live tiers runs, in Chromium', () => {
  let rt: TiersRuntime;
  let server: ServerType;
  let base: string;
  let browser: Browser;
  const solver = gatedSpecialist(OFFLINE_SPECIALISTS['js-solver']!, () => 'hold');

  beforeAll(async () => {
    await mkdir(OUT, { recursive: true });
    rt = await startRuntime({ systems: { tiers: { specialists: { 'js-solver': solver.specialist } } } });
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: rt.runtime.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve(info.port),
      );
    });
    base = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
  }, 60_000);

  afterAll(async () => {
    solver.release();
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await rt?.stop();
  });

  it('lists the user’s running task’s delegations and follows one from working to its terminal status', async () => {
    const taskId = await submitTask(rt, 'ada', await example('tiers-task.json'));
    await solver.startedCount(1);
    const running = treeNodes((await rt.call('ada', 'GET', `/tiers/tasks/${taskId}`)).body.tree);
    const solve = running.find((n) => n.specialist === 'js-solver' && n.status === 'working')!;
    const root = running.find((n) => n.source_tier === 'PROGRESS_MONITOR')!;
    expect(solve).toBeDefined();

    // The list is the owner's: without a token 401, another user sees nothing of ada's.
    expect((await fetch(`${base}/viz/delegation/runs`)).status).toBe(401);
    const listed = async (user: string) =>
      (await (await fetch(`${base}/viz/delegation/runs?token=${await rt.token(user)}`)).json()) as {
        runs: { id: string; state: string; group: string; label: string }[];
      };
    expect((await listed('mallory')).runs).toEqual([]);
    const mine = (await listed('ada')).runs;
    expect(mine.map((r) => r.id).sort()).toEqual(running.map((n) => n.message_id).sort());
    expect(mine.every((r) => r.group === taskId && DelegationStatusSchema.safeParse(r.state).success)).toBe(true);
    expect(mine.find((r) => r.id === solve.message_id)).toMatchObject({
      state: 'working',
      label: 'ROUTING_DISPATCHER → SPECIALIZED_FLEET (js-solver)',
    });

    const stranger = await browser.newPage();
    await stranger.goto(`${base}/viz/delegation?run=${solve.message_id}&token=${await rt.token('mallory')}`);
    await expect.poll(() => stranger.locator('#live-status').textContent()).toContain('cannot be watched');
    await expect.poll(() => stranger.locator('#runs-status').textContent()).toContain('Nothing of yours');
    expect(await stranger.locator('#diagram .active').count()).toBe(0);
    await stranger.close();

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/viz/delegation?token=${await rt.token('ada')}`);
    const item = page.locator(`#run-list li[data-run="${solve.message_id}"]`);
    await expect.poll(() => item.getAttribute('data-state')).toBe('working');
    expect(await page.locator('#run-list li').count()).toBe(running.length);
    await page.screenshot({ path: `${OUT}/viz-delegation-list.png` });
    await item.locator('a').click();
    const active = () => page.evaluate(() => document.body.dataset.active ?? '');
    await expect.poll(active).toBe('delegation.working');
    expect(await page.locator('#run-list li.watched').getAttribute('data-run')).toBe(solve.message_id);

    solver.release();
    await expect.poll(active, { timeout: 30_000 }).toBe('delegation.success');
    const marks = await page.evaluate(() => ({
      active: [...document.querySelectorAll('#diagram g.state.active')].map((g: any) => g.id),
      edge: document.getElementById('delegation.working->delegation.success')?.classList.contains('taken') ?? false,
      current: document.getElementById('live-state')?.textContent,
    }));
    expect(marks).toEqual({ active: ['delegation.success'], edge: true, current: 'success' });
    expect((await page.locator('#recent li').allTextContents())[0]).toContain('working → success');
    await page.screenshot({ path: `${OUT}/viz-delegation-live.png` });

    // Once the task ended, nothing of it is listed, and a delegation is read from its journals.
    const { view } = await settledTask(rt, 'ada', taskId);
    expect(view.status).toBe('success');
    await expect
      .poll(() => page.locator('#runs-status').textContent(), { timeout: 15_000 })
      .toContain('Nothing of yours');
    await page.goto(`${base}/viz/delegation?run=${root.message_id}`);
    await expect.poll(active).toBe('delegation.success');
    await page.close();
  }, 120_000);
});
