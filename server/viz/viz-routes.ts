import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { MachineEntry } from '../../machines/runtime/machine-entry.ts';
import { NotFoundError } from '../../protocol/runtime/runtime-error.ts';
import { activeStateIds, liveUpdateOf, type LiveTransition } from './live-update.ts';
import { machineExports, type MachineExports } from './machine-exports.ts';
import type { RunSources } from './run-sources.ts';
import { VIZ_ASSETS } from './viz-assets.ts';
import { indexPage, machinePage } from './viz-page.ts';
import { rememberToken, vizUserId } from './viz-token.ts';

interface VizRoutesOptions {
  /** The HS256 secret of the API's tokens: a live run is shown to its owner only. */
  jwtSecret: string;
  runSources: RunSources;
  /** The machines to draw: the runtime's and every open system's. */
  machines: readonly MachineEntry[];
}

function exportsOf(machines: readonly MachineEntry[], name: string): MachineExports {
  const entry = machines.find((candidate) => candidate.name === name);
  if (!entry) throw new NotFoundError(`Machine ${name} (see GET /viz for the list)`);
  return machineExports(entry);
}

const EXPORT_FILE = /^(.+)\.(json|mmd|svg)$/;

async function exportFile(c: Context, machines: readonly MachineEntry[], file: string) {
  const [, name, kind] = EXPORT_FILE.exec(file)!;
  const exports = exportsOf(machines, name!);
  if (kind === 'json') return c.json(exports.json);
  if (kind === 'mmd') return c.body(exports.mermaid, 200, { 'content-type': 'text/vnd.mermaid; charset=utf-8' });
  return c.body(await exports.svg(), 200, { 'content-type': 'image/svg+xml; charset=utf-8' });
}

/**
 * The statechart visualizer (`/viz`): the list of machines, each machine's page and exports,
 * and, for the run's owner, the live run as Server-Sent Events.
 */
export function vizRoutes(options: VizRoutesOptions) {
  const { jwtSecret, runSources, machines } = options;
  return new Hono()
    .get('/', (c) => c.html(indexPage(machines.map(machineExports))))
    .get('/machines.json', (c) =>
      c.json({
        machines: machines.map(({ name, title, summary, source }) => ({
          name,
          title,
          summary,
          source,
          json: `/viz/${name}.json`,
          mermaid: `/viz/${name}.mmd`,
          svg: `/viz/${name}.svg`,
          page: `/viz/${name}`,
        })),
      }),
    )
    .get('/assets/:file', (c) => {
      const file = c.req.param('file');
      const asset = Object.hasOwn(VIZ_ASSETS, file) ? VIZ_ASSETS[file] : undefined;
      if (!asset) throw new NotFoundError(`Asset ${file}`);
      return c.body(asset.body, 200, { 'content-type': asset.type, 'cache-control': 'no-cache' });
    })
    .get('/:machine', async (c) => {
      const param = c.req.param('machine');
      if (EXPORT_FILE.test(param)) return exportFile(c, machines, param);
      const exports = exportsOf(machines, param);
      const run = c.req.query('run') || undefined;
      await rememberToken(c, jwtSecret);
      const { name } = exports.entry;
      return c.html(machinePage(exports, await exports.svg(), run, runSources.has(name), runSources.listable(name)));
    })
    .get('/:machine/runs', async (c) => {
      const { entry } = exportsOf(machines, c.req.param('machine'));
      const userId = await vizUserId(c, jwtSecret);
      return c.json({ machine: entry.name, runs: await runSources.list(entry.name, userId) });
    })
    .get('/:machine/runs/:runId/events', async (c) => {
      const { graph, entry } = exportsOf(machines, c.req.param('machine'));
      const runId = c.req.param('runId');
      const userId = await vizUserId(c, jwtSecret);
      const view = await runSources.open(entry.name, userId, runId);
      return streamSSE(c, async (stream) => {
        const queue: LiveTransition[] = [];
        let wake: (() => void) | undefined;
        // Subscribe and read the state in one tick, so no transition falls between the two.
        const unsubscribe = view.subscribe((event) => {
          const update = liveUpdateOf(graph, event);
          if (!update) return;
          queue.push(update);
          wake?.();
        });
        const active = activeStateIds(graph, view.value());
        const history = view.recent?.() ?? [];
        stream.onAbort(() => {
          unsubscribe();
          wake?.();
        });
        try {
          await stream.writeSSE({
            event: 'snapshot',
            data: JSON.stringify({ machine: entry.name, run: runId, active }),
          });
          await stream.writeSSE({ event: 'history', data: JSON.stringify({ transitions: history }) });
          while (!stream.aborted) {
            for (const update of queue.splice(0))
              await stream.writeSSE({ event: 'transition', data: JSON.stringify(update) });
            if (queue.length === 0 && !stream.aborted) await new Promise<void>((resolve) => (wake = resolve));
          }
        } finally {
          unsubscribe();
        }
      });
    });
}
