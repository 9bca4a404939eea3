/**
 * Store benchmark: the median cost of one `update` and one `put` to a document of a collection
 * that holds 10,000 documents, against the same in a collection of 10, in one lowdb store.
 * Passes when both ratios are at most 1.2: a write does not cost more as a collection grows.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openLowdbStore } from '../actors/runtime/lowdb-store.ts';
import type { Collection } from '../actors/runtime/store.ts';

/** Options of `runStoreBench`; the defaults are what `npm run bench` measures. */
interface StoreBenchOptions {
  /** Documents in the big collection (10,000) and in the small one (10). */
  big?: number;
  small?: number;
  /** Rounds (12) of writes of each kind to each collection (15 a round), the two interleaved. */
  rounds?: number;
  writesPerRound?: number;
}

/** A record about the size of a pipeline listing or a session (about 600 bytes as JSON). */
interface Doc {
  id: string;
  owner: string;
  state: string;
  version: number;
  created_at: string;
  notes: string;
}

/** Times of writes (ms), or their ratios, by kind. */
interface Timings {
  update: number[];
  put: number[];
}

/**
 * Measures write costs at two collection sizes in the same process, interleaved write by write:
 * an update and a put to random documents of one collection, then the same to the other; each
 * ratio is the median of these pairs' ratios (`ratioOfMedians` shows the other reading). Both
 * collections are prefilled as one file each in the layout stores had before one file per
 * document (which the old store reads as is, and the new one moves to its layout on first
 * access: `firstAccessMs`), so the same bench measured the store before and after that change.
 */
export async function runStoreBench(options: StoreBenchOptions = {}) {
  const sizes = { big: options.big ?? 10_000, small: options.small ?? 10 };
  const rounds = options.rounds ?? 12;
  const writesPerRound = options.writesPerRound ?? 15;
  const dir = await mkdtemp(join(tmpdir(), 'store-bench-'));
  try {
    await mkdir(join(dir, 'bench'));
    for (const [name, count] of Object.entries(sizes)) {
      const docs = Object.fromEntries(Array.from({ length: count }, (_, i) => [`doc-${i}`, doc(`doc-${i}`, 0)]));
      await writeFile(join(dir, 'bench', `${name}.json`), JSON.stringify({ docs }));
    }
    const store = await openLowdbStore(dir);
    const big = store.collection<Doc>('bench/big');
    const small = store.collection<Doc>('bench/small');
    const firstAccessStart = performance.now();
    if (!(await big.get('doc-0'))) throw new Error('store bench: the prefill was not read');
    const firstAccessMs = performance.now() - firstAccessStart;
    await small.get('doc-0');

    const random = seeded(42);
    const timings: Record<'big' | 'small', Timings> = { big: { update: [], put: [] }, small: { update: [], put: [] } };
    const pairRatios: Timings = { update: [], put: [] };
    for (let pass = -1; pass < rounds; pass += 1) {
      // Pass -1 warms the JIT and the file cache, unmeasured. Then each write to one collection
      // is paired with the same write to the other, right after or before it (alternately), so a
      // drift of the disk or of the other work on the host hits both alike.
      for (let i = 0; i < writesPerRound; i += 1) {
        const bigFirst = (pass + i) % 2 === 0;
        const first = await timeWrites(bigFirst ? big : small, bigFirst ? sizes.big : sizes.small, random);
        const second = await timeWrites(bigFirst ? small : big, bigFirst ? sizes.small : sizes.big, random);
        if (pass < 0) continue;
        const [atBig, atSmall] = bigFirst ? [first, second] : [second, first];
        for (const kind of ['update', 'put'] as const) {
          timings.big[kind].push(atBig[kind]);
          timings.small[kind].push(atSmall[kind]);
          pairRatios[kind].push(atBig[kind] / atSmall[kind]);
        }
      }
    }
    await store.close();
    const medians = (tally: Timings) => ({
      updateMs: round(median(tally.update), 3),
      putMs: round(median(tally.put), 3),
    });
    // The median of the pairs' ratios: a stall that hits one write of one pair moves it little.
    const updateRatio = round(median(pairRatios.update), 3);
    const putRatio = round(median(pairRatios.put), 3);
    return {
      name: 'store',
      documents: sizes,
      writesTimed: rounds * writesPerRound,
      firstAccessMs: round(firstAccessMs, 1),
      atBig: medians(timings.big),
      atSmall: medians(timings.small),
      updateRatio,
      putRatio,
      ratioOfMedians: {
        update: round(median(timings.big.update) / median(timings.small.update), 3),
        put: round(median(timings.big.put) / median(timings.small.put), 3),
      },
      target: '<= 1.2',
      pass: updateRatio <= 1.2 && putRatio <= 1.2,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Times one update and one put, each to a random document of the collection. */
async function timeWrites(collection: Collection<Doc>, size: number, random: () => number) {
  const updated = `doc-${Math.floor(random() * size)}`;
  let start = performance.now();
  await collection.update(updated, (current) => ({
    ...(current ?? doc(updated, 0)),
    version: (current?.version ?? 0) + 1,
  }));
  const update = performance.now() - start;
  const replaced = `doc-${Math.floor(random() * size)}`;
  start = performance.now();
  await collection.put(replaced, doc(replaced, 1));
  return { update, put: performance.now() - start };
}

function doc(id: string, version: number): Doc {
  return {
    id,
    owner: 'user-3f2c9a61',
    state: 'output_ready',
    version,
    created_at: '2026-11-23T10:00:00.000Z',
    notes: 'a record of the size a pipeline listing or a trainer session has in the store '.repeat(6),
  };
}

/** A small deterministic generator (mulberry32), so every run writes the same documents. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  console.log(JSON.stringify(await runStoreBench(), null, 2));
}
