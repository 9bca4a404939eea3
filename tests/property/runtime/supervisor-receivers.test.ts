import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, type AnyActorRef } from 'xstate';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import { createSupervisorMachine, type SupervisorEmitted } from '../../../machines/runtime/supervisor.ts';
import { isRoutedRecord } from '../../../protocol/runtime/ack-record.ts';
import type { Route, RoutedRecord } from '../../../protocol/runtime/routing.ts';
import { orgMessage, orgTestSystem } from '../../support/org/org-test-system.ts';

/*
 * Several receivers against a model, over random routing tables and random sends (one receiver
 * or an array, names repeated, unknown to the table): an envelope is delivered once to each
 * distinct receiver and journaled once, verbatim, exactly when every one of its edges exists;
 * otherwise it is refused naming the first missing edge, delivered to nobody and not journaled.
 */

const NUM_RUNS = 150;
const RECEIVERS = ['frontend', 'backend', 'database'] as const;
const tick = () => new Promise((resolve) => setImmediate(resolve));

const caseArb = fc.record({
  edges: fc.subarray([...RECEIVERS]),
  sends: fc.array(
    fc.oneof(fc.constantFrom(...RECEIVERS), fc.array(fc.constantFrom(...RECEIVERS), { minLength: 1, maxLength: 4 })),
    { minLength: 1, maxLength: 5 },
  ),
});

describe('supervisor with several receivers (property)', () => {
  it('delivers to every receiver once, or to none naming the missing edge', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ edges, sends }) => {
        const routes: Route[] = edges.map((to) => ({ from: 'product', to, data_type: 'notification' }));
        const journal = createMemoryJournal<RoutedRecord>();
        const actor = createActor(createSupervisorMachine({ ...orgTestSystem(), routes }, { journal }), {
          input: {},
        });
        const emitted: SupervisorEmitted[] = [];
        actor.on('*', (event) => emitted.push(event as SupervisorEmitted));
        actor.start();
        const expected = new Map<string, string[]>(RECEIVERS.map((name) => [name, []]));
        const journaled: unknown[] = [];
        const refusals: string[] = [];
        for (const destination of sends) {
          const envelope = orgMessage({ destination_agent: destination, message_type: 'notification' });
          const names = typeof destination === 'string' ? [destination] : destination;
          const missing = names.find((name) => !edges.includes(name));
          if (missing) refusals.push(`product -> ${missing} : notification`);
          else {
            journaled.push(envelope);
            for (const name of new Set(names)) expected.get(name)!.push(envelope.message_id);
          }
          actor.send({ type: 'supervisor.send', envelope });
        }
        while (!actor.getSnapshot().context.ledger.idle()) await tick();
        const children = actor.getSnapshot().children as Record<string, AnyActorRef>;
        for (const name of RECEIVERS) {
          const got = children[name]!.getSnapshot().context.received.map((d: { requestId: string }) => d.requestId);
          expect(got).toEqual(expected.get(name));
        }
        // Ack records (acknowledgment.required) are journaled beside the envelopes: only envelopes here.
        const routed = (await journal.read('sprint-7')).map((e) => e.data).filter(isRoutedRecord);
        expect(routed.map((r) => r.envelope)).toStrictEqual(journaled);
        const rejected = emitted.flatMap((e) => (e.type === 'supervisor.rejected' ? [e.error] : []));
        expect(rejected.map((e) => e.code)).toEqual(refusals.map(() => 'unknown_edge'));
        rejected.forEach((error, index) => expect(error.message).toContain(refusals[index]));
        actor.stop();
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
