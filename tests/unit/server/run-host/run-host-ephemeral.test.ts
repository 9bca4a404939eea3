import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { createMemoryStore } from '../../../../actors/runtime/memory-store.ts';
import type { JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import { RunHost } from '../../../../server/run-host/run-host.ts';
import { ackTestSystem } from '../../../support/ack-harness.ts';

/** An ephemeral host of the ack test system on memory journal and store, its run actor `A`. */
function ephemeralHost(options: { admission?: { maxWorking: number; maxPerOwner: number } } = {}) {
  return RunHost.ephemeral({
    system: ackTestSystem().system,
    journal: createMemoryJournal<JournalRecord>(),
    store: createMemoryStore(),
    runActor: 'A',
    ...options,
  });
}

describe('an ephemeral run host', () => {
  it('keeps nothing of a run it released: its slot is free and no hold is left behind, however many runs came before', async () => {
    const host = ephemeralHost({ admission: { maxWorking: 1, maxPerOwner: 1 } });
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

  it('stops an until once its signal is aborted, leaving no subscription on the run actor', async () => {
    const host = ephemeralHost();
    const run = host.start({ owner: 'ada', partition: 'run-until' });
    const observers = () => (run.actor as unknown as { observers: Set<unknown> }).observers.size;
    const before = observers();
    const leave = new AbortController();
    const waiting = run.until(() => false, leave.signal);
    expect(observers()).toBe(before + 1);
    leave.abort(new Error('the client left'));
    await expect(waiting).rejects.toThrow('the client left');
    expect(observers()).toBe(before);
    await expect(run.until(() => false, leave.signal)).rejects.toThrow('the client left');
    await expect(run.until(() => true, leave.signal)).resolves.toBeDefined();
    host.release(run.partition);
    await host.close();
  });
});
