import { openAppendFile, type AppendFile, type OpenAppendFile } from '../../actors/runtime/append-file.ts';

/** Real files, with hooks to count calls, hold a write, or fail the next write or sync. */
export function instrumentedOpen() {
  const calls = { opens: 0, closes: 0, writes: 0, syncs: 0, truncates: 0 };
  const faults: { write?: Error; sync?: Error; gate?: Promise<void> } = {};
  const open: OpenAppendFile = async (file) => {
    const real = await openAppendFile(file);
    calls.opens += 1;
    const wrapped: AppendFile = {
      async write(bytes) {
        calls.writes += 1;
        await faults.gate;
        const fault = faults.write;
        faults.write = undefined;
        if (fault) {
          await real.write(bytes.subarray(0, Math.floor(bytes.length / 2))); // a torn write
          throw fault;
        }
        await real.write(bytes);
      },
      async sync() {
        calls.syncs += 1;
        const fault = faults.sync;
        faults.sync = undefined;
        if (fault) throw fault;
        await real.sync();
      },
      async truncate(length) {
        calls.truncates += 1;
        await real.truncate(length);
      },
      async close() {
        calls.closes += 1;
        await real.close();
      },
    };
    return wrapped;
  };
  return { open, calls, faults };
}
