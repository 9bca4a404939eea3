import { join } from 'node:path';
import { openModelBackends } from '../actors/models/model-backends.ts';
import type { ServiceClock } from '../actors/runtime/clock.ts';
import { openFileJournal, type FileJournalOptions } from '../actors/runtime/file-journal.ts';
import type { Journal } from '../actors/runtime/journal.ts';
import { openLowdbStore } from '../actors/runtime/lowdb-store.ts';
import type { MachineEntry } from '../machines/runtime/machine-entry.ts';
import { MACHINES as RUNTIME_MACHINES } from '../machines/runtime/machines.ts';
import { a2aMounts } from './a2a/a2a-mounts.ts';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import { apiDescriptionRoutes } from './openapi/openapi-routes.ts';
import { RUNTIME_ROUTE_DOCS } from './openapi/runtime-route-docs.ts';
import type { OpenSystem, SystemModule } from './system-module.ts';
import { loadSystemModules } from './system-modules.ts';
import { RunSources } from './viz/run-sources.ts';
import { VIZ_ROUTE_DOCS } from './viz/viz-route-docs.ts';
import { vizRoutes } from './viz/viz-routes.ts';

export interface RuntimeOverrides {
  /** The clock of every actor system (a `SimulatedClock` in tests). */
  clock?: ServiceClock;
  /** The systems to open; every `server/<name>/module.ts` by default. */
  modules?: readonly SystemModule<any>[];
  /** Options per system, by its name (brains, timeouts: what its module's `open` takes). */
  systems?: Readonly<Record<string, unknown>>;
  /** How journal files are opened (tests count the files that start-up touches). */
  journal?: Pick<FileJournalOptions, 'openFile' | 'openRead'>;
}

/**
 * The composition root: opens the data under `DATA_DIR` (refusing to start on a corrupt file it
 * reads: the index of unfinished runs), opens every system module on it (each continues its
 * unfinished runs), and builds the HTTP app over them. It names no system. Start-up reads in
 * proportion to the unfinished runs only: no store file but the index, and a journal partition
 * only when first touched (resting or finished runs are not touched).
 */
export async function openRuntime(config: Config, overrides: RuntimeOverrides = {}) {
  const modules = overrides.modules ?? (await loadSystemModules());
  // Reads no store file: each is checked when read, so start-up does not grow with history.
  const store = await openLowdbStore(join(config.dataDir, 'store'));
  const models = openModelBackends(config);
  const journals = new Map<string, Promise<Journal<any>>>();
  const opened: { module: SystemModule<any>; system: OpenSystem }[] = [];
  const close = async () => {
    for (const { system } of opened.reverse()) await system.close();
    await Promise.all([...journals.values()].map(async (journal) => (await journal).close()));
    await store.close();
  };
  try {
    for (const module of modules) {
      const system = await module.open(
        {
          config,
          store,
          models,
          journal: (name) => {
            if (!journals.has(name))
              journals.set(name, openFileJournal(join(config.dataDir, 'journal', name), overrides.journal));
            return journals.get(name)!;
          },
          ...(overrides.clock ? { clock: overrides.clock } : {}),
        },
        overrides.systems?.[module.name],
      );
      opened.push({ module, system });
    }
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  const runSources = new RunSources();
  for (const { system } of opened) for (const source of system.runSources ?? []) runSources.register(source);
  const machines: MachineEntry[] = [...opened.flatMap(({ module }) => module.machines), ...RUNTIME_MACHINES];
  const protectedRoutes: Record<string, OpenSystem['routes'][string]> = {};
  for (const { module, system } of opened) {
    for (const [path, routes] of Object.entries(system.routes)) {
      if (protectedRoutes[path])
        throw new Error(`Two systems mount ${path}; give ${module.name}'s routes a path of their own.`);
      protectedRoutes[path] = routes;
    }
  }
  const a2a = a2aMounts(
    opened.map(({ module, system }) => ({ name: module.name, title: module.title, mapping: system.a2a })),
    store,
  );
  const app = createApp({
    jwtSecret: config.jwtSecret,
    publicRoutes: {
      '/viz': vizRoutes({ jwtSecret: config.jwtSecret, runSources, machines }),
      ...apiDescriptionRoutes([
        { tag: 'runtime', description: 'Health, the token check and this description', routes: RUNTIME_ROUTE_DOCS },
        ...opened.map(({ module }) => ({
          tag: module.name,
          description: module.title,
          routes: module.routeDocs ?? [],
        })),
        { tag: 'viz', description: 'The statechart visualizer', routes: VIZ_ROUTE_DOCS },
        { tag: 'a2a', description: 'Every system as an Agent2Agent (A2A) agent', routes: a2a.routeDocs },
      ]),
      ...a2a.publicRoutes,
    },
    protectedRoutes: { ...protectedRoutes, ...a2a.protectedRoutes },
  });
  return {
    app,
    runSources,
    machines,
    models,
    /** The systems opened, in order. */
    modules: opened.map(({ module }) => module),
    /** The open systems by name (tests reach a system's service through its module's types). */
    systems: Object.fromEntries(opened.map(({ module, system }) => [module.name, system])) as Readonly<
      Record<string, OpenSystem>
    >,
    close,
  };
}

export type Runtime = Awaited<ReturnType<typeof openRuntime>>;
