import { describe, expect, it } from 'vitest';
import { recoveryOf, type RunRecord } from '../../../../server/run-host/run-record.ts';

const record = (changes: Partial<RunRecord> = {}): RunRecord => ({
  partition: 'run-1',
  owner: 'ada',
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:01.000Z',
  snapshot: { status: 'active', value: 'working', context: {} },
  journal_seq: 3,
  ...changes,
});

describe('recoveryOf', () => {
  it('restores a run whose snapshot covers its journal', () => {
    expect(recoveryOf(record(), 3)).toEqual({ kind: 'restore', snapshot: record().snapshot, behind: false, since: 3 });
  });

  it('restores a run whose snapshot is older than its journal, marked behind (its later work is redone under the same ids)', () => {
    expect(recoveryOf(record({ journal_seq: 2 }), 5)).toMatchObject({ kind: 'restore', behind: true, since: 2 });
    expect(recoveryOf(record({ journal_seq: undefined }), 1)).toMatchObject({
      kind: 'restore',
      behind: true,
      since: 0,
    });
  });

  it('rebuilds a run from its journal when the snapshot or the whole record is missing', () => {
    expect(recoveryOf(record({ snapshot: undefined }), 1)).toEqual({
      kind: 'rebuild',
      reason: 'it has no snapshot yet',
    });
    expect(recoveryOf(record({ snapshot: null }), 4)).toEqual({ kind: 'rebuild', reason: 'it has no snapshot yet' });
    expect(recoveryOf(undefined, 2)).toEqual({ kind: 'rebuild', reason: 'its record is missing' });
  });

  it('fails a run whose journal is empty, whatever its record says, with a reason a user can read', () => {
    for (const found of [record(), record({ snapshot: undefined }), undefined]) {
      const recovery = recoveryOf(found, 0);
      expect(recovery.kind).toBe('fail');
      expect(recovery).toHaveProperty('reason', expect.stringMatching(/journal holds no envelope.*start it again/));
    }
  });
});
