/**
 * The personal trainer (spec 001), on the offline model over HTTP (file journals and lowdb on,
 * as served), against a bare Hono JSON route in the same process and run:
 *
 * - **Cost of a turn** is the CPU time the whole process consumed (`process.cpuUsage`, user and
 *   system, every thread: the journal's writes and syncs included) while `SESSIONS` sessions each
 *   ran one turn at the same time, divided by `SESSIONS`; the bare route's cost is the CPU time
 *   per request with as many requests in flight. Running sessions side by side keeps the process
 *   busy while the disk syncs, so the figure is work done, not waiting. The offline model runs in
 *   the process too: its share (the time inside its calls) is reported apart, and is included.
 * - **Growth**: each session is driven to `TURNS` turns (five messages in turn: a workout, three
 *   edits, thanks); the median cost of turns 56-60 over that of turns 1-5 (the same five
 *   messages). The sessions are fresh, on a process warmed up by other sessions first, so turn 1
 *   is not slowed by cold code. Wall time per turn is reported beside the cost.
 * - **Cache reads** on the real Anthropic SDK against the fake model server: the share of input
 *   tokens read from the prompt cache at each iteration of a turn (§4.2, §12.8).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import type { ModelProvider } from '../actors/models/model-provider.ts';
import { createOfflineProvider } from '../actors/trainer/offline-model/offline-provider.ts';
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
/** Sessions driven side by side, and requests in flight on the bare route. */
const SESSIONS = 8;
const TURNS = 60;
const TARGETS = { turnCostOverBareRoute: 30, lateTurnsOverEarlyTurns: 1.25 };

type Runtime = Awaited<ReturnType<typeof openRuntime>>;

async function withRuntime<T>(
  changes: Partial<Config>,
  model: ModelProvider | undefined,
  work: (runtime: Runtime, token: (user: string) => Promise<string>) => Promise<T>,
): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'trainer-bench-'));
  const runtime = await openRuntime(
    { port: 0, dataDir, jwtSecret: SECRET, primaryModel: 'claude-haiku-4-5', ...changes },
    { systems: { trainer: { consoleLog: false, ...(model ? { model } : {}) } } },
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

/** CPU microseconds (user + system, whole process) and wall milliseconds that `work` took. */
async function measured(work: () => Promise<unknown>): Promise<{ cpuUs: number; wallMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { cpuUs: used.user + used.system, wallMs: performance.now() - started };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The bare Hono JSON route: CPU µs per request with `SESSIONS` requests in flight (after a warm-up). */
async function bareRoute(count: number): Promise<{ cpuUsPerRequest: number; requestsPerSecond: number }> {
  const app = new Hono().post('/chat', async (c) => c.json({ echo: (await c.req.json()) as unknown }));
  const request = async () => {
    const response = await app.request('/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message":"hi"}',
    });
    return response.json();
  };
  const run = async (total: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: SESSIONS }, async () => {
        while (next++ < total) await request();
      }),
    );
  };
  await run(count / 4);
  const { cpuUs, wallMs } = await measured(() => run(count));
  return { cpuUsPerRequest: round(cpuUs / count), requestsPerSecond: Math.round((count / wallMs) * 1000) };
}

/** The offline model, timed: the time spent inside its calls (they compute without waiting). */
function timedOfflineModel(): { model: ModelProvider; takeMs: () => number } {
  const offline = createOfflineProvider();
  let ms = 0;
  const model: ModelProvider = {
    ...offline,
    call(request, signal) {
      const started = performance.now();
      try {
        return offline.call(request, signal);
      } finally {
        ms += performance.now() - started;
      }
    },
  };
  return {
    model,
    takeMs: () => {
      const taken = ms;
      ms = 0;
      return taken;
    },
  };
}

