import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { createMemoryStore } from '../../../../actors/runtime/memory-store.ts';
import type { JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import { RunHost } from '../../../../server/run-host/run-host.ts';
import { ackTestSystem } from '../../../support/ack-harness.ts';

describe('an ephemeral run host', () => {
  it('keeps nothing of a run it released: its slot is free and no hold is left behind, however many runs came before', async () => {
    const host = RunHost.ephemeral({
      system: ackTestSystem().system,
      journal: createMemoryJournal<JournalRecord>(),
      store: createMemoryStore(),
      runActor: 'A',
      admission: { maxWorking: 1, maxPerOwner: 1 },
    });
    for (let i = 0; i < 50; i++) {
      const run = host.start({ owner: 'ada', partition: `run-${i}` });
      expect(() => host.start({ owner: 'bo', partition: `other-${i}` })).toThrow(
        /overloaded|under way|busy|try again/i,
      );
      host.release(run.partition);
    }
    // Held from `start` to a `commit` an ephemeral host never makes: a release must let go of it.
    expect((host as unknown as { holds: { size: number } }).holds.size).toBe(0);
    await host.close();
  });
});
