import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '../../../server/auth.ts';
import { afterAll, beforeAll } from 'vitest';
import { killAllServers, startServer } from '../crash/server-process.ts';
import { restateQuery } from '../restate/cluster-calls.ts';
import { clusterEnv } from '../restate/free-port.ts';
import { readAnswer, requestInit, withToken, type HttpHost } from './http-host.ts';

const SECRET = 'cluster-http-secret-0123456789abcdef';

/** A cluster host: an {@link HttpHost} whose Restate server's admin API can be asked what it ran. */
export interface ClusterHost extends HttpHost {
  /** Rows of Restate's introspection SQL (`POST <admin>/query`), e.g. over `sys_invocation`. */
  query(sql: string): Promise<Record<string, unknown>[]>;
}

/**
 * The cluster host: `npm run start:cluster` (`server/cluster-main.ts`) as a real process group on
 * a fresh DATA_DIR: a Restate server, `workers` service processes and the HTTP API, every port
 * free, `SCARF_ANALYTICS=false`, offline brains. Starting one takes 10-20 s: start one per file.
 *
 * @example
 * const host = await startClusterHost();
 * expect((await host.call('ada', 'GET', '/pipelines')).status).toBe(200);
 * await host.stop();
 */
export async function startClusterHost(workers = 2): Promise<ClusterHost> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cluster-http-'));
  const env: Record<string, string> = {
    ...(await clusterEnv(workers)),
  };
  const server = await startServer({
    entry: 'server/cluster-main.ts',
    dataDir,
    jwtSecret: SECRET,
    env,
    timeoutMs: 120_000,
  }).catch(async (error: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  const tokens = new Map<string, Promise<string>>();
  const token = (user: string) => tokens.get(user) ?? tokens.set(user, signToken(user, SECRET)).get(user)!;
  return {
    kind: 'cluster',
    url: server.url,
    token,
    call: async (user, method, path, body) =>
      readAnswer(await fetch(`${server.url}${path}`, requestInit(await token(user), method, body))),
    fetch: async (user, path, init) => fetch(`${server.url}${path}`, withToken(await token(user), init)),
    query: (sql) => restateQuery(`http://127.0.0.1:${env.RESTATE_ADMIN_PORT}`, sql),
    async stop() {
      try {
        const code = await server.stop(60_000);
        if (code !== 0)
          throw new Error(`The cluster exited with code ${code} on SIGTERM.\n--- its stderr ---\n${server.stderr()}`);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * One cluster host for the test file that calls this (at its top level): started before its
 * tests (`workers` service processes), stopped after them. Answers the host; a test that runs
 * when the cluster did not start fails naming the start.
 *
 * @example
 * const cluster = clusterForFile();
 * describePipelineHttp(cluster);
 */
export function clusterForFile(workers = 2): () => ClusterHost {
  let host: ClusterHost | undefined;
  beforeAll(async () => {
    host = await startClusterHost(workers);
  }, 120_000);
  afterAll(async () => {
    try {
      await host?.stop();
    } finally {
      await killAllServers();
    }
  }, 90_000);
  return () => {
    if (!host) throw new Error('The cluster did not start (see beforeAll).');
    return host;
  };
}