/** `SESSIONS` sessions (one user each) driven to `TURNS` turns side by side; each step measured. */
async function offlineSessions() {
  const timed = timedOfflineModel();
  return withRuntime({}, timed.model, async (runtime, token) => {
    /** Users set up with a new session each; `turn(step)` sends each its step's message at once. */
    const sessionsOf = async (users: string[]) => {
      const tokens = await Promise.all(users.map((user) => token(user)));
      for (const user of tokens) await setUp(runtime.app, user);
      const sessions = await Promise.all(
        tokens.map(async (user) => (await post(runtime.app, user, '/agent/sessions', {})).session.id as string),
      );
      return async (step: number): Promise<number> => {
        const message = MESSAGES[step % MESSAGES.length];
        const chats = await Promise.all(
          tokens.map((user, i) => post(runtime.app, user, '/agent/chat', { message, sessionId: sessions[i] })),
        );
        return chats.reduce((sum, chat) => sum + (chat.iterations as number), 0);
      };
    };
    // Warm-up: other sessions first, so the measured ones start on warm code.
    const warm = await sessionsOf(Array.from({ length: SESSIONS }, (_, i) => `warm-${i}`));
    for (let step = 0; step < 10; step++) await warm(step);
    const turn = await sessionsOf(Array.from({ length: SESSIONS }, (_, i) => `bench-user-${i}`));
    timed.takeMs();
    const steps: { cpuUs: number; wallMs: number; modelMs: number; iterations: number }[] = [];
    for (let step = 0; step < TURNS; step++) {
      let iterations = 0;
      const { cpuUs, wallMs } = await measured(async () => (iterations = await turn(step)));
      steps.push({
        cpuUs: cpuUs / SESSIONS,
        wallMs: wallMs / SESSIONS,
        modelMs: timed.takeMs() / SESSIONS,
        iterations: iterations / SESSIONS,
      });
    }
    return steps;
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
      undefined,
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
        const mean = (values: number[]) => round(values.reduce((a, b) => a + b, 0) / values.length, 3);
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
          sessionCacheHitRate: round(session.session.metadata.cache_hit_rate),
          violations: server.violations.length,
        };
      },
    );
  } finally {
    await server.close();
  }
}

export async function runTrainerBench(): Promise<{ pass: boolean } & Record<string, unknown>> {
  const baseline = await bareRoute(8000);
  const steps = await offlineSessions();
  const cache = await cacheShares();
  const ms = (us: number) => round(us / 1000, 2);
  const turnCpuUs = median(steps.map((step) => step.cpuUs));
  const early = median(steps.slice(0, 5).map((step) => step.cpuUs));
  const late = median(steps.slice(-5).map((step) => step.cpuUs));
  const costRatio = round(turnCpuUs / baseline.cpuUsPerRequest);
  const growth = round(late / early, 2);
  const fromSecond = cache.perIteration.slice(1);
  const pass =
    costRatio <= TARGETS.turnCostOverBareRoute &&
    growth <= TARGETS.lateTurnsOverEarlyTurns &&
    fromSecond.every((entry) => entry.cacheReadShare > 0.5) &&
    cache.violations === 0;
  return {
    pass,
    bareHonoRoute: baseline,
    offlineTurn: {
      sessionsSideBySide: SESSIONS,
      turnsPerSession: TURNS,
      cpuMsPerTurn: ms(turnCpuUs),
      offlineModelMsPerTurn: round(median(steps.map((step) => step.modelMs)), 2),
      wallMsPerTurn: round(median(steps.map((step) => step.wallMs)), 2),
      iterationsPerTurn: round(steps.reduce((sum, step) => sum + step.iterations, 0) / steps.length),
      costOverBareRoute: costRatio,
    },
    growth: {
      cpuMsTurns1to5: ms(early),
      cpuMsTurns56to60: ms(late),
      lateOverEarly: growth,
    },
    fakeServerCache: cache,
    targets: {
      costOverBareRoute: `<= ${TARGETS.turnCostOverBareRoute}`,
      lateOverEarly: `<= ${TARGETS.lateTurnsOverEarlyTurns}`,
      cacheReadShareFromSecondIteration: '> 0.5',
      requestRuleViolations: 0,
    },
  };
}
