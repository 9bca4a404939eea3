import { spawn, type ChildProcess } from 'node:child_process';
import { SERVER_NODE_FLAGS } from '../../../server/node-flags.ts';

/** How much of a child's output is kept for an error report (the end of it). */
const KEPT_OUTPUT = 64 * 1024;

/** The real server (`server/main.ts`) in a child process on a data dir, as `npm start` runs it. */
export interface ServerProcess {
  readonly pid: number;
  readonly port: number;
  readonly url: string;
  /** What the child printed so far (the last 64 KiB of each stream). */
  stdout(): string;
  stderr(): string;
  /** `kill -9`: resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (the server's clean shutdown): resolves with the exit code once it is gone. */
  stop(timeoutMs?: number): Promise<number | null>;
}

export interface StartOptions {
  dataDir: string;
  jwtSecret: string;
  /** How long the start may take until `GET /health` answers (60 s). */
  timeoutMs?: number;
  /** More environment for the child (`MAX_WORKING_RUNS`, ...). */
  env?: Record<string, string>;
  /** The script to run instead of `server/main.ts` (a bench's baseline server); it must print the same line and serve `/health`. */
  entry?: string;
}

/** Raised when a server could not be started: it exited, or never answered `GET /health`. */
export class StartFailure extends Error {}

const live = new Set<ChildProcess>();
let closed = false;
// Last resort: a test process that exits (a timeout, a crash) takes its servers with it.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * SIGKILLs every server child still running and refuses to start new ones from then on (for
 * `afterAll`: a loop that outlived its test's timeout cannot leave a server behind).
 */
export async function killAllServers(): Promise<void> {
  closed = true;
  await Promise.all([...live].map((child) => killAndWait(child)));
}

function killAndWait(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      live.delete(child);
      resolve();
      return;
    }
    child.once('exit', () => {
      live.delete(child);
      resolve();
    });
    child.kill('SIGKILL');
  });
}

function tail(text: string): string {
  return text.length > KEPT_OUTPUT ? text.slice(-KEPT_OUTPUT) : text;
}

/**
 * Starts `node --import tsx server/main.ts` with the server's Node flags (as `npm start`), with
 * `PORT=0` on `dataDir` and no model key (offline brains), reads the port from "listening on
 * http://localhost:NNNN" and waits for `GET /health`.
 * Rejects with a {@link StartFailure} carrying the child's stderr and stdout when it exits first or
 * does not answer in time (and then kills it).
 */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  if (closed) throw new StartFailure('The servers were shut down (killAllServers): no new server is started.');
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', options.entry ?? 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: options.dataDir,
      AUTH_JWT_SECRET: options.jwtSecret,
      ANTHROPIC_API_KEY: '',
      OPENAI_API_KEY: '',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out = tail(out + chunk)));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err = tail(err + chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  const report = (why: string) =>
    new StartFailure(`${why}\n--- child stderr ---\n${err || '(empty)'}\n--- child stdout ---\n${out || '(empty)'}`);

  const timeoutMs = options.timeoutMs ?? 60_000;
  const started = Date.now();
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void exited.then((e) => (exit = e));
  try {
    let port: number | undefined;
    for (;;) {
      if (exit)
        throw report(`The server exited before it answered GET /health (code ${exit.code}, signal ${exit.signal}).`);
      if (Date.now() - started > timeoutMs)
        throw report(`The server did not answer GET /health within ${timeoutMs} ms.`);
      port ??= Number(/listening on http:\/\/localhost:(\d+)/.exec(out)?.[1]) || undefined;
      if (port !== undefined && (await healthy(port))) break;
      await Promise.race([exited, sleep(port === undefined ? 25 : 50)]);
    }
    const url = `http://127.0.0.1:${port}`;
    return {
      pid: child.pid!,
      port,
      url,
      stdout: () => out,
      stderr: () => err,
      kill9: () => killAndWait(child),
      async stop(stopTimeoutMs = 30_000) {
        if (exit) return exit.code;
        child.kill('SIGTERM');
        const timer = sleep(stopTimeoutMs).then(() => 'timeout' as const);
        const result = await Promise.race([exited, timer]);
        if (result === 'timeout') {
          await killAndWait(child);
          throw new Error(
            `The server did not stop within ${stopTimeoutMs} ms of SIGTERM.\n--- child stderr ---\n${err}`,
          );
        }
        return result.code;
      },
    };
  } catch (error) {
    await killAndWait(child);
    throw error;
  }
}

async function healthy(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
