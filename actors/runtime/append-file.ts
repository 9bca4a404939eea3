import { open } from 'node:fs/promises';

/**
 * A file opened once for appending and kept open: the only operations a journal partition needs.
 * Tests pass their own to count writes or to fail on purpose.
 */
export interface AppendFile {
  /** Appends all of `bytes` at the end of the file (looping over short writes). */
  write(bytes: Uint8Array): Promise<void>;
  /** Makes everything written so far durable (`fdatasync`). */
  sync(): Promise<void>;
  /** Cuts the file back to `length` bytes: only used to drop a failed, unacknowledged write. */
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/** Opens `file` in append mode, creating it if needed; writes never depend on the file's size. */
export type OpenAppendFile = (file: string) => Promise<AppendFile>;

/** Opens `file` with `O_APPEND` and keeps the handle, so an append never rereads or rewrites it. */
export const openAppendFile: OpenAppendFile = async function openAppendFile(file) {
  const handle = await open(file, 'a');
  return {
    async write(bytes) {
      let offset = 0;
      while (offset < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
        offset += bytesWritten;
      }
    },
    sync: () => handle.datasync(),
    truncate: (length) => handle.truncate(length),
    close: () => handle.close(),
  };
};
