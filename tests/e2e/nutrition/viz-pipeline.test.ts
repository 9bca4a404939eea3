import { serve, type ServerType } from '@hono/node-server';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { offlineNutritionBrains } from '../../../actors/nutrition/offline-brains.ts';
import type { AgentBrainLogic } from '../../../machines/runtime/agent.ts';
import type { NutritionWorker } from '../../../machines/nutrition/nutrition-system.ts';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import { PIPELINE_EDGES, PipelineStateSchema } from '../../../protocol/nutrition/pipeline-transitions.ts';
import type { MachineGraph } from '../../../server/viz/machine-graph.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { VALID_PAYLOADS } from '../../unit/protocol/nutrition/fixtures.ts';

// The page.evaluate callbacks run in Chromium; the project's lib has no DOM types, so these stay loose.
declare const document: any;
declare const location: any;
type Element = any;

const OUT = 'test-results';
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Holds each agent's work until the test lets that agent through, so the run advances on cue. */
function createGate() {
  const open = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  return {
    wait: (agent: string) =>
      open.has(agent)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.set(agent, [...(waiting.get(agent) ?? []), resolve])),
    open(agent: string) {
      open.add(agent);
      for (const resolve of waiting.get(agent) ?? []) resolve();
      waiting.delete(agent);
    },
  };
}
type Gate = ReturnType<typeof createGate>;

/** The offline brains, each waiting at the gate before it works. */
function gatedBrains(gate: Gate): Record<NutritionWorker, AgentBrainLogic> {
  const brains = offlineNutritionBrains() as Record<NutritionWorker, AgentBrainLogic>;
  const entries = Object.entries(brains).map(([agent, brain]) => [
    agent,
    fromPromise<any, AgentBrainInput>(async ({ input }) => {
      await gate.wait(agent);
      return toPromise(createActor(brain, { input }).start());
    }),
  ]);
  return Object.fromEntries(entries) as Record<NutritionWorker, AgentBrainLogic>;
}

/** In the page: labels that overlap (state and label boxes, text outside its box, text over text). */
function overlapsIn(page: Page) {
  return page.evaluate(() => {
    type Box = { id: string; l: number; t: number; r: number; b: number };
    const box = (id: string, el: Element): Box => {
      const r = el.getBoundingClientRect();
      return { id, l: r.left, t: r.top, r: r.right, b: r.bottom };
    };
    const hit = (a: Box, b: Box, slack = 0.5) =>
      a.l < b.r - slack && b.l < a.r - slack && a.t < b.b - slack && b.t < a.b - slack;
    const inside = (a: Box, b: Box, slack = 1) =>
      a.l >= b.l - slack && a.r <= b.r + slack && a.t >= b.t - slack && a.b <= b.b + slack;
    const problems: string[] = [];
    const nodes = [...document.querySelectorAll('#diagram g.node')].map((g) => ({
      g,
      shape: box(g.id, g.querySelector('path, polygon, ellipse')!),
    }));
    nodes.forEach((a, i) =>
      nodes
        .slice(i + 1)
        .forEach((b) => hit(a.shape, b.shape) && problems.push(`box ${a.shape.id} overlaps ${b.shape.id}`)),
    );
    for (const { g, shape } of nodes)
      for (const text of g.querySelectorAll('text'))
        if (!inside(box('', text), shape)) problems.push(`text "${text.textContent}" leaves ${g.id}`);
    // Adjacent lines' glyph boxes touch; a quarter of each line's height is trimmed top and bottom.
    const texts = [...document.querySelectorAll('#diagram text')].map((t) => {
      const b = box(t.textContent ?? '', t);
      const trim = (b.b - b.t) / 4;
      return { ...b, t: b.t + trim, b: b.b - trim };
    });
    texts.forEach((a, i) =>
      texts.slice(i + 1).forEach((b) => hit(a, b) && problems.push(`"${a.id}" overlaps "${b.id}"`)),
    );
    return { problems, nodes: nodes.length, texts: texts.length };
  });
}

