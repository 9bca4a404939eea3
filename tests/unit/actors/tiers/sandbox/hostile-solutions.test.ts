import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { type AddressInfo, type Server, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxLimits, runCalls } from '../../../../../actors/tiers/sandbox/run-calls.ts';
import { findPrlimit } from '../../../../../actors/tiers/sandbox/sandbox-command.ts';

// Real child processes; a loaded machine starts Node slowly, hence the generous test timeouts.
const SLOW = 60_000;
/** The way out of a vm context that works in plain Node: a constructor of the host realm. */
const HOST_PROCESS = `this.constructor.constructor('return process')()`;

let dir: string;
let server: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-hostile-'));
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise((resolve) => server.close(resolve));
});

/** Runs each solution's `attack()` once; all of them, two children at a time. */
function attack(codes: string[], limits: Partial<SandboxLimits> = { timeoutMs: 2_000 }) {
  return Promise.all(codes.map((code) => runCalls({ code, functionName: 'attack', calls: [[]], limits })));
}

/** Lets the event loop take any connection the kernel has queued for the server. */
async function settleConnections(): Promise<number> {
  for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return connections;
}

describe('a hostile solution in the sandbox', () => {
  it(
    'writes no file, whichever way it tries',
    async () => {
      const target = join(dir, 'pwned.txt');
      const reports = await attack([
        `function attack() { require('fs').writeFileSync(${JSON.stringify(target)}, 'x'); }`,
        `function attack() { ${HOST_PROCESS}.getBuiltinModule('fs').writeFileSync(${JSON.stringify(target)}, 'x'); }`,
        `async function attack() { (await import('node:fs')).writeFileSync(${JSON.stringify(target)}, 'x'); }`,
      ]);
      expect(reports.map((r) => r.verdict)).toEqual(['forbidden', 'forbidden', 'forbidden']);
      expect(reports[0]?.detail).toMatch(/call 0 tried require\("fs"\)/);
      expect(reports[1]?.detail).toMatch(/eval or new Function/);
      expect(reports[2]?.detail).toMatch(/call 0 tried import\("node:fs"\)/);
      expect(existsSync(target)).toBe(false);
      expect(readdirSync(dir)).toEqual([]);
    },
    SLOW,
  );

  it(
    'opens no socket to a server listening on localhost',
    async () => {
      // The server does count connections: one from here first.
      await new Promise<void>((resolve, reject) => connect(port, '127.0.0.1', resolve).on('error', reject));
      expect(await settleConnections()).toBe(1);
      const reports = await attack([
        `function attack() { require('net').connect(${port}, '127.0.0.1'); }`,
        `async function attack() { await fetch('http://127.0.0.1:${port}/'); }`,
        `function attack() { ${HOST_PROCESS}.getBuiltinModule('net').connect(${port}, '127.0.0.1'); }`,
        `async function attack() { (await import('node:net')).connect(${port}, '127.0.0.1'); }`,
      ]);
      expect(reports.map((r) => r.verdict)).toEqual(['forbidden', 'forbidden', 'forbidden', 'forbidden']);
      expect(reports[1]?.detail).toMatch(new RegExp(`tried fetch\\("http://127.0.0.1:${port}/"\\)`));
      expect(await settleConnections()).toBe(1);
    },
    SLOW,
  );

  it(
    'spawns no process',
    async () => {
      const target = join(dir, 'spawned.txt');
      const reports = await attack([
        `function attack() { require('child_process').execSync('touch ${target}'); }`,
        `function attack() { ${HOST_PROCESS}.getBuiltinModule('child_process').execSync('touch ${target}'); }`,
      ]);
      expect(reports.map((r) => r.verdict)).toEqual(['forbidden', 'forbidden']);
      expect(reports[0]?.detail).toMatch(/tried require\("child_process"\)/);
      expect(existsSync(target)).toBe(false);
    },
    SLOW,
  );

  it(
    'cannot reach process, even when it catches the error, nor signal this process',
    async () => {
      const reports = await attack([
        `function attack() { return ${HOST_PROCESS}.pid; }`,
        `function attack() { try { process.kill(process.ppid, 'SIGKILL'); } catch { return 'survived'; } }`,
        `function attack() { return typeof eval('process'); }`,
      ]);
      expect(reports.map((r) => r.verdict)).toEqual(['forbidden', 'forbidden', 'forbidden']);
      expect(reports[0]?.detail).toMatch(/eval or new Function.*Code generation from strings disallowed/);
      expect(reports[1]?.detail).toMatch(/call 0 tried process/);
      expect(reports[1]?.results).toEqual([]);
    },
    SLOW,
  );

  it(
    'is stopped when it loops forever, keeping the calls before it',
    async () => {
      const report = await runCalls({
        code: 'function attack(n) { while (n === 2) {} return n; }',
        functionName: 'attack',
        calls: [[1], [2], [3]],
        limits: { timeoutMs: 300 },
      });
      expect(report.verdict).toBe('timeout');
      expect(report.detail).toBe('call 1 ran past the 300 ms time limit');
      expect(report.results.map((r) => r.value)).toEqual([1]);
      const [microtasks, atLoad] = await attack(
        [
          // Each round drops the last one's promise, so memory stays flat and only the clock stops it
          // (a chain that returns each inner promise grows: see the memory test).
          'function attack() { Promise.resolve().then(function again() { Promise.resolve().then(again); }); }',
          'for (;;) {}\nfunction attack() {}',
        ],
        { timeoutMs: 300 },
      );
      expect(microtasks).toMatchObject({ verdict: 'timeout', detail: 'call 0 ran past the 300 ms time limit' });
      expect(atLoad).toMatchObject({ verdict: 'timeout', detail: 'loading the code ran past the 300 ms time limit' });
      // Rounds after the first of a repeated call run without the vm's watchdog: the parent kills.
      const repeated = await runCalls({
        code: 'let round = 0; function attack() { round += 1; while (round === 2) {} return round; }',
        functionName: 'attack',
        calls: [[]],
        repeat: 3,
        limits: { timeoutMs: 300 },
      });
      expect(repeated).toMatchObject({
        verdict: 'timeout',
        detail: 'the run passed its 300 ms time limit and was killed (during call 0)',
      });
    },
    SLOW,
  );

  it(
    'runs out of memory on the heap or in buffers, and is told so',
    async () => {
      const limits = { timeoutMs: 30_000, memoryMb: 32 };
      const [heap, touched, chained] = await attack(
        [
          'function attack() { const keep = []; for (;;) keep.push({ n: keep.length, list: [1, 2, 3] }); }',
          'function attack() { const keep = []; for (;;) keep.push(new Uint8Array(16 * 1024 * 1024).fill(1)); }',
          // Every promise waits on the next one it returns: about 300 MB/s of microtasks kept alive.
          'function attack() { return Promise.resolve().then(function again() { return Promise.resolve().then(again); }); }',
        ],
        limits,
      );
      expect(heap).toMatchObject({ verdict: 'memory', detail: expect.stringMatching(/out of memory during call 0/) });
      expect(touched).toMatchObject({ verdict: 'memory', detail: expect.stringMatching(/call 0/) });
      expect(chained).toMatchObject({
        verdict: 'memory',
        detail: expect.stringMatching(/out of memory during call 0/),
      });
    },
    SLOW,
  );

  it.runIf(findPrlimit() !== null)(
    'runs out of memory on ArrayBuffers it never touches (the data rlimit)',
    async () => {
      const [untouched] = await attack(
        ['function attack() { const keep = []; for (;;) keep.push(new ArrayBuffer(64 * 1024 * 1024)); }'],
        { timeoutMs: 30_000, memoryMb: 32 },
      );
      expect(untouched).toMatchObject({
        verdict: 'memory',
        detail: 'call 0 ran out of memory (RangeError: Array buffer allocation failed)',
      });
    },
    SLOW,
  );
});
