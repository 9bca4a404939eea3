/**
 * The personal trainer (spec 001): chat turns per second over HTTP on the offline model (file
 * journals and lowdb on, as served) against a bare Hono JSON route in the same run; and, on the
 * real Anthropic SDK against the fake model server, the share of input tokens read from the
 * prompt cache at each iteration of a turn (§4.2, §12.8).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { signToken } from '../server/auth.ts';
import type { Config } from '../server/config.ts';
import { openRuntime } from '../server/runtime.ts';
import { startFakeModelServer } from '../tests/support/models/fake-model-server.ts';
import { USER_SETUP } from '../tests/support/trainer/trainer-http.ts';
import { offlinePolicyScript, workoutSelectionScript } from '../tests/support/trainer/trainer-wire-scripts.ts';

const SECRET = 'bench-secret-for-hs256-tokens-only';
const MESSAGES = [
  'Give me a quick chest workout',
  'Swap the first exercise',
  'Make exercise 1 harder',
  'Remove exercise 2',
  'Thanks!',
];

type Runtime = Awaited<ReturnType<typeof openRuntime>>;

async function withRuntime<T>(
  changes: Partial<Config>,
  work: (runtime: Runtime, token: (user: string) => Promise<string>) => Promise<T>,
): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'trainer-bench-'));
  const runtime = await openRuntime(
    { port: 0, dataDir, jwtSecret: SECRET, primaryModel: 'claude-haiku-4-5', ...changes },
    { systems: { trainer: { consoleLog: false } } },
  );
  try {
    return await work(runtime, (user) => signToken(user, SECRET));
  } finally {
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function post(app: Hono, token: string, path: string, body: unknown, method = 'POST'): Promise<any> {
  const response = await app.request(path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status >= 300)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

async function setUp(app: Hono, token: string): Promise<void> {
  for (const [source, body] of Object.entries(USER_SETUP)) await post(app, token, `/users/me/${source}`, body, 'PUT');
}

/** Requests per second of `count` calls of `request`, `concurrency` at a time. */
async function rate(
  count: number,
  concurrency: number,
  request: (i: number) => Promise<unknown>,
): Promise<{ perSecond: number; ms: number }> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await request(next++);
    }),
  );
  const ms = performance.now() - started;
  return { perSecond: Math.round((count / ms) * 1000 * 10) / 10, ms: Math.round(ms) };
}

/** A bare Hono JSON route: the floor any HTTP route pays in this process. */
async function bareRoute(count: number) {
  const app = new Hono().post('/chat', async (c) => c.json({ echo: (await c.req.json()) as unknown }));
  return rate(count, 1, async () => {
    const response = await app.request('/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message":"hi"}',
    });
    return response.json();
  });
}

/**
 * Chat turns on the offline model: each user holds five-message conversations (a workout, three
 * edits, thanks), a new session for each, as the app would.
 */
async function offlineTurns(turns: number, concurrency: number) {
  return withRuntime({}, async (runtime, token) => {
    const users = await Promise.all(Array.from({ length: concurrency }, async (_, i) => token(`bench-user-${i}`)));
    for (const user of users) await setUp(runtime.app, user);
    let iterations = 0;
    const sessions = new Map<number, string>();
    const result = await rate(turns, concurrency, async (i) => {
      const user = i % concurrency;
      const step = Math.floor(i / concurrency) % MESSAGES.length;
      const sessionId =
        step === 0 ? (await post(runtime.app, users[user]!, '/agent/sessions', {})).session.id : sessions.get(user);
      const chat = await post(runtime.app, users[user]!, '/agent/chat', { message: MESSAGES[step], sessionId });
      sessions.set(user, chat.sessionId);
      iterations += chat.iterations;
    });
    return {
      turnsPerSecond: result.perSecond,
      msPerTurn: Math.round((result.ms / turns) * concurrency * 10) / 10,
      iterationsPerTurn: Math.round((iterations / turns) * 10) / 10,
    };
  });
}

/** Cache reads per iteration on the fake server: one session, each message a turn. */
async function cacheShares() {
  const server = await startFakeModelServer({ anthropic: offlinePolicyScript, openai: () => workoutSelectionScript() });
  try {
    return await withRuntime(
      {
        anthropicApiKey: 'sk-ant-bench',
        anthropicBaseUrl: server.url,
        openaiApiKey: 'sk-bench',
        openaiBaseUrl: `${server.url}/v1`,
      },
      async (runtime, token) => {
        const user = await token('bench-cache'); // the user's bearer token
        await setUp(runtime.app, user);
        let sessionId: string | undefined;
        const byIteration: number[][] = [];
        for (const message of MESSAGES) {
          const before = server.requests.filter((r) => r.endpoint === 'anthropic').length;
          const chat = await post(runtime.app, user, '/agent/chat', { message, ...(sessionId ? { sessionId } : {}) });
          sessionId = chat.sessionId;
          const turn = server.requests.filter((r) => r.endpoint === 'anthropic').slice(before);
          turn.forEach((request, i) => {
            const usage = request.usage!;
            const input = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
            (byIteration[i] ??= []).push(input === 0 ? 0 : usage.cache_read_input_tokens / input);
          });
        }
        const mean = (values: number[]) =>
          Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1000) / 1000;
        const perIteration = byIteration.map((shares, i) => ({
          iteration: i + 1,
          turns: shares.length,
          cacheReadShare: mean(shares),
        }));
        const response = await runtime.app.request(`/agent/sessions/${sessionId}`, {
          headers: { authorization: `Bearer ${user}` },
        });
        const session = (await response.json()) as { session: { metadata: { cache_hit_rate: number } } };
        return {
          perIteration,
          sessionCacheHitRate: Math.round(session.session.metadata.cache_hit_rate * 10) / 10,
          violations: server.violations.length,
        };
      },
    );
  } finally {
    await server.close();
  }
}

export async function runTrainerBench(): Promise<{ pass: boolean } & Record<string, unknown>> {
  const baseline = await bareRoute(2000);
  const sequential = await offlineTurns(60, 1);
  const concurrent = await offlineTurns(120, 8);
  const cache = await cacheShares();
  const fromSecond = cache.perIteration.slice(1);
  const pass =
    fromSecond.every((entry) => entry.cacheReadShare > 0.5) && cache.violations === 0 && sequential.turnsPerSecond > 1;
  return {
    pass,
    bareHonoRoute: { requestsPerSecond: baseline.perSecond },
    offlineChat: {
      sequential,
      concurrent8Users: concurrent,
      bareRouteRequestsPerTurn: Math.round(baseline.perSecond / sequential.turnsPerSecond),
    },
    fakeServerCache: cache,
    targets: { cacheReadShareFromSecondIteration: '> 0.5', requestRuleViolations: 0 },
  };
}
