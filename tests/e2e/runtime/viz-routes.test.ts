import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MACHINES } from '../../../machines/registry.ts';
import { HttpErrorBodySchema } from '../../../protocol/runtime/http-error.ts';
import { signToken } from '../../../server/auth.ts';
import { machineGraph } from '../../../server/viz/machine-graph.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { VALID_PAYLOADS } from '../../unit/protocol/nutrition/fixtures.ts';

/** Reads Server-Sent Events until `count` have come, then hangs up. */
async function firstEvents(response: Response, count: number) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const events: { event: string; data: any }[] = [];
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const blocks = text.split('\n\n');
    text = blocks.pop()!;
    for (const block of blocks) {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data) events.push({ event, data: JSON.parse(data) });
    }
  }
  await reader.cancel();
  return events;
}

describe('/viz routes', () => {
  let harness: Awaited<ReturnType<typeof startRuntime>>;
  let runId: string;
  const get = (path: string, headers: Record<string, string> = {}) => harness.runtime.app.request(path, { headers });

  beforeAll(async () => {
    harness = await startRuntime();
    const created = await harness.call('owner', 'POST', '/pipelines', VALID_PAYLOADS.intake_data);
    runId = created.body.pipeline_run_id;
  });
  afterAll(() => harness.stop());

  it('lists every registered machine, in HTML and JSON, without a token', async () => {
    const html = await (await get('/viz')).text();
    const list = (await (await get('/viz/machines.json')).json()) as { machines: { name: string }[] };
    // The server lists systems in module (spec) order, the registry by folder: the same machines.
    expect(list.machines.map((m) => m.name).sort()).toEqual(MACHINES.map((m) => m.name).sort());
    for (const { name } of MACHINES) expect(html).toContain(`href="/viz/${name}"`);
  });

  it.each(MACHINES.map((m) => [m.name, m] as const))(
    'serves %s as a page, JSON, Mermaid and SVG',
    async (name, entry) => {
      const json = await get(`/viz/${name}.json`);
      expect(json.headers.get('content-type')).toContain('application/json');
      expect(await json.json()).toEqual(JSON.parse(JSON.stringify(machineGraph(entry.machine))));
      const mmd = await get(`/viz/${name}.mmd`);
      expect(mmd.headers.get('content-type')).toContain('text/vnd.mermaid');
      expect(await mmd.text()).toMatch(/^stateDiagram-v2\n/);
      const svg = await get(`/viz/${name}.svg`);
      expect(svg.headers.get('content-type')).toContain('image/svg+xml');
      expect(await svg.text()).toContain('<svg');
      const page = await (await get(`/viz/${name}`)).text();
      expect(page).toContain('<svg');
      // Every asset is the app's own: no CDN, no other origin.
      for (const [, url] of page.matchAll(/(?:src|href)="([^"]*)"/g))
        expect(url, url).toMatch(/^(\/viz(\/|$)|#|data:)/);
    },
  );

  it('serves its own script and stylesheet, and 404s what is not there', async () => {
    expect((await get('/viz/assets/viz.js')).headers.get('content-type')).toContain('text/javascript');
    expect((await get('/viz/assets/viz.css')).headers.get('content-type')).toContain('text/css');
    for (const path of ['/viz/assets/evil.js', '/viz/nowhere', '/viz/nowhere.svg']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(HttpErrorBodySchema.parse(await response.json()).error.code).toBe('not_found');
    }
  });

  it('streams a run to its owner only: 401 without a valid token, 404 to anyone else', async () => {
    const path = `/viz/pipeline/runs/${runId}/events`;
    expect((await get(path)).status).toBe(401);
    expect((await get(`${path}?token=not-a-jwt`)).status).toBe(401);
    expect((await get(`${path}?token=${await signToken('owner', 'some-other-secret-entirely')}`)).status).toBe(401);
    const stranger = await get(`${path}?token=${await harness.token('stranger')}`);
    expect(stranger.status).toBe(404);
    expect((await get(`/viz/pipeline/runs/no-such-run/events?token=${await harness.token('owner')}`)).status).toBe(404);
    // The agent machine has no run source: nothing of it can be watched.
    expect((await get(`/viz/agent/runs/${runId}/events?token=${await harness.token('owner')}`)).status).toBe(404);

    const owner = await get(`${path}?token=${await harness.token('owner')}`);
    expect(owner.status).toBe(200);
    expect(owner.headers.get('content-type')).toContain('text/event-stream');
    const [snapshot, history] = await firstEvents(owner, 2);
    expect(snapshot).toMatchObject({ event: 'snapshot', data: { machine: 'pipeline', run: runId } });
    expect(snapshot!.data.active[0]).toBe('pipeline');
    expect(history!.event).toBe('history');
    expect(history!.data.transitions[0].transitions).toEqual(['pipeline.intake_pending:pipeline.start:0']);
  });

  it('keeps a valid ?token= in an HttpOnly cookie that the stream accepts', async () => {
    const page = await get(`/viz/pipeline?run=${runId}&token=${await harness.token('owner')}`);
    const cookie = page.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^viz_token=[^;]+;/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/viz/);
    const stream = await get(`/viz/pipeline/runs/${runId}/events`, { cookie: cookie.split(';')[0]! });
    expect(stream.status).toBe(200);
    await stream.body!.cancel();
    const bad = await get(`/viz/pipeline?run=${runId}&token=forged`);
    expect(bad.headers.get('set-cookie')).toBeNull();
  });
});
