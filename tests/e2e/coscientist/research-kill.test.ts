import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signToken } from '../../../server/auth.ts';
import { killAllServers, startServer, type ServerProcess } from '../../support/crash/server-process.ts';

const SECRET = 'coscientist-kill-secret-for-tests';
const dirs: string[] = [];
afterAll(async () => {
  await killAllServers();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function call(server: ServerProcess, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${await signToken('ada', SECRET)}` };
  if (body) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await response.json()) as any;
}

/** Every record of the task queue's journal files, by type. */
async function journalRecords(dataDir: string, name: string) {
  const root = join(dataDir, 'journal', name);
  const records: any[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.ndjson')) {
        const text = await readFile(path, 'utf8');
        for (const line of text
          .slice(0, text.lastIndexOf('\n') + 1)
          .split('\n')
          .filter(Boolean))
          records.push(JSON.parse(line).data);
      }
    }
  };
  await walk(root);
  return records;
}

describe('co-scientist under kill -9 (issue 13)', () => {
  it('continues a goal killed mid-iteration: no accepted task lost, none completed twice, ratings consistent', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'coscientist-kill-'));
    dirs.push(dataDir);
    const first = await startServer({ dataDir, jwtSecret: SECRET });
    const body = {
      goal: 'Find epigenetic targets that reverse liver fibrosis',
      iterations: 3,
      hypotheses_per_iteration: 12,
    };
    const { research_id: id } = await call(first, 'POST', '/research', body);
    let seen: any;
    for (let i = 0; i < 2_000; i++) {
      seen = await call(first, 'GET', `/research/${id}`);
      if (seen.iteration >= 2 || seen.state === 'completed') break;
    }
    await first.kill9();
    expect(seen.state, 'the kill came after the goal ended: make it longer').not.toBe('completed');

    const second = await startServer({ dataDir, jwtSecret: SECRET });
    let view: any;
    for (let i = 0; i < 3_000; i++) {
      view = await call(second, 'GET', `/research/${id}`);
      if (view.state === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(view.state).toBe('completed');
    const hypotheses = (await call(second, 'GET', `/research/${id}/hypotheses`)).hypotheses as any[];
    const matches = (await call(second, 'GET', `/research/${id}/matches`)).matches as any[];
    await second.stop();

    // spec 003's message ids live in header.message_id: each routed once
    const routed = (await journalRecords(dataDir, 'coscientist'))
      .filter((r) => r.envelope)
      .map((r) => r.envelope.header.message_id);
    expect(new Set(routed).size).toBe(routed.length);
    const records = await journalRecords(dataDir, 'coscientist-tasks');
    const submitted = records.filter((r) => r.t === 'submitted').flatMap((r) => r.tasks.map((t: any) => t.task_id));
    const completed = records.filter((r) => r.t === 'completed').map((r) => r.task_id);
    expect(new Set(completed).size, 'a task completed twice').toBe(completed.length);
    expect(new Set(completed)).toEqual(new Set(submitted));
    for (const h of hypotheses) {
      const delta = matches.reduce(
        (sum, m) =>
          sum + (m.winner_id === h.hypothesis_id ? m.elo_delta : m.loser_id === h.hypothesis_id ? -m.elo_delta : 0),
        0,
      );
      expect(h.elo, h.hypothesis_id).toBeCloseTo(1200 + delta, 1);
    }
    expect(view.metrics.consistency_checks).toBeGreaterThan(0);
  }, 180_000);
});
