import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '../../../server/auth.ts';
import { checkJournals } from './journal-checks.ts';
import { killAllServers, sleep, startServer, type ServerProcess } from './server-process.ts';

export { killAllServers } from './server-process.ts';

/** An answer of the live server. */
export interface CrashResponse {
  status: number;
  body: any;
}

/**
 * The live server, as a workload sees it. Its port changes every round; once the round's server
 * is killed, every call rejects (and so does a call made after the round's signal aborted).
 */
export interface CrashApi {
  /** 1..rounds while driving; rounds + 1 for the final server that runs `verify`. */
  readonly round: number;
  call(user: string, method: string, path: string, body?: unknown): Promise<CrashResponse>;
}

/**
 * A system's part of the kill -9 test. The object lives across rounds in the test process and
 * remembers only what the server acknowledged.
 */
export interface CrashWorkload {
  name: string;
  /**
   * Drives the round's server until `signal` aborts (right after the kill). A request that
   * rejects (the server is gone) is not an answer: keep going until aborted. Reject only for a
   * fault of the test itself (an answer that shows the request was wrong).
   */
  drive(api: CrashApi, signal: AbortSignal): Promise<void>;
  /** On the final server: everything acknowledged is there. Throws naming what is missing. */
  verify(api: CrashApi, ctx: { dataDir: string }): Promise<void>;
  /** One line for the round's log: what was acknowledged so far (e.g. "12 pipelines"). */
  summary?(): string;
}

export interface CrashOptions {
  workloads: CrashWorkload[];
  /** How many kills (20 by default). */
  rounds?: number;
  /** How long each round drives before the kill: uniform in [min, max] ms (1500-4000). */
  driveMs?: [min: number, max: number];
  /** The PRNG seed; else `CRASH_SEED` from the environment; else a fresh one. Always printed. */
  seed?: number;
  /** Where the log lines go (`console.log`). */
  log?: (line: string) => void;
  /** How long a start may take until `GET /health` answers (60 s). */
  startTimeoutMs?: number;
  /**
   * The time the whole loop may take: a round does not start past it, and the run fails naming
   * the rounds' timings (set it below the test's timeout to get that instead of a bare timeout).
   */
  budgetMs?: number;
}

export interface CrashReport {
  seed: number;
  dataDir: string;
  kills: number;
  /** Per round: ms to start (until health answered) and ms driven before the kill. */
  rounds: { round: number; startMs: number; driveMs: number }[];
  finalStartMs: number;
  verifyMs: number;
  totalMs: number;
}

/** How long one request may take before it counts as unanswered. */
const REQUEST_TIMEOUT_MS = 30_000;

/** mulberry32: a small seeded PRNG, so a failing run replays with its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeApi(server: ServerProcess, secret: string, round: number, signal?: AbortSignal): CrashApi {
  const tokens = new Map<string, Promise<string>>();
  const token = (user: string) => tokens.get(user) ?? tokens.set(user, signToken(user, secret)).get(user)!;
  return {
    round,
    async call(user, method, path, body) {
      const headers: Record<string, string> = { authorization: `Bearer ${await token(user)}` };
      const init: RequestInit = { method, headers };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
      // A server that stops answering fails the call (not the whole test run) within the limit.
      const limit = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      init.signal = signal ? AbortSignal.any([signal, limit]) : limit;
      const response = await fetch(`${server.url}${path}`, init);
      const text = await response.text();
      let json: unknown = text;
      try {
        json = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: json };
    },
  };
}

/** Where a crash run's data dir lives, removed by {@link removeCrashDir}. */
export function makeCrashDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'kill9-'));
}

export async function removeCrashDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

/**
 * The kill -9 loop on ONE data dir: per round, start the real server (a child process), let every
 * workload drive it at once, SIGKILL it after a random delay (seeded), and check the journals on
 * disk (a torn last line allowed). A start that fails fails the run with the child's stderr. After
 * the last kill, a final server is started, every workload verifies, the server is stopped with
 * SIGTERM, and the journals are checked again (no new torn line allowed: only a tail a kill left in
 * a partition nobody touched since, which is set aside on its first touch). Children are killed on any
 * failure; the caller removes `dataDir` (and calls {@link killAllServers} in `afterAll`).
 */
