import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../../actors/runtime/journal.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { journaledIdsOf } from '../../../../server/run-host/run-recovery.ts';
import { coscientistMessage, coscientistTestSystem } from '../../../support/coscientist/coscientist-test-system.ts';
import { envelope, testSystem } from '../../../support/test-system.ts';

const entries = (...envelopes: Record<string, unknown>[]): JournalEntry<RoutedRecord>[] =>
  envelopes.map((e, index) => ({ seq: index + 1, data: { kind: 'direct', envelope: e } }));

describe('journaledIdsOf', () => {
  it("reads each journaled envelope's id through its system's addressing", () => {
    const first = coscientistMessage();
    const second = coscientistMessage();
    expect(journaledIdsOf(coscientistTestSystem(), entries(first, second))).toEqual([
      first.header.message_id,
      second.header.message_id,
    ]);
  });

  it("reads spec 000's message_id by default, and skips an entry without an id", () => {
    const sent = envelope();
    expect(journaledIdsOf(testSystem(), entries(sent, { header: { message_id: 'elsewhere' } }))).toEqual([
      sent.message_id,
    ]);
  });
});
