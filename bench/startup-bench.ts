/**
 * Start-up against history (issue 10): `server/main.ts` started as a child process, as `npm start`
 * runs it (`node --import tsx`, offline brains), on a data dir holding 10,000 settled pipeline
 * runs (`output_ready`, resting) and 10,000 idle trainer sessions in the real on-disk format
 * (bench/startup-data.ts: real ones made through the runtime, replicated under new ids and
 * users), against the same start on an empty data dir, interleaved over rounds (a fresh empty
 * dir each round). Start-up is the time from `spawn` until `GET /health` answers. A bench-only
 * preload (bench/startup-probe.ts) reports the heap after a full GC and the files under
 * DATA_DIR the process opened, read or listed by then. On the full dir, each round then touches
 * settled runs for the first time (`touch`): `GET /pipelines/:id` (read from its record) and a
 * weekly check-in that wakes it (its journal read, restored from its snapshot, SCIENTIST's
 * answer journaled, its snapshot written). Targets: median start-up ratio <= 1.2, heap < 200 MB,
 * the median first touch of a settled run < 50 ms on a server past its first requests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signToken } from '../server/auth.ts';
import { SERVER_NODE_FLAGS } from '../server/node-flags.ts';
import { measured } from '../tests/support/nutrition/checkin-scenarios.ts';
import type { ProbeReport } from './startup-probe.ts';
import { copiedUuid, makeTemplate, replicate, runnerOf, traineeOf } from './startup-data.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECRET = 'startup-bench-secret-for-hs256-only';
const PER_USER = 10;
/** A week-1 check-in close to the plan (+0.3 kg, girths measured): SCIENTIST answers, no re-run. */
const CHECKIN = measured(0.3);

interface Started {
  child: ChildProcess;
  url: string;
  startMs: number;
}

