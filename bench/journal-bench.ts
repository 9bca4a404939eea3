import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openFileJournal, type FileJournal } from '../actors/runtime/file-journal.ts';

const PARTITION = '3f2c9a61b0e54d7f_v2';
const APPENDERS = 100;
const PREFILL_CHUNK = 10_000;

/** Options of `runJournalBench`; the defaults are what `npm run bench` measures. */
interface JournalBenchOptions {
  /** Measured seconds at each log size, in total over the rounds (4). */
  seconds?: number;
  /** Rounds, alternating the two sizes, so a drift in disk speed hits both alike (20). */
  rounds?: number;
  /** Unmeasured seconds on a scratch journal first, to warm the JIT (0.5). */
  warmupSeconds?: number;
}

/** What the rounds at one log size found. */
interface Measurement {
  appendsPerSec: number;
  acknowledged: number;
  /** Events in the log when each round started. */
  eventsAtStart: number;
  batches: number;
  avgBatch: number;
  /** Time to open (scan and check) the prefilled log, as a restarting server would. */
  openMs: number;
}

/** Running totals of one log size over the rounds. */
class Tally {
  constructor(readonly events: number) {}
  acknowledged = 0;
  elapsed = 0;
  batches = 0;
  openMs = 0;

  result(): Measurement {
    return {
      appendsPerSec: Math.round(this.acknowledged / this.elapsed),
      acknowledged: this.acknowledged,
      eventsAtStart: this.events,
      batches: this.batches,
      avgBatch: round(this.acknowledged / Math.max(this.batches, 1), 1),
      openMs: round(this.openMs, 1),
    };
  }
}

/**
 * Acknowledged (fdatasync'd) appends per second from 100 concurrent appenders on one partition,
 * each awaiting its append before the next, when the log already holds 1,000 events and when it
 * holds 100,000. Passes when the second rate is at least 0.8 of the first (appends do not slow
 * down as the log grows) and at least 10,000/s. Each round measures both sizes on new logs
 * prefilled the same way, so they differ only in size, not in how their files were built.
 */
export async function runJournalBench(options: JournalBenchOptions = {}) {
  const seconds = options.seconds ?? 4;
  const rounds = options.rounds ?? 20;
  const root = await mkdtemp(join(tmpdir(), 'journal-bench-'));
  try {
    const scratch = await openFileJournal<unknown>(join(root, 'warmup'));
    await drive(scratch, options.warmupSeconds ?? 0.5);
    await scratch.close();

    const small = new Tally(1_000);
    const large = new Tally(100_000);
    const pairRatios: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternate which size goes first, so that anything that favours the first (or second)
      // measurement of a pair, like a disk's burst credit, cancels out.
      const pair = round % 2 === 0 ? [small, large] : [large, small];
      const rates = new Map<Tally, number>();
      for (const tally of pair) {
        const dir = join(root, `round-${round}-${tally.events}`);
        const journal = await prefilled(dir, tally.events);
        rates.set(tally, await measureRound(journal, seconds / rounds, tally));
        await journal.close();
        await rm(dir, { recursive: true });
      }
      pairRatios.push((rates.get(large) ?? 0) / (rates.get(small) ?? 1));
    }
    for (const tally of [small, large]) tally.openMs = await timeReopen(root, tally.events);
    const at1k = small.result();
    const at100k = large.result();
    // The median of the per-round ratios: a disk stall that hits one side of one pair (a shared
    // cloud disk has many) moves it little, where it could swing the ratio of the totals.
    const ratio = round(median(pairRatios), 3);
    return {
      name: 'journal',
      appenders: APPENDERS,
      seconds,
      rounds,
      at1k,
      at100k,
      ratio,
      ratioOfTotals: round(at100k.appendsPerSec / at1k.appendsPerSec, 3),
      pass: ratio >= 0.8 && at100k.appendsPerSec >= 10_000,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** A new journal holding `events` events, appended in big chunks. */
async function prefilled(dir: string, events: number): Promise<FileJournal> {
  const journal = await openFileJournal<unknown>(dir);
  for (let done = 0; done < events; done += PREFILL_CHUNK) {
    const size = Math.min(PREFILL_CHUNK, events - done);
    await journal.appendMany(
      PARTITION,
      Array.from({ length: size }, (_, i) => event(done + i)),
    );
  }
  return journal;
}

/** How long opening a log of `events` events and its first touch (which scans and checks it) take, as after a restart. */
async function timeReopen(root: string, events: number): Promise<number> {
  const dir = join(root, `reopen-${events}`);
  await (await prefilled(dir, events)).close();
  const start = performance.now();
  const journal = await openFileJournal<unknown>(dir);
  const lastSeq = await journal.lastSeq(PARTITION);
  const ms = performance.now() - start;
  if (lastSeq !== events) throw new Error('journal bench: prefill was lost');
  await journal.close();
  return ms;
}

/** Measures one round, adds it to `tally` and returns its rate. */
async function measureRound(journal: FileJournal, seconds: number, tally: Tally): Promise<number> {
  const before = await journal.lastSeq(PARTITION);
  const writes = journal.stats().writes;
  const start = performance.now();
  const acknowledged = await drive(journal, seconds);
  const elapsed = (performance.now() - start) / 1000;
  tally.elapsed += elapsed;
  if ((await journal.lastSeq(PARTITION)) !== before + acknowledged) {
    throw new Error('journal bench: the seqs do not match the acknowledged appends');
  }
  tally.acknowledged += acknowledged;
  tally.batches += journal.stats().writes - writes;
  return acknowledged / elapsed;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** Runs the appenders for `seconds` and returns how many appends were acknowledged. */
async function drive(journal: FileJournal<unknown>, seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let acknowledged = 0;
  const appender = async (id: number): Promise<void> => {
    for (let n = 0; performance.now() < deadline; n += 1) {
      await journal.append(PARTITION, event(n, id));
      acknowledged += 1;
    }
  };
  await Promise.all(Array.from({ length: APPENDERS }, (_, id) => appender(id)));
  return acknowledged;
}

/** A message the size of a routed envelope (about 250 bytes). */
function event(n: number, from = 0) {
  return {
    id: `msg-${from}-${n}`,
    type: 'agent.result',
    from: `agent-${from}`,
    to: 'supervisor',
    at: '2025-01-01T00:00:00.000Z',
    payload: { step: n, summary: 'a short result that stands in for an agent output', ok: true },
  };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  console.log(JSON.stringify(await runJournalBench(), null, 2));
}
