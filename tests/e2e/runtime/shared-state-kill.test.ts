import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../actors/runtime/file-journal.ts';
import { openSharedState } from '../../../actors/runtime/shared-state/open-shared-state.ts';
import { killAfterLines } from '../../support/crash/kill-after-lines.ts';

const ROUNDS = 3;
const schema = { namespaces: { task: { scope: 'task', access: { W: 'RW' as const } } } };
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('shared state through kill -9', () => {
  it('keeps every acknowledged write, across generations, over several kills', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shared-state-kill-'));
    dirs.push(dir);
    const acked = new Map<string, { version: number; value: number }>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const line of await killAfterLines('tests/support/shared-state/state-writer.ts', [dir], 150 + round * 37)) {
        const [key, version, value] = line.split(' ');
        const seen = acked.get(key!);
        if (!seen || Number(version) > seen.version)
          acked.set(key!, { version: Number(version), value: Number(value) });
      }
      const journal = await openFileJournal(dir, { warn: () => undefined });
      const state = openSharedState({ journal, schema, scopes: { task: 'crash' } });
      for (const [key, { version, value }] of acked) {
        const entry = await state.get(key);
        expect(entry, key).toBeDefined();
        expect(entry!.version, key).toBeGreaterThanOrEqual(version);
        expect(entry!.value as number, key).toBeGreaterThanOrEqual(value);
      }
      // Each counter step was one accepted update: its value counts the versions it went through.
      const history = await state.history('task/counter');
      for (const [a, b] of history.slice(1).map((entry, i) => [history[i]!, entry] as const)) {
        expect(b.value).toBe((a.value as number) + 1);
      }
      await state.close();
      await journal.close();
    }
    const journal = await openFileJournal(dir);
    expect((await journal.partitions()).some((key) => key.startsWith('task#'))).toBe(true);
    await journal.close();
  }, 90_000);
});
