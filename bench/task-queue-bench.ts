/**
 * Task queue: assignments/s through a journaled queue on a file journal, against the supervisor's
 * routing rate measured in the same run (`supervisedRoutingRate`, paired rounds), and the latency
 * from a task becoming ready to its executor starting, with 200 tasks in flight and 100 executors
 * at once, both counted and timed inside the executor (spec 003: p95 < 1 s, the pass; aim here
 * < 10 ms, reported as `aim`). Real clock (sub-millisecond), real disk.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceClock } from '../actors/runtime/clock.ts';
import type { Journal } from '../actors/runtime/journal.ts';
import { openFileJournal } from '../actors/runtime/file-journal.ts';
import type { TaskExecutor } from '../actors/runtime/task-attempt.ts';
import { openTaskQueue, type TaskQueue } from '../actors/runtime/task-queue.ts';
import type { TaskLogRecord } from '../actors/runtime/task-queue-log.ts';
import { supervisedRoutingRate } from './routing-bench.ts';

/** Wall-clock time with sub-millisecond resolution, and Node's timers. */
const preciseClock: ServiceClock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimeout: (fn: (...args: unknown[]) => void, ms: number) => setTimeout(fn, ms),
  clearTimeout: (id: unknown) => clearTimeout(id as NodeJS.Timeout),
};

async function withQueue<R>(
  dir: string,
  executor: TaskExecutor,
  onDurable: (record: TaskLogRecord) => void,
  use: (queue: TaskQueue) => Promise<R>,
): Promise<R> {
  const journal = await openFileJournal<TaskLogRecord>(dir);
  const queue = await openTaskQueue({
    journal: observedJournal(journal, onDurable),
    name: 'bench',
    clock: preciseClock,
    workers: { worker: { concurrency: 100, executor } },
  });
  try {
    return await use(queue);
  } finally {
    queue.close();
    await journal.close();
  }
}

/**
 * `tasks` independent tasks that do no work, submitted at once in batches of 1,000 (as the routing
 * bench sends its envelopes at once): tasks assigned per second until every completion is on disk.
 */
async function assignmentRate(dir: string, tasks: number): Promise<number> {
  return withQueue(
    dir,
    async () => 'ok',
    () => {},
    async (queue) => {
      let completed = 0;
      let done!: () => void;
      const finished = new Promise<void>((resolve) => (done = resolve));
      queue.subscribe((event) => {
        if (event.type === 'task.completed' && ++completed === tasks) done();
      });
      const started = performance.now();
      for (let from = 0; from < tasks; from += 1_000) {
        const batch = Array.from({ length: Math.min(1_000, tasks - from) }, (_, i) => ({
          task_id: `t${from + i}`,
          agent_type: 'worker',
          input_data: null,
        }));
        void queue.submit(batch);
      }
      await finished;
      return tasks / ((performance.now() - started) / 1000);
    },
  );
}

/** `journal`, calling `onDurable(record)` the moment each append is on disk (before the queue hears of it). */
function observedJournal(journal: Journal<TaskLogRecord>, onDurable: (record: TaskLogRecord) => void) {
  const observed: Journal<TaskLogRecord> = {
    append: async (partition, data) => {
      const entry = await journal.append(partition, data);
      onDurable(data);
      return entry;
    },
    appendMany: (partition, data) => journal.appendMany(partition, data),
    read: (partition) => journal.read(partition),
    lastSeq: (partition) => journal.lastSeq(partition),
    loadedSeq: (partition) => journal.loadedSeq(partition),
    partitions: () => journal.partitions(),
    close: () => journal.close(),
  };
  return observed;
}

/**
 * Pairs of tasks (the second depends on the first) kept at 100 pairs, so 200 tasks in flight and
 * up to 100 executors at once (each works 5-15 ms), counted inside the executor. A task's wait
 * runs from the moment it became ready (its submission on disk, or its dependency's result on
 * disk) or, when all 100 executors were busy then, from the moment one ended for it, to its own
 * executor starting (timestamped inside it). Also: from the dependency's executor returning its
 * result to the dependent's executor starting (which includes writing that result to disk).
 */
