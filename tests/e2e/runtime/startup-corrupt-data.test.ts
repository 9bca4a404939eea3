import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../../server/node-flags.ts';

/** Runs `npm start`'s entry point on a data dir and collects what it prints until it exits. */
function start(dataDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', AUTH_JWT_SECRET: 'x'.repeat(32) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    // A healthy start keeps running: stop it once it says it listens.
    child.stdout.on('data', () => output.includes('listening') && child.kill('SIGTERM'));
    child.on('close', (code) => resolve({ code, output })); // after its output is read
  });
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function dataDir() {
  const dir = await mkdtemp(join(tmpdir(), 'corrupt-'));
  dirs.push(dir);
  return dir;
}

describe('startup on corrupt data', () => {
  it('starts on a fresh data dir', async () => {
    const { output } = await start(await dataDir());
    expect(output).toContain('listening on http://localhost:');
  }, 30_000);

  it('starts without reading store files it does not need, a damaged one among them', async () => {
    const dir = await dataDir();
    const folder = join(dir, 'store', 'pipelines', 'ada.docs');
    await mkdir(folder, { recursive: true });
    const bytes = '{"id": "run-1", "doc": {"state": '; // cut short: reported when read, not at start-up
    await writeFile(join(folder, 'run-1.json'), bytes);
    const { output } = await start(dir);
    expect(output).toContain('listening on http://localhost:');
    expect(await readFile(join(folder, 'run-1.json'), 'utf8')).toBe(bytes);
  }, 30_000);

  it('refuses a corrupt store file that start-up reads (the old index of runs), naming it, and leaves it untouched', async () => {
    const dir = await dataDir();
    const file = join(dir, 'store', 'pipeline-index.json');
    await mkdir(join(dir, 'store'), { recursive: true });
    const bytes = '{"docs": {"run-1": {"run_id": "run-1", "user_id": "ada"}'; // cut short
    await writeFile(file, bytes);
    const { code, output } = await start(dir);
    expect(code).toBe(1);
    expect(output).toContain('Cannot start');
    expect(output).toContain(file);
    expect(await readFile(file, 'utf8')).toBe(bytes);
  }, 30_000);

  // A journal partition is read on its first touch, not at start-up (see pipeline-damaged-journal.test.ts).
  it('starts without reading a journal file, corrupt or torn, that no unfinished run uses', async () => {
    const dir = await dataDir();
    const journal = join(dir, 'journal', 'pipelines');
    await mkdir(journal, { recursive: true });
    const corrupt = join(journal, 'run-1.ndjson');
    const corruptBytes = '{"seq":1,"data":{"kind":"direct"}}\n{"seq":2,"da\n{"seq":3,"data":{}}\n';
    await writeFile(corrupt, corruptBytes);
    const torn = join(journal, 'run-2.ndjson');
    const tornBytes = '{"seq":1,"data":{"kind":"direct"}}\n{"seq":2,"da';
    await writeFile(torn, tornBytes);
    const { output } = await start(dir);
    expect(output).toContain('listening on http://localhost:');
    expect(output).not.toContain('run-1');
    expect(output).not.toContain('run-2');
    expect(await readFile(corrupt, 'utf8')).toBe(corruptBytes);
    expect(await readFile(torn, 'utf8')).toBe(tornBytes);
    expect(await readdir(journal)).not.toContain('torn');
  }, 30_000);
});
