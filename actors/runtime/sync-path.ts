import { open } from 'node:fs/promises';

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
