import { mkdir, open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DataFileCorruptError } from '../../protocol/runtime/runtime-error.ts';
import { syncDir } from './sync-path.ts';

/** The folder, inside a journal's directory, that keeps the torn tails set aside on first touch. */
export const TORN_FOLDER = 'torn';

/**
 * Moves the last `tail.length` bytes of a partition file (a write cut by a crash, never
 * acknowledged) to `torn/<file name>.<time>.torn` beside it, and cuts the file back to
 * `length`, the end of its last complete line. The copy is made durable before the cut, so a
 * crash in between leaves the tail in place, to be set aside again on the next start; nothing
 * is ever lost. Returns the side file's path.
 */
export async function setAsideTornTail(
  file: string,
  length: number,
  tail: Uint8Array,
  now: Date = new Date(),
): Promise<string> {
  const handle = await open(file, 'r+');
  try {
    const { size } = await handle.stat();
    if (size !== length + tail.length) {
      // Someone wrote since the scan: cutting now could drop their bytes.
      throw new DataFileCorruptError(
        file,
        `it changed from ${length + tail.length} to ${size} bytes while it was checked; make sure no other server uses this data dir`,
      );
    }
    const folder = join(dirname(file), TORN_FOLDER);
    await mkdir(folder, { recursive: true });
    const side = await writeNewFile(folder, `${basename(file)}.${stamp(now)}`, tail);
    await syncDir(folder);
    await syncDir(dirname(file)); // the folder's own entry, when it was just made
    await handle.truncate(length);
    await handle.sync();
    return side;
  } finally {
    await handle.close();
  }
}

/** Writes `bytes` to a file that did not exist (`name.torn`, else `name-1.torn`, ...) and syncs it. */
async function writeNewFile(folder: string, name: string, bytes: Uint8Array): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const path = join(folder, `${name}${attempt === 0 ? '' : `-${attempt}`}.torn`);
    let side;
    try {
      side = await open(path, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    try {
      await side.writeFile(bytes);
      await side.sync();
    } finally {
      await side.close();
    }
    return path;
  }
}

/** An ISO time that every file system accepts in a name. */
function stamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}