/** Spawns the server on `dataDir` and resolves once `GET /health` answers 200. */
async function start(dataDir: string): Promise<Started> {
  const began = performance.now();
  const child = spawn(
    process.execPath,
    ['--expose-gc', ...SERVER_NODE_FLAGS, '--import', 'tsx', '--import', './bench/startup-probe.ts', 'server/main.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: '0',
        DATA_DIR: dataDir,
        AUTH_JWT_SECRET: SECRET,
        ANTHROPIC_API_KEY: '',
        OPENAI_API_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  let out = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const found = /listening on http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`startup bench: the server exited (${code}):\n${out}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    const ok = await fetch(`${url}/health`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return { child, url, startMs: performance.now() - began };
  }
}

function probe(child: ChildProcess): Promise<ProbeReport> {
  return new Promise((resolve) => {
    child.once('message', (report) => resolve(report as ProbeReport));
    child.send('probe');
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** One request as its user; its wall time in ms (throws unless 2xx). */
async function timed(url: string, user: string, method: string, path: string, body?: unknown): Promise<number> {
  const headers = { authorization: `Bearer ${await signToken(user, SECRET)}`, 'content-type': 'application/json' };
  const began = performance.now();
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const ms = performance.now() - began;
  if (response.status >= 300) throw new Error(`startup bench: ${method} ${path} answered ${response.status}: ${text}`);
  return ms;
}

/** Asks a started server what one replicated user sees, and throws unless it is what was written. */
async function verify(url: string): Promise<void> {
  const get = async (user: string, path: string) => {
    const response = await fetch(`${url}${path}`, {
      headers: { authorization: `Bearer ${await signToken(user, SECRET)}` },
    });
    return (await response.json()) as any;
  };
  const { pipelines } = await get(runnerOf(0, PER_USER), '/pipelines');
  const sessions = await get(traineeOf(0, PER_USER), `/agent/sessions?limit=${PER_USER + 1}`);
  const states = new Set(pipelines.map((p: { state: string }) => p.state));
  const statuses = new Set(sessions.sessions.map((s: { status: string }) => s.status));
  if (
    pipelines.length !== PER_USER ||
    sessions.sessions.length !== PER_USER ||
    states.size !== 1 ||
    statuses.size !== 1
  )
    throw new Error(
      `startup bench: the replicated data does not read back (${JSON.stringify({ pipelines, sessions })})`,
    );
}

/** Runs first touched in one round: the first request of the process, then warm-up, then measured. */
const WARMUP_TOUCHES = 5;
const MEASURED_TOUCHES = 3;

/**
 * First touches of settled runs on a server just started (each run `k` of `runs` touched once):
 * the process's first requests (cold: V8 compiles each code path on its first call), then
 * `WARMUP_TOUCHES` runs as a server that has served a while would have, then the measured ones,
 * each with `GET /health` beside it as the baseline of a bare route on the same server.
 */
async function touch(url: string, runId: (k: number) => string, ks: readonly number[]) {
  const run = (k: number) => [runnerOf(k, PER_USER), `/pipelines/${runId(k)}`] as const;
  const once = async (k: number) => {
    const [user, path] = run(k);
    const get = await timed(url, user, 'GET', path);
    const checkin = await timed(url, user, 'POST', `${path}/checkins`, CHECKIN);
    return { get, checkin };
  };
  const cold = await once(ks[0]!);
  for (const k of ks.slice(1, 1 + WARMUP_TOUCHES)) await once(k);
  const measured: { get: number; checkin: number; health: number }[] = [];
  for (const k of ks.slice(1 + WARMUP_TOUCHES)) {
    const health = await timed(url, runnerOf(k, PER_USER), 'GET', '/health');
    measured.push({ ...(await once(k)), health });
  }
  return { cold, measured };
}

const median = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * Builds the data dir (10,000 runs and 10,000 sessions by default, 10 per user), then measures
 * `rounds` interleaved pairs of starts (empty, full) and the first touches; see the file's head.
 */
export async function runStartupBench(options: { runs?: number; sessions?: number; rounds?: number } = {}) {
  const runs = options.runs ?? 10_000;
  const sessions = options.sessions ?? 10_000;
  const rounds = options.rounds ?? 7;
  const root = await mkdtemp(join(tmpdir(), 'startup-bench-'));
  try {
    const began = performance.now();
    const ids = await makeTemplate(join(root, 'template'));
    const full = join(root, 'full');
    const written = await replicate(join(root, 'template'), full, ids, { runs, sessions, perUser: PER_USER });
    const buildS = round1((performance.now() - began) / 1000);
    const runId = (k: number) => copiedUuid(ids.runId, k);

    // tsx compiles the sources on the first start and caches them: a start not measured.
    await mkdir(join(root, 'warmup'));
    await stop((await start(join(root, 'warmup'))).child);

    const empty: { startMs: number; probe: ProbeReport }[] = [];
    const loaded: { startMs: number; probe: ProbeReport; touch: Awaited<ReturnType<typeof touch>> }[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const pair: { startMs: number }[] = [];
      for (const side of round % 2 === 0 ? ['empty', 'full'] : ['full', 'empty']) {
        const dir = side === 'full' ? full : await mkdtemp(join(root, 'empty-'));
        const server = await start(dir);
        const report = await probe(server.child);
        if (side === 'full') {
          const perRound = 1 + WARMUP_TOUCHES + MEASURED_TOUCHES;
          const ks = Array.from({ length: perRound }, (_, i) => ((round * perRound + i) * 997) % runs);
          const touched = await touch(server.url, runId, ks);
          loaded.push({ startMs: server.startMs, probe: report, touch: touched });
          if (round === 0) await verify(server.url);
        } else empty.push({ startMs: server.startMs, probe: report });
        await stop(server.child);
        pair[side === 'full' ? 1 : 0] = { startMs: server.startMs };
      }
      ratios.push(pair[1]!.startMs / pair[0]!.startMs);
    }

    const ratio = Math.round(median(ratios) * 1000) / 1000;
    const heapMb = Math.max(...loaded.map((l) => l.probe.heapMb));
    const all = loaded.flatMap((l) => l.touch.measured);
    const firstTouch = {
      getMs: round1(median(all.map((t) => t.get))),
      checkinMs: round1(median(all.map((t) => t.checkin))),
      checkinMaxMs: round1(Math.max(...all.map((t) => t.checkin))),
      healthMs: round1(median(all.map((t) => t.health))),
      touches: all.length,
      firstRequestsOfProcess: {
        getMs: round1(median(loaded.map((l) => l.touch.cold.get))),
        checkinMs: round1(median(loaded.map((l) => l.touch.cold.checkin))),
      },
    };
    return {
      name: 'startup',
      dataDir: {
        runs,
        sessions,
        users: Math.ceil(runs / PER_USER) + Math.ceil(sessions / PER_USER),
        ...written,
        buildS,
      },
      rounds,
      emptyMs: round1(median(empty.map((e) => e.startMs))),
      fullMs: round1(median(loaded.map((l) => l.startMs))),
      ratio,
      ratios: ratios.map((r) => Math.round(r * 1000) / 1000),
      heapMb,
      heapEmptyMb: Math.max(...empty.map((e) => e.probe.heapMb)),
      heapFoundMb: Math.max(...loaded.map((l) => l.probe.heapFoundMb)),
      rssMb: Math.max(...loaded.map((l) => l.probe.rssMb)),
      startupReads: {
        empty: { files: empty[0]!.probe.filesRead, folders: empty[0]!.probe.foldersListed },
        full: { files: loaded[0]!.probe.filesRead, folders: loaded[0]!.probe.foldersListed },
        fullSample: loaded[0]!.probe.sample,
      },
      firstTouch,
      target: 'ratio <= 1.2, heap < 200 MB, first touch (GET and check-in) < 50 ms',
      pass: ratio <= 1.2 && heapMb < 200 && firstTouch.getMs < 50 && firstTouch.checkinMs < 50,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
