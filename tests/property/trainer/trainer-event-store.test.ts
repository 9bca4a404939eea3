import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEventStore } from '../../../actors/trainer/events/event-store.ts';
import { UserMessageDataSchema } from '../../../protocol/trainer/event-data.ts';
import type { StoredSessionEvent } from '../../../protocol/trainer/session-event.ts';
import { createFakeJournal, createFakeStore } from '../../support/trainer/trainer-fakes.ts';

describe('event store (properties)', () => {
  it('gives concurrent appends to several sessions unique, dense sequence numbers per session', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.record({ session: fc.nat({ max: 3 }), delay: fc.nat({ max: 2 }) }), {
          minLength: 1,
          maxLength: 25,
        }),
        async (sessionCount, appends) => {
          const events = createEventStore({
            store: createFakeStore(),
            journal: createFakeJournal<StoredSessionEvent>(),
          });
          const sessions = await Promise.all(Array.from({ length: sessionCount }, () => events.createSession('u')));
          const results = await Promise.all(
            appends.map(async ({ session, delay }, index) => {
              // Stagger starts so appends interleave differently in each run.
              for (let i = 0; i < delay; i++) await Promise.resolve();
              const id = sessions[session % sessionCount]!.id;
              return events.appendEvent(id, 'user_message', { message: `m${index}` });
            }),
          );
          for (const session of sessions) {
            const mine = results.filter((event) => event.session_id === session.id);
            const seqs = mine.map((event) => event.sequence_number).sort((a, b) => a - b);
            expect(seqs).toEqual(mine.map((_, i) => i + 1));
            const stored = await events.listEvents(session.id);
            expect(stored.map((event) => event.sequence_number)).toEqual(seqs);
            // What each append returned is exactly what was stored at its number.
            for (const event of mine) expect(stored[event.sequence_number - 1]).toEqual(event);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('accepts a user message exactly when it has a non-blank character', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 6, unit: fc.constantFrom(' ', '\n', '\t', 'a') }), (message) => {
        expect(UserMessageDataSchema.safeParse({ message }).success).toBe(message.trim() !== '');
      }),
      { numRuns: 300 },
    );
  });
});
