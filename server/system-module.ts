import type { Hono } from 'hono';
import type { ServiceClock } from '../actors/runtime/clock.ts';
import type { ModelBackends } from '../actors/models/model-backends.ts';
import type { Journal } from '../actors/runtime/journal.ts';
import type { Store } from '../actors/runtime/store.ts';
import type { MachineEntry } from '../machines/runtime/machine-entry.ts';
import type { A2aMapping } from './a2a/a2a-mapping.ts';
import type { Config } from './config.ts';
import type { RouteDoc } from './openapi/route-doc.ts';
import type { RestateServices } from './restate/service-endpoint.ts';
import type { RunSource } from './viz/run-sources.ts';

/** An environment variable a system reads beyond the runtime's own (README, Configuration). */
export interface ConfigKey {
  name: string;
  meaning: string;
}

/** What the runtime lends every system it opens: shared storage, the clock and the configuration. */
export interface SystemServices {
  /** The configuration; a run host takes `config.admission` as its limits. */
  config: Config;
  /** The one store (lowdb files under `DATA_DIR/store`); name collections `<system>/...`. */
  store: Store;
  /**
   * The journal in `DATA_DIR/journal/<name>`, opened once and closed by the runtime after the
   * system. Opening reads no partition: each is read and checked when first touched.
   */
  journal<T>(name: string): Promise<Journal<T>>;
  /** The one choice of model-backed or offline brains, from the configured keys (`choose`). */
  models: ModelBackends;
  /** The clock of every actor system (a `SimulatedClock` in tests); real time when absent. */
  clock?: ServiceClock;
}

/** A system once open: its routes and live views, and how it stops. */
export interface OpenSystem {
  /** Route groups behind bearer auth, by mount path (`/pipelines`). */
  routes: Readonly<Record<string, Hono<any>>>;
  /** Where the visualizer's live view finds the system's runs, one source per machine. */
  runSources?: readonly RunSource[];
  /** How the system speaks A2A (`/a2a/<name>/`): what starts its work, its states, its artifacts. */
  a2a?: A2aMapping;
  /** Stops its runs and waits for their last writes (the runtime closes the journals after). */
  close(): Promise<void>;
}

/**
 * One multi-agent system as the runtime opens it (the nutrition pipeline, the trainer, ...). The
 * runtime knows systems only through this interface: it opens each on the shared services,
 * mounts its routes, draws its machines and closes it. A module lives in `server/<name>/module.ts`
 * (its default export), its machines in `machines/<name>/`, its brains in `actors/<name>/`.
 *
 * @example
 * export default defineSystemModule({ name: 'echo', title: 'Echo', machines: MACHINES, open: async (services) => ({ routes: { '/echo': routes }, close: async () => {} }) });
 */
export interface SystemModule<Options = never> {
  /** The one name of the system (DESIGN.md's table): its folders, store collections and journals. */
  readonly name: string;
  readonly title: string;
  /** Its spec in `shared/seeds/`, if it has one. */
  readonly spec?: string;
  readonly configKeys?: readonly ConfigKey[];
  /** Its statecharts, for the visualizer. */
  readonly machines: readonly MachineEntry[];
  /** Its routes as `GET /openapi.json` describes them (full paths); a test holds them to the app's routes. */
  readonly routeDocs?: readonly RouteDoc[];
  /**
   * How it runs on Restate (`npm run start:cluster`): the services (objects, services) its
   * service processes serve, and the options its `open` takes in the API process to reach them
   * through the ingress.
   */
  readonly restate?: { services(models: ModelBackends): RestateServices; options(ingressUrl: string): Options };
  /** Opens the system; `options` are what tests and benchmarks may swap in (brains, timeouts). */
  open(services: SystemServices, options?: Options): Promise<OpenSystem>;
}

/** Types a module (an identity function, so a module's file reads as a declaration). */
export function defineSystemModule<Options = never>(module: SystemModule<Options>): SystemModule<Options> {
  return module;
}
