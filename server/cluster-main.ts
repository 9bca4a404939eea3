/**
 * `npm run start:cluster`: the runtime with the systems that declare `restate` on Restate (the
 * nutrition pipeline's runs are `nutrition-host` objects; the tiers' brain and sandbox calls are
 * `tiers-run` calls). One process group: a Restate server (data under DATA_DIR/restate; none
 * when RESTATE_INGRESS_URL and RESTATE_ADMIN_URL name an existing deployment), RESTATE_WORKERS
 * service processes (2 by default; node:cluster workers sharing RESTATE_ENDPOINT_PORT, the one
 * endpoint Restate knows) serving those systems' services, and this process, the HTTP API of
 * `npm start`. SIGTERM stops them all.
 */
import cluster from 'node:cluster';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { openModelBackends } from '../actors/models/model-backends.ts';
import { RuntimeError } from '../protocol/runtime/runtime-error.ts';
import { loadConfig, type Config } from './config.ts';
import { registerDeployment, startRestateServer, type RestateServer } from './restate/restate-server.ts';
import { serveRestateEndpoint } from './restate/service-endpoint.ts';
import { openRuntime } from './runtime.ts';
import type { SystemModule } from './system-module.ts';
import { loadSystemModules } from './system-modules.ts';

const env = process.env;
// The SDK logs each invocation's start and end at INFO; warnings and errors are what an operator needs.
env.RESTATE_LOGGING ??= 'WARN';
const endpointPort = Number(env.RESTATE_ENDPOINT_PORT ?? 9080);

try {
  const config = await loadConfig();
  // The systems whose module says how they run on Restate; the others run as under `npm start`.
  const modules = (await loadSystemModules()).filter((module) => module.restate);
  if (cluster.isPrimary) await primary(config, modules);
  else {
    const models = openModelBackends(config);
    await serveRestateEndpoint(
      modules.flatMap((module) => [...module.restate!.services(models)]),
      endpointPort,
    );
  }
} catch (error) {
  console.error(error instanceof RuntimeError || error instanceof Error ? `Cannot start: ${error.message}` : error);
  process.exit(1);
}

async function primary(config: Config, modules: readonly SystemModule<any>[]) {
  const workers = Number(env.RESTATE_WORKERS ?? 2);
  if (!Number.isInteger(workers) || workers < 1)
    throw new Error(
      `RESTATE_WORKERS must be a whole number of service processes, 1 or more (got ${env.RESTATE_WORKERS}).`,
    );
  let restate: RestateServer | undefined;
  let stopping = false;
  let urls = { ingressUrl: env.RESTATE_INGRESS_URL ?? '', adminUrl: env.RESTATE_ADMIN_URL ?? '' };
  const startOwnServer = async (): Promise<RestateServer> => {
    const started = await startRestateServer({
      dataDir: join(config.dataDir, 'restate'),
      ingressPort: Number(env.RESTATE_INGRESS_PORT ?? 8080),
      adminPort: Number(env.RESTATE_ADMIN_PORT ?? 9070),
      nodePort: Number(env.RESTATE_NODE_PORT ?? 5122),
    });
    restate = started;
    // A Restate server that dies is started again on its data: its invocations go on from its journal.
    started.process.once('exit', () => {
      if (!stopping)
        startOwnServer().then(printProcesses, (error: Error) =>
          console.error(`Cannot restart Restate: ${error.message}`),
        );
    });
    return started;
  };
  /** The group's pids, printed at start-up and when Restate was started again (tests kill them). */
  const printProcesses = () => {
    const pids = Object.values(cluster.workers ?? {}).map((worker) => worker?.process.pid);
    console.log(
      `Processes: restate-server ${restate?.process.pid ?? '(external)'}, service processes ${pids.join(' ')}`,
    );
  };
  if (!urls.ingressUrl || !urls.adminUrl) urls = await startOwnServer();
  // A worker that dies (kill -9) is replaced; meanwhile Restate retries its invocations on the others.
  cluster.on('exit', () => {
    if (stopping) return;
    cluster.fork();
    printProcesses();
  });
  const listening = Array.from({ length: workers }, () => {
    const worker = cluster.fork();
    return new Promise((resolve) => worker.once('listening', resolve));
  });
  await Promise.all(listening);
  await registerDeployment(urls.adminUrl, `http://127.0.0.1:${endpointPort}`);

  const runtime = await openRuntime(config, {
    systems: Object.fromEntries(modules.map((module) => [module.name, module.restate!.options(urls.ingressUrl)])),
  });
  const server = serve({ fetch: runtime.app.fetch, port: config.port }, (info) => {
    const url = `http://localhost:${info.port}`;
    console.log(`Agent runtime (cluster) listening on ${url} (data in ${config.dataDir})`);
    console.log(
      `Restate: ingress ${urls.ingressUrl}, admin ${urls.adminUrl}; ${workers} service processes on :${endpointPort}`,
    );
    printProcesses();
    console.log(`Health: curl ${url}/health`);
  });
  const shutdown = () => {
    stopping = true;
    server.close();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    runtime
      .close()
      .then(() => restate?.stop())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
