import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Where a Restate server listens: its ingress (invocations) and its admin API (deployments). */
export interface RestateUrls {
  ingressUrl: string;
  adminUrl: string;
}

export interface RestateServerOptions {
  /** Its data (`DATA_DIR/restate`): the same folder after a restart keeps every invocation's journal. */
  dataDir: string;
  ingressPort: number;
  adminPort: number;
  /** Its node-to-node port (one node here, but it binds one). */
  nodePort: number;
}

/** How the server this module starts retries an invocation whose service process failed (Restate's `default-retry-policy`). */
export const RETRY_POLICY = { initialInterval: '100ms', maxInterval: '2s', maxAttempts: '1800' } as const;

/** A Restate server process started from the `@restatedev/restate-server` package. */
export interface RestateServer extends RestateUrls {
  readonly process: ChildProcess;
  /** Sends `signal` (SIGTERM by default) and resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The server binary of the platform package npm installed beside `@restatedev/restate-server`. */
export function restateServerBinary(): string {
  const require = createRequire(import.meta.url);
  const platformPackage = `@restatedev/restate-server-${process.platform}-${process.arch}`;
  try {
    return join(require.resolve(`${platformPackage}/package.json`), '..', 'bin', 'restate-server');
  } catch {
    throw new Error(
      `${platformPackage} is not installed: run \`SCARF_ANALYTICS=false npm install\` (npm installs the Restate server binary of this platform).`,
    );
  }
}

/**
 * The environment the server runs with: `process.env`, its addresses, and its log filter and
 * `default-retry-policy` unless the environment sets them. A service process killed or
 * restarted is back within seconds (node:cluster replaces it), so its invocations are tried
 * again every 2 s at most, not up to a minute apart as Restate's default does, and paused (kept,
 * for an operator to resume) only after about an hour of failures.
 */
export function restateServerEnv(
  options: Pick<RestateServerOptions, 'ingressPort' | 'adminPort' | 'nodePort'>,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    ...env,
    RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${options.ingressPort}`,
    RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${options.adminPort}`,
    RESTATE_BIND_ADDRESS: `127.0.0.1:${options.nodePort}`,
    RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${options.nodePort}`,
    RESTATE_LOG_FILTER: env.RESTATE_LOG_FILTER ?? 'warn',
    RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL:
      env.RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL ?? RETRY_POLICY.initialInterval,
    RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL:
      env.RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL ?? RETRY_POLICY.maxInterval,
    RESTATE_DEFAULT_RETRY_POLICY__MAX_ATTEMPTS:
      env.RESTATE_DEFAULT_RETRY_POLICY__MAX_ATTEMPTS ?? RETRY_POLICY.maxAttempts,
  };
}

/**
 * Starts a Restate server on localhost with its data under `dataDir`, and resolves once its
 * admin API answers. Its output goes to `dataDir/server.log`.
 *
 * @example
 * const server = await startRestateServer({ dataDir: 'data/restate', ingressPort: 8080, adminPort: 9070, nodePort: 5122 });
 * await registerDeployment(server.adminUrl, 'http://127.0.0.1:9080');
 */
export async function startRestateServer(options: RestateServerOptions): Promise<RestateServer> {
  mkdirSync(options.dataDir, { recursive: true });
  const log = openSync(join(options.dataDir, 'server.log'), 'a');
  const child = spawn(
    restateServerBinary(),
    ['--no-logo', '--listen-mode', 'tcp', '--base-dir', options.dataDir, '--default-num-partitions', '4'],
    {
      stdio: ['ignore', log, log],
      env: restateServerEnv(options),
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const urls = {
    ingressUrl: `http://127.0.0.1:${options.ingressPort}`,
    adminUrl: `http://127.0.0.1:${options.adminPort}`,
  };
  let gone = false;
  void exited.then(() => (gone = true));
  while (!(await answers(`${urls.adminUrl}/health`)) || !(await answers(`${urls.ingressUrl}/restate/health`))) {
    if (gone) throw new Error(`The Restate server exited at start-up: see ${join(options.dataDir, 'server.log')}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    ...urls,
    process: child,
    stop: async (signal = 'SIGTERM') => {
      if (!gone) child.kill(signal);
      await exited;
    },
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/**
 * Registers (or registers again, `force`) the service endpoint at `endpointUrl` with the Restate
 * deployment whose admin API is `adminUrl`: Restate reads the services it serves and sends their
 * invocations there from then on.
 */
export async function registerDeployment(adminUrl: string, endpointUrl: string): Promise<void> {
  const response = await fetch(`${adminUrl}/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri: endpointUrl, force: true }),
  });
  if (!response.ok)
    throw new Error(
      `Restate at ${adminUrl} refused the deployment ${endpointUrl} (${response.status}): ${await response.text()}`,
    );
}