async function latency(dir: string, pairs: number) {
  const readyAt = new Map<string, { at: number; busy: boolean }>();
  const resultAt = new Map<string, number>();
  const waits: number[] = [];
  const afterDependency: number[] = [];
  let executing = 0;
  let peakRunning = 0;
  let peakInFlight = 0;
  let lastFreedAt = 0;
  let unfinished = () => 0;
  const markReady = (id: string) => readyAt.set(id, { at: performance.now(), busy: executing >= 100 });
  const onDurable = (record: TaskLogRecord) => {
    if (record.t === 'submitted')
      for (const task of record.tasks) if (task.dependencies.length === 0) markReady(task.task_id);
    if (record.t === 'completed') markReady(`${record.task_id}b`);
  };
  const executor: TaskExecutor = (task) => {
    const startedAt = performance.now();
    peakRunning = Math.max(peakRunning, ++executing);
    peakInFlight = Math.max(peakInFlight, unfinished());
    const ready = readyAt.get(task.task_id);
    if (ready) waits.push(startedAt - (ready.busy ? Math.max(ready.at, lastFreedAt) : ready.at));
    readyAt.delete(task.task_id);
    const dependencyAt = resultAt.get(task.task_id);
    if (dependencyAt !== undefined) afterDependency.push(startedAt - dependencyAt);
    resultAt.delete(task.task_id);
    return new Promise((resolve) =>
      setTimeout(
        () => {
          executing--;
          lastFreedAt = performance.now();
          resultAt.set(`${task.task_id}b`, lastFreedAt);
          resolve({ n: task.input_data });
        },
        5 + Math.random() * 10,
      ),
    );
  };
  await withQueue(dir, executor, onDurable, async (queue) => {
    unfinished = () => queue.stats().unfinished;
    let next = 0;
    let finishedPairs = 0;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const submitPair = () => {
      const id = `p${next++}`;
      void queue.submit([
        { task_id: id, agent_type: 'worker', input_data: id },
        { task_id: `${id}b`, agent_type: 'worker', input_data: id, dependencies: [id] },
      ]);
    };
    queue.subscribe((event) => {
      if (event.type !== 'task.completed' || !event.taskId.endsWith('b')) return;
      if (++finishedPairs === pairs) done();
      else if (next < pairs) submitPair();
    });
    for (let i = 0; i < Math.min(100, pairs); i++) submitPair();
    await finished;
  });
  const percentile = (xs: number[], p: number) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(3));
  };
  return {
    tasks: waits.length,
    peakInFlight,
    peakRunning,
    readyToExecutingMs: { p50: percentile(waits, 0.5), p95: percentile(waits, 0.95), p99: percentile(waits, 0.99) },
    dependencyResultToExecutingMs: {
      p50: percentile(afterDependency, 0.5),
      p95: percentile(afterDependency, 0.95),
      p99: percentile(afterDependency, 0.99),
    },
  };
}

/**
 * The task queue bench; `npm run bench -- task-queue`. Rounds pair the queue with the supervisor
 * (which goes first alternates) and the ratio is the median of the per-pair ratios, so a slow
 * spell of a shared host slows both sides of a pair instead of skewing one of them.
 */
export async function runTaskQueueBench(options: { tasks?: number; pairs?: number; rounds?: number } = {}) {
  const tasks = options.tasks ?? 10_000;
  const pairs = options.pairs ?? 1_000;
  const rounds = options.rounds ?? 5;
  const dir = await mkdtemp(join(tmpdir(), 'task-queue-bench-'));
  const queueRates: number[] = [];
  const routingRates: number[] = [];
  const ratios: number[] = [];
  try {
    await assignmentRate(join(dir, 'warm'), 2_000);
    await supervisedRoutingRate(2_000, join(dir, 'warm-routing'));
    for (let round = 0; round < rounds; round++) {
      const queueFirst = round % 2 === 0;
      const before = queueFirst ? await assignmentRate(join(dir, `queue-${round}`), tasks) : undefined;
      const routing = await supervisedRoutingRate(tasks, join(dir, `routing-${round}`));
      const rate = before ?? (await assignmentRate(join(dir, `queue-${round}`), tasks));
      queueRates.push(rate);
      routingRates.push(routing);
      ratios.push(rate / routing);
    }
    const waits = await latency(join(dir, 'latency'), pairs);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return {
      name: 'task-queue',
      tasks,
      rounds,
      taskQueue: { assignmentsPerSec: Math.round(median(queueRates)) },
      supervisor: { envelopesPerSec: Math.round(median(routingRates)) },
      ratio: Number(median(ratios).toFixed(3)),
      ratioRange: [Number(Math.min(...ratios).toFixed(3)), Number(Math.max(...ratios).toFixed(3))],
      latency: waits,
      target: 'p95 ready -> executing < 1 s with 200 tasks in flight and 100 executors at once (spec 003); aim < 10 ms',
      pass: waits.readyToExecutingMs.p95 < 1_000 && waits.peakRunning >= 100 && waits.peakInFlight >= 200,
      aim: waits.readyToExecutingMs.p95 < 10,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runTaskQueueBench(), null, 2));
}
