import { mkdir, open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Makes a file's data durable (`fdatasync`) when it was written through another handle. */
export async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes a directory's entries durable, so a created or renamed file survives a crash. Best
 * effort: some platforms (Windows) cannot open a directory for syncing, and there is nothing to
 * do there.
 */
export async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Not supported here; the file data itself is still synced.
  } finally {
    await handle?.close();
  }
}

/**
 * Creates `dir` and any missing parent, durably: each folder it created is synced into its
 * parent, so the folder (and what is written in it next) survives a crash.
 */
export async function makeDir(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return; // it was there already
  const created: string[] = [];
  for (let path = dir; path.length >= first.length; path = dirname(path)) created.push(path);
  for (const path of created.reverse()) await syncDir(dirname(path));
}

/** The file operations `writeFileDurably` makes, in its order; tests pass their own to watch it. */
export interface DurableWriteOps {
  /** Writes `text` to `file` (created or emptied) and makes it durable before it resolves. */
  writeSynced(file: string, text: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  syncDir(dir: string): Promise<void>;
}

const NODE_OPS: DurableWriteOps = {
  async writeSynced(file, text) {
    const handle = await open(file, 'w');
    try {
      await handle.writeFile(text);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  },
  rename,
  syncDir,
};

/**
 * Replaces `file` with `text`, atomically and durably: the text goes to a temp file beside it
 * (`.<name>.tmp`, the name lowdb's writer uses), which is synced before it is renamed over the
 * file, and then the folder is synced. A crash at any point leaves the old file or the new one,
 * whole: renaming before the data is on disk (as lowdb's writer does, it never syncs) could leave
 * an empty file after a power loss. Writes to one file must not overlap (callers queue them).
 */
export async function writeFileDurably(file: string, text: string, ops: DurableWriteOps = NODE_OPS): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.tmp`);
  await ops.writeSynced(temp, text);
  await ops.rename(temp, file);
  await ops.syncDir(dirname(file));
}
