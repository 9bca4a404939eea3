import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { Journal } from '../../../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import {
  DelegationEndedError,
  DelegationJournalError,
  UnknownDelegationError,
} from '../../../../machines/runtime/delegation-errors.ts';
import { openDelegationTree } from '../../../../machines/runtime/delegation-tree.ts';
import type { DelegationRecord } from '../../../../protocol/runtime/delegation-record.ts';

/** A tree whose journal refuses appends while `fail` is set. */
async function flakySetup() {
  const journal = createMemoryJournal<DelegationRecord>();
  const state = { fail: false };
  const flaky: Journal<DelegationRecord> = {
    ...journal,
    append: (partition, data) =>
      state.fail ? Promise.reject(new Error('disk full')) : journal.append(partition, data),
  };
  const errors: unknown[] = [];
  const tree = await openDelegationTree({
    journal: flaky,
    partition: 'tree',
    clock: new SimulatedClock(),
    onError: (error) => errors.push(error),
  });
  const records = async () => (await journal.read('tree')).map((entry) => entry.data);
  return { tree, state, records, errors };
}

describe('the errors of a delegation tree', () => {
  it('names each error class', async () => {
    const { tree, state } = await flakySetup();
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 1_000 });
    await tree.report('a', { status: 'failed' });
    const unknown = await tree.report('zz', { status: 'success' }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(UnknownDelegationError);
    expect(unknown).toMatchObject({ name: 'UnknownDelegationError', id: 'zz', status: 404 });
    const ended = await tree
      .delegate({ id: 'b', parent: 'a', owner: 'B', target: 'C' })
      .catch((error: unknown) => error);
    expect(ended).toBeInstanceOf(DelegationEndedError);
    expect(ended).toMatchObject({ name: 'DelegationEndedError', id: 'a', outcome: 'failed', status: 409 });
    state.fail = true;
    const journal = await tree.delegate({ id: 'c', owner: 'A', target: 'B' }).catch((error: unknown) => error);
    expect(journal).toBeInstanceOf(DelegationJournalError);
    expect(journal).toMatchObject({ name: 'DelegationJournalError', partition: 'tree', status: 503 });
  });

  it('takes nothing more once its journal failed, even after the journal works again', async () => {
    const { tree, state, records, errors } = await flakySetup();
    await tree.delegate({ id: 'a', owner: 'A', target: 'B', timeoutMs: 1_000 });
    state.fail = true;
    await expect(tree.delegate({ id: 'b', owner: 'A', target: 'B' })).rejects.toBeInstanceOf(DelegationJournalError);
    state.fail = false;
    const refused = { code: 'delegation_journal_failed', message: expect.stringMatching(/disk full.*reopen the tree/) };
    await expect(tree.report('a', { status: 'success' })).rejects.toMatchObject(refused);
    await expect(tree.cancel('a', { reason: 'x', cascade: true })).rejects.toMatchObject(refused);
    await expect(tree.delegate({ id: 'c', owner: 'A', target: 'B' })).rejects.toMatchObject(refused);
    await expect(tree.delegate({ id: 'a', owner: 'A', target: 'B' })).rejects.toMatchObject(refused);
    expect(tree.node('a')?.status).toBe('open');
    expect(tree.node('c')).toBeUndefined();
    expect((await records()).map((record) => record.kind)).toEqual(['delegated']);
    expect(errors).toEqual([]);
  });
});
