/**
 * The Node flags the server runs with: `npm start` and `npm run start:cluster` (package.json),
 * every server a test or bench starts (`tests/support/crash/server-process.ts`,
 * `bench/startup-bench.ts`), and `npm run bench` itself, whose in-process benches run the runtime
 * as the server does; `tests/unit/server/node-flags.test.ts` checks package.json says the same.
 *
 * A young generation of up to 64 MB per semi-space (V8's default on 64-bit is 16 MB): the runs
 * working at once keep their envelopes, snapshots and journal batches alive until their writes
 * are durable, so small semi-spaces are scavenged often, each scavenge copying that live state
 * (10-16 ms pauses under load on the bench host) and promoting it into the old generation, whose
 * collections then stall the loop too. The semi-spaces grow only under allocation pressure: an
 * idle server's heap is the same.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'] as const;
