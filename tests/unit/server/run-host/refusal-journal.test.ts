import { describe, expect, it } from 'vitest';
import { DEFAULT_ADDRESSING, addressingOf } from '../../../../protocol/runtime/envelope-addressing.ts';
import type { RefusedRecord } from '../../../../protocol/runtime/refused-record.ts';
import { RefusalJournal } from '../../../../server/run-host/refusal-journal.ts';

const envelope = (id: string) => ({ message_id: id, from_agent: 'A', to_agent: 'B', data_type: 'x', payload: {} });

function setup() {
  const appended: RefusedRecord[] = [];
  let release: () => void = () => undefined;
  let settled = 0;
  const refusals = new RefusalJournal({
    append: (record) =>
      new Promise<void>((resolve) => {
        appended.push(record);
        release = resolve;
      }),
    idOf: addressingOf().idOf,
    settled: () => (settled += 1),
  });
  return { refusals, appended, release: () => release(), settled: () => settled };
}

describe('RefusalJournal (a run host journaling admission refusals)', () => {
  it('journals a refusal of admission with its code and field, and answers for its id once durable', async () => {
    const { refusals, appended, release, settled } = setup();
    refusals.refused({
      type: 'supervisor.rejected',
      error: { code: 'unknown_edge', message: 'no edge' },
      envelope: envelope('m1'),
    });
    expect(appended).toEqual([
      {
        kind: 'refused',
        envelope: envelope('m1'),
        code: 'unknown_edge',
        field: DEFAULT_ADDRESSING.receivers,
        message: 'no edge',
      },
    ]);
    expect(refusals.writing).toBe(true);
    let answered: RefusedRecord | undefined;
    void refusals.of('m1').then((record) => (answered = record));
    await Promise.resolve();
    expect(answered).toBeUndefined();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toEqual(appended[0]);
    expect(refusals.writing).toBe(false);
    expect(settled()).toBe(1);
    // Sent again and routed: its old refusal answers for it no more.
    refusals.routed(envelope('m1'));
    expect(await refusals.of('m1')).toBeUndefined();
  });

  it('journals neither a duplicate nor what befalls an admitted envelope, and names the first issue as the field', async () => {
    const { refusals, appended } = setup();
    for (const code of [
      'duplicate_message',
      'journal_unavailable',
      'throttled',
      'request_timeout',
      'undeliverable',
    ] as const)
      refusals.refused({ type: 'supervisor.rejected', error: { code, message: code }, envelope: envelope(code) });
    refusals.refused({
      type: 'supervisor.rejected',
      error: { code: 'invalid_envelope', message: 'bad' },
      requestId: 'r1',
    });
    expect(appended).toEqual([]);
    const issues = [{ path: 'payload.kcal', message: 'Expected number' }];
    refusals.refused({
      type: 'supervisor.rejected',
      error: { code: 'invalid_envelope', message: 'bad', issues },
      envelope: envelope('m2'),
    });
    expect(appended).toEqual([expect.objectContaining({ code: 'invalid_envelope', field: 'payload.kcal' })]);
  });
  it('never answers a refusal whose append failed: of() throws 503 journal_unavailable, and the write settles', async () => {
    const warnings: string[] = [];
    let settled = 0;
    const refusals = new RefusalJournal({
      append: () => Promise.reject(new Error('disk full')),
      idOf: addressingOf().idOf,
      settled: () => (settled += 1),
      warn: (message) => warnings.push(message),
    });
    refusals.refused({
      type: 'supervisor.rejected',
      error: { code: 'unknown_edge', message: 'no edge' },
      envelope: envelope('m2'),
    });
    await expect(refusals.of('m2')).rejects.toMatchObject({ code: 'journal_unavailable', status: 503 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(refusals.writing).toBe(false);
    expect(settled).toBe(1);
    expect(warnings).toEqual([expect.stringContaining('disk full')]);
  });
});
