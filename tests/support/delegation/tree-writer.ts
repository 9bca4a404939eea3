/**
 * A process that grows a delegation tree over a file journal until it is killed, printing one
 * line per acknowledged step (`<id> <status>` once a delegation, outcome or cancellation is
 * journaled): the kill -9 test checks that each is kept. Reopening first, it carries on from
 * what the journal holds. Usage: node --import tsx tests/support/delegation/tree-writer.ts <dir>
 */
import { openFileJournal } from '../../../actors/runtime/file-journal.ts';
import { openDelegationTree } from '../../../machines/runtime/delegation-tree.ts';
import type { DelegationRecord } from '../../../protocol/runtime/delegation-record.ts';

const journal = await openFileJournal<DelegationRecord>(process.argv[2]!);
const tree = await openDelegationTree({
  journal,
  partition: 'tree',
  partialResults: (node) => ({ partial: node.id }),
});
const ack = (id: string, status: string) => process.stdout.write(`${id} ${status}\n`);
let next = 0;
const HOUR = 3_600_000;

/** One worker: a root fanning out to two children, a grandchild; an outcome, then a cascading cancel. */
async function worker(): Promise<never> {
  for (;;) {
    const n = `${process.pid}-${next++}`; // unique across workers and restarts
    const root = `r${n}`;
    ack(root, (await tree.delegate({ id: root, owner: 'A', target: 'B', timeoutMs: HOUR })).status);
    const [a, b] = await tree.fanOut({
      parent: root,
      owner: 'B',
      strategy: 'all_success',
      children: [
        { id: `a${n}`, target: 'C', timeoutMs: HOUR },
        { id: `b${n}`, target: 'C', timeoutMs: HOUR },
      ],
    });
    ack(a!.id, a!.status);
    ack(b!.id, b!.status);
    const grandchild = `g${n}`;
    ack(grandchild, (await tree.delegate({ id: grandchild, parent: a!.id, owner: 'C', target: 'D' })).status);
    ack(b!.id, (await tree.report(b!.id, { status: 'success', confidence: 0.9 })).node.status);
    const receipt = await tree.cancel(root, { reason: 'done', cascade: true });
    for (const id of receipt.cancelled) ack(id, 'cancelled');
  }
}

process.stdout.write('ready\n');
await Promise.all([worker(), worker(), worker()]);
