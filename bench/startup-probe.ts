/**
 * Loaded before `server/main.ts` by the start-up bench only (`node --expose-gc --import tsx
 * --import ./bench/startup-probe.ts server/main.ts`, with an IPC channel): it counts the files
 * and folders under `DATA_DIR` that the process opens, reads or lists, and answers the bench's
 * `probe` message with those counts and the heap after a full GC. The server is unchanged: this
 * is how the bench measures what start-up reads, instead of guessing it.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';

const dataDir = resolve(process.env.DATA_DIR ?? './data') + sep;
const files = new Set<string>();
const folders = new Set<string>();

/** Notes `path` when it is under the data dir. */
function note(into: Set<string>, path: unknown): void {
  if (typeof path !== 'string' && !(path instanceof URL)) return;
  const full = resolve(path instanceof URL ? path.pathname : path);
  if (full.startsWith(dataDir)) into.add(full.slice(dataDir.length));
}

type AnyFunction = (...args: any[]) => any;
function wrap<O extends object>(owner: O, name: keyof O & string, into: Set<string>): void {
  const original = owner[name] as AnyFunction;
  (owner as Record<string, AnyFunction>)[name] = function probed(this: unknown, path: unknown, ...rest: unknown[]) {
    note(into, path);
    return original.call(this, path, ...rest);
  };
}

for (const name of ['open', 'readFile'] as const) wrap(fs.promises, name, files);
for (const name of ['openSync', 'readFileSync', 'createReadStream', 'open', 'readFile'] as const) wrap(fs, name, files);
wrap(fs.promises, 'readdir', folders);
wrap(fs, 'readdirSync', folders);
// ESM imports of node:fs and node:fs/promises see the wrapped functions from here on.
syncBuiltinESMExports();

/** What the bench asks for once `GET /health` answers. */
export interface ProbeReport {
  /** Heap in use after a full GC (MB): what start-up keeps. */
  heapMb: number;
  /** Heap in use as found, garbage included (MB). */
  heapFoundMb: number;
  rssMb: number;
  /** Files under DATA_DIR opened or read so far, and folders listed. */
  filesRead: number;
  foldersListed: number;
  /** A few of the files, to see what they are. */
  sample: string[];
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

process.on('message', (message) => {
  if (message !== 'probe') return;
  const heapFound = process.memoryUsage().heapUsed;
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.send?.({
    heapMb: mb(heapUsed),
    heapFoundMb: mb(heapFound),
    rssMb: mb(rss),
    filesRead: files.size,
    foldersListed: folders.size,
    sample: [...files].slice(0, 8),
  } satisfies ProbeReport);
});
// The IPC channel must not keep a server that is told to stop alive.
process.channel?.unref();
