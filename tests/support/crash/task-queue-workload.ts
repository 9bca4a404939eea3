/**
 * A child for the task queue's kill -9 test: opens the queue `kill` over the file journal in
 * `argv[2]` (compacting often) and, until killed, submits pairs of tasks (`<prefix>-<n>` and
 * `<prefix>-<n>b`, which depends on it) whose executors answer `{ n }` after 0-3 ms. Prints
 * `ready` once open, `submitted <ids>` once a submission is acknowledged, `completed <id>` once a
 * completion is and `failed <id>` once a failure is (all on disk by then). Every seventh first task
 * fails for good (`bad input`, not transient), blocking its `b`.
 */
import { openFileJournal } from '../../../actors/runtime/file-journal.ts';
import { openTaskQueue } from '../../../actors/runtime/task-queue.ts';
import type { TaskLogRecord } from '../../../actors/runtime/task-queue-log.ts';

const [dir, prefix] = process.argv.slice(2);
if (!dir || !prefix) throw new Error('Usage: task-queue-workload.ts <journal dir> <id prefix>');
const journal = await openFileJournal<TaskLogRecord>(dir);
const queue = await openTaskQueue({
  journal,
  name: 'kill',
  compactAfter: 50,
  keepCompleted: 100_000,
  workers: {
    worker: {
      concurrency: 8,
      executor: (task) =>
        new Promise((resolve, reject) =>
          setTimeout(() => {
            if (Number(task.input_data) % 7 === 3 && !task.task_id.endsWith('b')) reject(new Error('bad input'));
            else resolve({ n: task.input_data });
          }, Math.random() * 3),
        ),
    },
  },
});
queue.subscribe((event) => {
  if (event.type === 'task.completed') process.stdout.write(`completed ${event.taskId}\n`);
  if (event.type === 'task.failed') process.stdout.write(`failed ${event.taskId}\n`);
});
process.stdout.write('ready\n');
for (let n = 0; ; n++) {
  const id = `${prefix}-${n}`;
  const answer = await queue.submit([
    { task_id: id, agent_type: 'worker', input_data: n },
    { task_id: `${id}b`, agent_type: 'worker', input_data: n, dependencies: [id] },
  ]);
  if (answer.status === 'accepted') process.stdout.write(`submitted ${answer.taskIds.join(' ')}\n`);
  else await new Promise((resolve) => setTimeout(resolve, answer.retryAfterMs));
}
