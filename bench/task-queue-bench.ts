/**
 * Task queue: assignments/s through a journaled queue on a file journal, against the supervisor's
 * routing rate measured in the same run (`supervisedRoutingRate`, paired rounds), and the latency from a task becoming
 * ready to its assignment with 200 tasks in flight and 100 executing at once (spec 003: p95 < 1 s;
 * aim here < 10 ms). Real clock (sub-millisecond), real disk.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceClock } from '../actors/runtime/clock.ts';
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

async function withQueue<R>(dir: string, executor: TaskExecutor, use: (queue: TaskQueue) => Promise<R>): Promise<R> {
  const journal = await openFileJournal<TaskLogRecord>(dir);
  const queue = await openTaskQueue({
    journal,
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

/**
 * Pairs of tasks (the second depends on the first) kept at 100 pairs, so 200 tasks in flight and
 * up to 100 executing (each works 5-15 ms): the wait of every task from ready to assigned, and
 * from its dependency's result to its own assignment (which includes writing that result to disk).
 */
async function latency(dir: string, pairs: number) {
  const resultAt = new Map<string, number>();
  const waits: number[] = [];
  const afterDependency: number[] = [];
  let running = 0;
  let peakRunning = 0;
  let peakInFlight = 0;
  const executor: TaskExecutor = (task) =>
    new Promise((resolve) =>
      setTimeout(
        () => {
          resultAt.set(`${task.task_id}b`, performance.now());
          resolve({ n: task.input_data });
        },
        5 + Math.random() * 10,
      ),
    );
  await withQueue(dir, executor, async (queue) => {
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
      if (event.type === 'task.started') {
        running++;
        peakRunning = Math.max(peakRunning, running);
        peakInFlight = Math.max(peakInFlight, queue.stats().unfinished);
        waits.push(event.waited_ms);
        const at = resultAt.get(event.task_id);
        if (at !== undefined) afterDependency.push(performance.now() - at);
        resultAt.delete(event.task_id);
      } else if (event.type === 'task.completed') {
        running--;
        if (!event.task_id.endsWith('b')) return;
        if (++finishedPairs === pairs) done();
        else if (next < pairs) submitPair();
      }
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
    readyToAssignedMs: { p50: percentile(waits, 0.5), p95: percentile(waits, 0.95), p99: percentile(waits, 0.99) },
    dependencyResultToAssignedMs: {
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
      target: 'p95 ready -> assigned < 10 ms with 200 tasks in flight and 100 executing (spec 003: < 1 s)',
      pass: waits.readyToAssignedMs.p95 < 10 && waits.peakRunning >= 100 && waits.peakInFlight >= 200,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runTaskQueueBench(), null, 2));
}
