/**
 * A process that writes shared state over a file journal until it is killed, printing one line
 * per acknowledged write (`<key> <version> <value>`): the kill -9 test checks each is kept.
 * Usage: node --import tsx tests/support/shared-state/state-writer.ts <journal dir>
 */
import { openFileJournal } from '../../../actors/runtime/file-journal.ts';
import { openSharedState } from '../../../actors/runtime/shared-state/open-shared-state.ts';
import type { StateEntry } from '../../../actors/runtime/shared-state/shared-state.ts';
import { updateWithRetry } from '../../../actors/runtime/shared-state/update-with-retry.ts';

const schema = { namespaces: { task: { scope: 'task', access: { W: 'RW' as const } } } };
const journal = await openFileJournal(process.argv[2]!);
const state = openSharedState({ journal, schema, scopes: { task: 'crash' }, compactAfter: 20, historyLimit: 4 });
const ack = (entry: StateEntry) =>
  process.stdout.write(`${entry.key} ${entry.version} ${JSON.stringify(entry.value)}\n`);

async function writer(i: number): Promise<never> {
  for (;;) {
    const mine = await updateWithRetry(
      state,
      'W',
      `task/w${i}`,
      (c: StateEntry<number> | undefined) => (c?.value ?? 0) + 1,
    );
    ack(mine);
    ack(
      await updateWithRetry(state, 'W', 'task/counter', (c: StateEntry<number> | undefined) => (c?.value ?? 0) + 1, {
        attempts: 1_000,
      }),
    );
  }
}

process.stdout.write('ready\n');
await Promise.all([0, 1, 2, 3].map(writer));
