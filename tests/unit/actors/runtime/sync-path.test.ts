import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileDurably, type DurableWriteOps } from '../../../../actors/runtime/sync-path.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sync-path-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Operations that only record what they were asked, in order; `failing` names the one that throws. */
function recordingOps(failing?: keyof DurableWriteOps) {
  const calls: string[] = [];
  const step = (name: keyof DurableWriteOps, what: string) => {
    calls.push(what);
    if (name === failing) return Promise.reject(new Error(`${name} failed`));
    return Promise.resolve();
  };
  const ops: DurableWriteOps = {
    writeSynced: (file, text) => step('writeSynced', `write+sync ${file} ${text}`),
    rename: (from, to) => step('rename', `rename ${from} -> ${to}`),
    syncDir: (folder) => step('syncDir', `sync dir ${folder}`),
  };
  return { ops, calls };
}

describe('writeFileDurably', () => {
  it('syncs the temp file before it replaces the old one, then syncs the folder', async () => {
    const { ops, calls } = recordingOps();
    await writeFileDurably('/data/docs/a.json', '{"x":1}', ops);
    expect(calls).toEqual([
      'write+sync /data/docs/.a.json.tmp {"x":1}',
      'rename /data/docs/.a.json.tmp -> /data/docs/a.json',
      'sync dir /data/docs',
    ]);
  });

  it('replaces nothing when the temp file could not be written and synced', async () => {
    const { ops, calls } = recordingOps('writeSynced');
    await expect(writeFileDurably('/data/docs/a.json', '{}', ops)).rejects.toThrow('writeSynced failed');
    expect(calls).toHaveLength(1);
  });

  it('replaces a file on disk whole and leaves no temp file', async () => {
    const file = join(dir, 'doc.json');
    await writeFile(file, '{"old":true}');
    await writeFileDurably(file, '{"new":"é"}');
    expect(await readFile(file, 'utf8')).toBe('{"new":"é"}');
    expect(await readdir(dir)).toEqual(['doc.json']);
    await writeFileDurably(join(dir, 'fresh.json'), '[]');
    expect((await readdir(dir)).sort()).toEqual(['doc.json', 'fresh.json']);
  });
});
