import { describe, expect, it } from 'vitest';
import { openSharedState } from '../../../../../actors/runtime/shared-state/open-shared-state.ts';
import type { StateRecord } from '../../../../../actors/runtime/shared-state/state-record.ts';
import { createGatedJournal } from '../../../../support/gated-journal.ts';
import { BEADS_SCHEMA as beadsSchema } from '../../../../../protocol/tiers/beads.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup() {
  const journal = createGatedJournal<StateRecord>();
  const state = openSharedState({ journal, schema: beadsSchema, scopes: { task: 't1' } });
  return { journal, state };
}

/** Tracks whether a promise has settled yet. */
function track<T>(promise: Promise<T>) {
  const tracked = { settled: false, value: undefined as T | undefined, error: undefined as unknown };
  promise.then(
    (value) => Object.assign(tracked, { settled: true, value }),
    (error: unknown) => Object.assign(tracked, { settled: true, error }),
  );
  return tracked;
}

describe('shared state: what readers see before a write is durable', () => {
  it('decides a write at once but shows it to nobody (caller, readers, listeners) until it is durable', async () => {
    const { journal, state } = setup();
    const heard: number[] = [];
    state.watch('task/', (change) => heard.push(change.version));
    const write = track(state.write('ARCHITECT', [{ key: 'task/a', value: 'x' }]));
    await tick();
    const read = track(state.get('task/a'));
    // A second writer is decided against the first, durable or not: its stale CAS fails at once.
    const stale = await state.write('ARCHITECT', [{ key: 'task/a', value: 'y', expectedVersion: 0 }]);
    expect(stale).toMatchObject({ ok: false, conflict: { currentVersion: 1 } });
    await tick();
    expect(journal.waiting).toHaveLength(1);
    expect([write.settled, read.settled, heard]).toEqual([false, false, []]);
    await journal.commit();
    await tick();
    expect(write.value).toMatchObject({ ok: true });
    expect(read.value).toMatchObject({ value: 'x', version: 1 });
    expect(heard).toEqual([1]);
  });

  it('acknowledges writes in version order, each once every write before it is durable', async () => {
    const { journal, state } = setup();
    const first = track(state.write('ARCHITECT', [{ key: 'task/a', value: 1 }]));
    await tick();
    const second = track(state.write('ARCHITECT', [{ key: 'task/a', value: 2, expectedVersion: 1 }]));
    await tick();
    expect(journal.waiting.map((w) => (w.data[0] as { version: number }).version)).toEqual([1, 2]);
    await journal.commit();
    await tick();
    expect([first.settled, second.settled]).toEqual([true, false]);
    await journal.commit();
    await tick();
    expect(second.value).toMatchObject({ ok: true, entries: [{ version: 2 }] });
  });

  it('refuses the failed write and those decided after it, then reads the scope instance again from the journal', async () => {
    const { journal, state } = setup();
    const first = track(state.write('ARCHITECT', [{ key: 'task/a', value: 1 }]));
    await tick();
    const second = track(state.write('ARCHITECT', [{ key: 'task/b', value: 2 }]));
    await tick();
    journal.fail('disk full');
    await tick();
    expect(first.error).toMatchObject({
      code: 'journal_unavailable',
      message: expect.stringMatching(/refused a write to task\/t1 \(disk full\).*read the keys again/),
    });
    expect(second.error).toMatchObject({ code: 'journal_unavailable' });
    // The second append still reaches the disk: refused to its caller, yet present, as after a crash.
    const read = track(state.get('task/b'));
    await tick();
    expect(read.settled).toBe(false); // the reload waits for the appends still in flight
    await journal.commit();
    await tick();
    expect(read.value).toMatchObject({ value: 2, version: 2 });
    expect(await state.get('task/a')).toBeUndefined();
    const next = track(state.write('ARCHITECT', [{ key: 'task/a', value: 3 }]));
    await tick();
    await journal.commit();
    await tick();
    expect(next.value).toMatchObject({ ok: true, entries: [{ version: 3 }] });
  });

  it('keeps the version readers see while a newer one is not durable, even with a history of one', async () => {
    const journal = createGatedJournal<StateRecord>();
    const state = openSharedState({ journal, schema: beadsSchema, scopes: { task: 't1' }, historyLimit: 1 });
    const first = track(state.write('ARCHITECT', [{ key: 'task/a', value: 1 }]));
    await tick();
    await journal.commit();
    await tick();
    expect(first.value).toMatchObject({ ok: true });
    void state.write('ARCHITECT', [{ key: 'task/a', value: 2 }]);
    const read = track(state.get('task/a')); // waits for version 2 only
    void state.write('ARCHITECT', [{ key: 'task/a', value: 3 }]);
    await tick();
    await journal.commit();
    await tick();
    expect(read.value).toMatchObject({ value: 2, version: 2 });
    await journal.commit();
    await tick();
    expect((await state.history('task/a')).map((e) => e.value)).toEqual([3]);
  });

  it('gives history the versions durable once the writes decided before the call are', async () => {
    const { journal, state } = setup();
    void state.write('ARCHITECT', [{ key: 'task/a', value: 1 }]);
    const history = track(state.history('task/a'));
    void state.write('ARCHITECT', [{ key: 'task/a', value: 2 }]);
    await tick();
    await journal.commit();
    await tick();
    expect(history.value?.map((e) => e.value)).toEqual([1]);
    await journal.commit();
  });
});
