import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, transition } from 'xstate';
import { sessionMachine, sessionSnapshotOf } from '../../../machines/trainer/session.ts';
import { SessionStatusSchema, type SessionStatus } from '../../../protocol/trainer/session.ts';
import { SESSION_TRANSITIONS, SessionEventTypeSchema } from '../../../protocol/trainer/session-transitions.ts';

const TABLE = new Map<string, SessionStatus>(SESSION_TRANSITIONS.map((t) => [`${t.from}|${t.event}`, t.to]));
const status = fc.constantFrom(...SessionStatusSchema.options);
const events = fc.array(fc.constantFrom(...SessionEventTypeSchema.options), { maxLength: 40 });

describe('sessionMachine (property)', () => {
  it('takes only the declared transitions, from any status, for any event sequence', () => {
    fc.assert(
      fc.property(status, events, (start, sequence) => {
        let snapshot = sessionSnapshotOf(start);
        for (const type of sequence) {
          const before = snapshot.value as SessionStatus;
          [snapshot] = transition(sessionMachine, snapshot, { type });
          const after = snapshot.value as SessionStatus;
          const declared = TABLE.get(`${before}|${type}`);
          // Either the table's transition, or no change at all.
          expect(after).toBe(declared ?? before);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('as a running actor, visits exactly the statuses the table predicts', () => {
    fc.assert(
      fc.property(events, (sequence) => {
        const actor = createActor(sessionMachine).start();
        const seen: string[] = [String(actor.getSnapshot().value)];
        actor.subscribe((s) => seen.push(String(s.value)));
        let expected: SessionStatus = 'active';
        const predicted: string[] = [expected];
        for (const type of sequence) {
          actor.send({ type });
          expected = TABLE.get(`${expected}|${type}`) ?? expected;
          predicted.push(expected);
        }
        // Every event yields a snapshot; consecutive duplicates are the ignored events.
        expect(seen.filter((s, i) => s !== seen[i - 1])).toEqual(predicted.filter((s, i) => s !== predicted[i - 1]));
        actor.stop();
      }),
      { numRuns: 300 },
    );
  });
});
