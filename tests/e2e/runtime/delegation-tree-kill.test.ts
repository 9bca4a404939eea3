import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../actors/runtime/file-journal.ts';
import { emptyTree } from '../../../machines/runtime/delegation-tree-state.ts';
import { applyDelegationRecord } from '../../../machines/runtime/delegation-tree-steps.ts';
import { openDelegationTree } from '../../../machines/runtime/delegation-tree.ts';
import type { DelegationRecord } from '../../../protocol/runtime/delegation-record.ts';
import { killAfterLines } from '../../support/crash/kill-after-lines.ts';

const ROUNDS = 3;
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('delegation tree through kill -9', () => {
  it('keeps every acknowledged delegation, outcome and cancellation, each node ending once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'delegation-kill-'));
    dirs.push(dir);
    const acked = new Map<string, string>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const line of await killAfterLines('tests/support/delegation/tree-writer.ts', [dir], 200 + round * 41)) {
        const [id, status] = line.split(' ');
        if (acked.get(id!) === undefined || acked.get(id!) === 'open') acked.set(id!, status!);
      }
      const journal = await openFileJournal<DelegationRecord>(dir, { warn: () => undefined });
      const tree = await openDelegationTree({ journal, partition: 'tree' });
      for (const [id, status] of acked) {
        const node = tree.node(id);
        expect(node, id).toBeDefined();
        // An acknowledged terminal outcome is kept; an open node may have ended after its ack.
        if (status !== 'open') expect(node!.status, id).toBe(status);
      }
      // Replayed from the journal, each node ended at most once, and cascades left nothing open below a cancelled root.
      const replayed = emptyTree();
      const ended = new Map<string, number>();
      for (const { data } of await journal.read('tree')) {
        for (const node of applyDelegationRecord(replayed, data).settled)
          ended.set(node.id, (ended.get(node.id) ?? 0) + 1);
      }
      expect([...ended.values()].every((count) => count === 1)).toBe(true);
      for (const node of replayed.nodes.values()) {
        if (node.parent === null && node.status === 'cancelled') {
          const below = [...replayed.nodes.values()].filter((other) => other.parent === node.id);
          expect(below.every((child) => child.status !== 'open')).toBe(true);
        }
      }
      await tree.close();
      await journal.close();
    }
  }, 90_000);
});
