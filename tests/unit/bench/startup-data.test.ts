import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copiedUuid, makeTemplate, replicate, runnerOf, traineeOf } from '../../../bench/startup-data.ts';
import { scanJournalFile } from '../../../actors/runtime/journal-file-scan.ts';
import { signToken } from '../../../server/auth.ts';
import { openRuntime } from '../../../server/runtime.ts';

// The start-up bench's data dir (issue 10's acceptance is measured on it): its copies must be in
// the runtime's real format, or the bench measures nothing (or, as once, stops at its build).

const SECRET = 'startup-data-test-secret-for-hs256';
const COUNTS = { runs: 3, sessions: 4, perUser: 2 };
let root: string;
let ids: { runId: string; sessionId: string };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'startup-data-'));
  ids = await makeTemplate(join(root, 'template'));
  await replicate(join(root, 'template'), join(root, 'full'), ids, COUNTS);
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the start-up bench data', () => {
  it('keeps a journal partition that every session appends to as one partition, numbered from 1', async () => {
    const folder = join('journal', 'trainer');
    const [name] = await readdir(join(root, 'template', folder));
    const template = await scanJournalFile(join(root, 'template', folder, name!), { collect: true });
    const merged = await scanJournalFile<{ envelope: { session_id: string } }>(join(root, 'full', folder, name!), {
      collect: true,
    });
    expect(template.lastSeq).toBeGreaterThan(0);
    expect(merged.lastSeq).toBe(COUNTS.sessions * template.lastSeq);
    expect(merged.entries.map((entry) => entry.seq)).toEqual(Array.from({ length: merged.lastSeq }, (_, i) => i + 1));
    const sessions = new Set(merged.entries.map((entry) => entry.data.envelope.session_id));
    expect(sessions).toEqual(
      new Set(Array.from({ length: COUNTS.sessions }, (_, k) => copiedUuid(ids.sessionId, COUNTS.runs + k))),
    );
  });

  it('reads back through the runtime: each copy of the run settled, each copy of the session idle', async () => {
    const runtime = await openRuntime(
      { port: 0, dataDir: join(root, 'full'), jwtSecret: SECRET, primaryModel: 'claude-haiku-4-5' },
      { systems: { trainer: { consoleLog: false } } },
    );
    try {
      const get = async (user: string, path: string) => {
        const response = await runtime.app.request(path, {
          headers: { authorization: `Bearer ${await signToken(user, SECRET)}` },
        });
        expect(response.status, path).toBe(200);
        return (await response.json()) as any;
      };
      const runId = copiedUuid(ids.runId, 2);
      expect((await get(runnerOf(2, COUNTS.perUser), `/pipelines/${runId}`)).state).toBe('output_ready');
      expect((await get(runnerOf(0, COUNTS.perUser), '/pipelines')).pipelines).toHaveLength(COUNTS.perUser);
      const { sessions } = await get(traineeOf(0, COUNTS.perUser), '/agent/sessions');
      expect(sessions.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed']);
      const sessionId = copiedUuid(ids.sessionId, COUNTS.runs + 3);
      const view = await get(traineeOf(3, COUNTS.perUser), `/agent/sessions/${sessionId}`);
      expect(view.session.id).toBe(sessionId);
      expect(view.recentActions.length).toBeGreaterThan(0); // read from the copy's own session log
    } finally {
      await runtime.close();
    }
  });
});
