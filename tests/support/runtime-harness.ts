import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '../../server/auth.ts';
import type { Config } from '../../server/config.ts';
import { openRuntime, type Runtime, type RuntimeOverrides } from '../../server/runtime.ts';
import { readAnswer, requestInit, withToken } from './http-host/http-host.ts';

const SECRET = 'e2e-secret-for-hs256-tokens-only';

/** The whole runtime in-process on a temporary DATA_DIR, with helpers to call it as a user. */
export async function startRuntime(
  overrides: RuntimeOverrides = {},
  dataDir?: string,
  configChanges: Partial<Config> = {},
) {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'runtime-')));
  const config: Config = {
    port: 0,
    dataDir: dir,
    jwtSecret: SECRET,
    primaryModel: 'claude-haiku-4-5',
    ...configChanges,
  };
  const runtime: Runtime = await openRuntime(config, overrides);
  const tokens = new Map<string, string>();
  const token = async (user: string) => tokens.get(user) ?? tokens.set(user, await signToken(user, SECRET)).get(user)!;
  const call = async (user: string, method: string, path: string, body?: unknown) =>
    readAnswer(await runtime.app.request(path, requestInit(await token(user), method, body)));
  // The response unread, as HttpHost.fetch answers it (to read a stream).
  const fetch = async (user: string, path: string, init?: RequestInit) =>
    runtime.app.request(path, withToken(await token(user), init));
  return {
    dir,
    runtime,
    call,
    fetch,
    token,
    async stop(removeData = true) {
      await runtime.close();
      if (removeData) await rm(dir, { recursive: true, force: true });
    },
  };
}
