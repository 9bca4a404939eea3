import { rm } from 'node:fs/promises';
import { afterEach } from 'vitest';
import type { RuntimeOverrides } from '../../../server/runtime.ts';
import { startRuntime } from '../runtime-harness.ts';
import { listen } from './a2a-server.ts';

/**
 * Runtimes served over HTTP for the A2A tests of one file, each torn down after its test. Call it
 * at the file's top level. `serve(overrides?, dir?)` starts the runtime (on `dir`: the data of one
 * the test stopped with `harness.stop(false)`, a restart) and listens on a free port; after the
 * test, latest first, each server closes, each runtime stops (once: a stop the test made counts)
 * and its data goes. `afterTest` adds a clean-up of the test's own, run before those of the
 * runtimes served before it (a gate to open before the runtime stops).
 *
 * @example
 * const { serve } = servedRuntimes();
 * const { harness, server } = await serve();
 * const client = await server.client('ada', 'nutrition');
 */
export function servedRuntimes() {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    async serve(overrides: RuntimeOverrides = {}, dir?: string) {
      const started = await startRuntime(overrides, dir);
      let stopped: Promise<void> | undefined;
      const harness = { ...started, stop: (removeData = true) => (stopped ??= started.stop(removeData)) };
      const server = await listen(harness);
      cleanups.push(async () => {
        await server.close();
        await harness.stop();
        await rm(harness.dir, { recursive: true, force: true });
      });
      return { harness, server };
    },
    afterTest(cleanup: () => Promise<void> | void) {
      cleanups.push(cleanup);
    },
  };
}