describe('statechart visualizer in Chromium', () => {
  let harness: Awaited<ReturnType<typeof startRuntime>>;
  let server: ServerType;
  let base: string;
  let browser: Browser;
  const gate = createGate();

  beforeAll(async () => {
    await mkdir(OUT, { recursive: true });
    gate.open('PHYSICIAN');
    harness = await startRuntime({ systems: { nutrition: { brains: gatedBrains(gate) } } });
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: harness.runtime.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve(info.port),
      );
    });
    base = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    for (const agent of ['INTAKE', 'SCIENTIST', 'NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH']) gate.open(agent);
    await new Promise((resolve) => server?.close(resolve));
    await harness?.stop();
  });

  it.each(VIEWPORTS)(
    'shows the nine states of spec 000 §1 and all their transitions at $width x $height, no label overlapping',
    async (viewport) => {
      const page = await browser.newPage({ viewport });
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.goto(`${base}/viz/pipeline`);
      const graph = (await (await fetch(`${base}/viz/pipeline.json`)).json()) as MachineGraph;
      const present = await page.evaluate(
        (ids) => ids.filter((id) => document.getElementById(id) !== null),
        [
          ...PipelineStateSchema.options.map((s) => `pipeline.${s}`),
          ...graph.transitions.map((t) => t.id),
          ...PIPELINE_EDGES.map(({ from, to }) => `pipeline.${from}->pipeline.${to}`),
        ],
      );
      expect(present.filter((id) => PipelineStateSchema.options.some((s) => id === `pipeline.${s}`))).toHaveLength(9);
      expect(graph.transitions.length).toBeGreaterThan(100);
      expect(graph.transitions.filter((t) => !present.includes(t.id))).toEqual([]);
      expect(PIPELINE_EDGES.filter(({ from, to }) => !present.includes(`pipeline.${from}->pipeline.${to}`))).toEqual(
        [],
      );

      const { problems, nodes, texts } = await overlapsIn(page);
      expect(nodes).toBeGreaterThan(30);
      expect(texts).toBeGreaterThan(200);
      expect(problems).toEqual([]);

      // Usable: nothing spills sideways out of the page, the zoom works, and nothing came from elsewhere.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: `${OUT}/viz-pipeline-${viewport.width}x${viewport.height}.png` });
      const zoom = async () => Number(await page.evaluate(() => document.body.dataset.zoom));
      const before = await zoom();
      await page.getByRole('button', { name: 'Zoom in' }).click();
      expect(await zoom()).toBeGreaterThan(before);
      await page.getByRole('button', { name: 'Fit' }).click();
      expect(requests.filter((url) => !url.startsWith(base))).toEqual([]);
      await page.close();
    },
  );

  it('follows a running pipeline: the highlighted state moves with the run, for its owner only', async () => {
    const created = await harness.call('alice', 'POST', '/pipelines', VALID_PAYLOADS.intake_data);
    expect(created.status).toBe(201);
    const runId = created.body.pipeline_run_id as string;

    const stranger = await browser.newPage({ viewport: VIEWPORTS[0] });
    await stranger.goto(`${base}/viz/pipeline?run=${runId}&token=${await harness.token('mallory')}`);
    await expect.poll(() => stranger.locator('#live-status').textContent()).toContain('cannot be watched');
    expect(await stranger.locator('#diagram .active').count()).toBe(0);
    await stranger.close();

    const page = await browser.newPage({ viewport: VIEWPORTS[1] });
    await page.goto(`${base}/viz/pipeline?run=${runId}&token=${await harness.token('alice')}`);
    const active = () => page.evaluate(() => document.body.dataset.active ?? '');
    await expect.poll(active).toBe('pipeline.intake_pending');
    expect(await page.evaluate(() => location.search)).not.toContain('token=');

    const steps: [string, string][] = [
      ['INTAKE', 'scientist_processing'],
      ['SCIENTIST', 'nutritionist_processing'],
      ['NUTRITIONIST', 'dietitian_processing'],
      ['DIETITIAN', 'chef_processing'],
      ['CHEF', 'coach_processing'],
      ['COACH', 'output_ready'],
    ];
    let previous = 'pipeline.intake_pending';
    for (const [agent, state] of steps) {
      gate.open(agent);
      await expect.poll(active, { timeout: 15_000 }).toBe(`pipeline.${state}`);
      const marks = await page.evaluate(
        ([from, to]) => ({
          active: [...document.querySelectorAll('#diagram g.state.active')].map((g) => g.id),
          edge: document.getElementById(`${from}->${to}`)?.classList.contains('taken') ?? false,
          current: document.getElementById('live-state')?.textContent,
        }),
        [previous, `pipeline.${state}`],
      );
      expect(marks).toEqual({ active: [`pipeline.${state}`], edge: true, current: state });
      if (state === 'chef_processing') await page.screenshot({ path: `${OUT}/viz-pipeline-live-chef.png` });
      previous = `pipeline.${state}`;
    }
    const recent = await page.locator('#recent li').allTextContents();
    expect(recent[0]).toContain('coach_processing → output_ready');
    expect(recent.some((line) => line.includes('intake_pending → scientist_processing'))).toBe(true);
    await page.screenshot({ path: `${OUT}/viz-pipeline-live-done.png` });
    await page.close();
  });
});
