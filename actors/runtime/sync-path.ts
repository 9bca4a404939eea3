import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';

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
