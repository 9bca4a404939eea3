import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startRuntime } from '../../support/runtime-harness.ts';
import { lyingSolver } from '../../support/tiers/fleet-hooks.ts';
import { example, settledTask, submitTask, type TiersRuntime } from '../../support/tiers/tiers-e2e.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Each hostile `search`, and the sandbox verdicts that contain it. */
function hostileSolutions(file: string, port: number): [string, string, RegExp][] {
  const spot = JSON.stringify(file);
  return [
    [
      'writes a file',
      `function search(nums, target) { require('fs').writeFileSync(${spot}, 'owned'); return -1; }`,
      /forbidden/,
    ],
    [
      'opens a socket',
      `function search(nums, target) { require('net').connect(${port}, '127.0.0.1'); return -1; }`,
      /forbidden/,
    ],
    [
      'spawns a process',
      `function search(nums, target) { process.mainModule.require('child_process').execSync('touch ' + ${spot}); return -1; }`,
      /forbidden/,
    ],
    [
      'escapes through the Function constructor',
      `function search(nums, target) { const p = search.constructor('return process')(); p.mainModule.require('fs').writeFileSync(${spot}, 'x'); return -1; }`,
      /forbidden/,
    ],
    ['loops forever', 'function search(nums, target) { for (;;) {} }', /timeout/],
    [
      'exhausts memory',
      'function search(nums, target) { const hoard = []; for (;;) hoard.push(new Array(1e6).fill(target)); }',
      /memory|crashed/,
    ],
  ];
}

describe('a hostile solution in a tiers task', () => {
  it('is contained by the sandbox and reported by the fleet that ran it; the host is unharmed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiers-hostile-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'owned.txt');
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => listener.close(resolve)));
    const port = (listener.address() as { port: number }).port;

    for (const [what, code, verdict] of hostileSolutions(file, port)) {
      const rt: TiersRuntime = await startRuntime({
        systems: { tiers: { specialists: { 'js-solver': lyingSolver(code) } } },
      });
      try {
        const taskId = await submitTask(rt, 'ada', await example('tiers-task.json'));
        await settledTask(rt, 'ada', taskId);
        const messages = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as any[];
        // The Dispatcher's aggregate over the verified plan is not a success: the verifiers refused it.
        const firstAggregate = messages.find((m) => m.source_tier === 'ROUTING_DISPATCHER' && m.payload.status);
        expect(firstAggregate.payload.status, what).not.toBe('success');
        const verifications = messages.filter(
          (m) => m.source_tier === 'SPECIALIZED_FLEET' && m.payload.status && m.payload.status !== 'success',
        );
        const reports = verifications.map((m) => `${m.payload.error_type}: ${m.payload.error_detail}`).join('\n');
        expect(reports, what).toMatch(verdict);
        expect(existsSync(file), what).toBe(false);
      } finally {
        await rt.stop();
      }
    }
    expect(connections).toBe(0);
  }, 180_000);
});