export async function runCrashRounds(dataDir: string, options: CrashOptions): Promise<CrashReport> {
  const log = options.log ?? ((line: string) => console.log(line));
  const rounds = options.rounds ?? 20;
  const [minDrive, maxDrive] = options.driveMs ?? [1_500, 4_000];
  const fromEnv = Number(process.env.CRASH_SEED);
  const seed =
    options.seed ??
    (Number.isInteger(fromEnv) && process.env.CRASH_SEED ? fromEnv : randomBytes(4).readUInt32BE() >>> 1);
  const random = seededRandom(seed);
  const secret = randomBytes(24).toString('hex');
  const began = Date.now();
  log(
    `[kill-9] seed ${seed} (replay with CRASH_SEED=${seed}); ${rounds} kills on ${dataDir}; workloads: ${options.workloads.map((w) => w.name).join(', ')}`,
  );
  const report: CrashReport = { seed, dataDir, kills: 0, rounds: [], finalStartMs: 0, verifyMs: 0, totalMs: 0 };
  const start = async (round: number) => {
    const spent = Date.now() - began;
    if (options.budgetMs !== undefined && spent > options.budgetMs) {
      const timings = report.rounds.map((r) => `${r.round}: start ${r.startMs} ms, drive ${r.driveMs} ms`).join('\n');
      throw new Error(
        `[kill-9] seed ${seed}: over the budget of ${options.budgetMs} ms after ${report.kills} kills (${spent} ms spent); rounds:\n${timings}`,
      );
    }
    const t0 = Date.now();
    try {
      const server = await startServer({ dataDir, jwtSecret: secret, timeoutMs: options.startTimeoutMs });
      return { server, ms: Date.now() - t0 };
    } catch (error) {
      const what = round > rounds ? 'the final start' : `round ${round}'s start`;
      throw new Error(
        `[kill-9] seed ${seed}: ${what} (after ${report.kills} kills) failed: ${(error as Error).message}`,
        { cause: error },
      );
    }
  };
  const warnings = (server: ServerProcess) =>
    server
      .stderr()
      .split('\n')
      .filter((line) => line.trim() !== '').length;

  try {
    for (let round = 1; round <= rounds; round++) {
      const { server, ms: startMs } = await start(round);
      const controller = new AbortController();
      const api = makeApi(server, secret, round, controller.signal);
      const failures: unknown[] = [];
      const drives = options.workloads.map((workload) =>
        workload.drive(api, controller.signal).catch((error: unknown) => {
          failures.push(
            new Error(`[kill-9] seed ${seed}: workload ${workload.name} failed in round ${round}: ${String(error)}`, {
              cause: error,
            }),
          );
        }),
      );
      const driveMs = Math.round(minDrive + random() * (maxDrive - minDrive));
      await sleep(driveMs);
      await server.kill9();
      report.kills += 1;
      controller.abort();
      await Promise.all(drives);
      if (failures.length > 0) throw failures[0];
      const { problems, stats } = await checkJournals(dataDir, { allowTornTail: true });
      if (problems.length > 0)
        throw new Error(`[kill-9] seed ${seed}: journals after kill ${round}:\n${problems.slice(0, 20).join('\n')}`);
      report.rounds.push({ round, startMs, driveMs });
      log(
        `[kill-9] round ${round}/${rounds} seed ${seed}: started in ${startMs} ms (${warnings(server)} stderr lines), killed after ${driveMs} ms; ` +
          `acknowledged so far: ${options.workloads.map((w) => w.summary?.() ?? w.name).join(', ')}; ` +
          `journal: ${stats.files} files, ${stats.entries} entries, ${stats.envelopes} envelopes, ${stats.tornTails} torn tails`,
      );
    }

    // Tails left by the kills in partitions that no server touches stay until their first touch.
    const { stats: beforeFinal } = await checkJournals(dataDir, { allowTornTail: true });
    const { server, ms: finalStartMs } = await start(rounds + 1);
    report.finalStartMs = finalStartMs;
    log(`[kill-9] final server started in ${finalStartMs} ms; verifying`);
    const t0 = Date.now();
    const api = makeApi(server, secret, rounds + 1);
    for (const workload of options.workloads) {
      try {
        await workload.verify(api, { dataDir });
      } catch (error) {
        throw new Error(
          `[kill-9] seed ${seed}: workload ${workload.name} verify failed: ${(error as Error).message}\n--- final server stderr ---\n${server.stderr()}`,
          {
            cause: error,
          },
        );
      }
    }
    const code = await server.stop();
    if (code !== 0)
      throw new Error(
        `[kill-9] seed ${seed}: the final server exited with code ${code} on SIGTERM\n--- its stderr ---\n${server.stderr()}`,
      );
    report.verifyMs = Date.now() - t0;
    const { problems, stats } = await checkJournals(dataDir, { allowTornTail: beforeFinal.torn });
    if (problems.length > 0)
      throw new Error(`[kill-9] seed ${seed}: journals after the clean stop:\n${problems.slice(0, 20).join('\n')}`);
    report.totalMs = Date.now() - began;
    log(
      `[kill-9] done: seed ${seed}, ${report.kills} kills, verified in ${report.verifyMs} ms, ${report.totalMs} ms in all; ` +
        `${options.workloads.map((w) => w.summary?.() ?? w.name).join(', ')}; journal: ${stats.files} files, ${stats.entries} entries, ${stats.envelopes} envelopes`,
    );
    return report;
  } finally {
    await killAllServers();
  }
}
