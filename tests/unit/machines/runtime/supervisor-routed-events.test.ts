import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startSupervisor as start, until } from '../../../support/supervisor-harness.ts';
import { envelope, type TestEnvelope } from '../../../support/test-system.ts';

/*
 * What observers hear when one journal write makes a burst of envelopes durable: one
 * `supervisor.routed` event per run of consecutive records of one partition, in routing order,
 * an envelope for an external address as its own `supervisor.outbound` in its place, and nothing else.
 */

/** The events observers should hear for `sent`, all settled by one journal ack, in routing order. */
function expectedEvents(sent: readonly TestEnvelope[]) {
  const events: unknown[] = [];
  let run: { type: 'supervisor.routed'; partition: string; records: unknown[] } | undefined;
  for (const e of sent) {
    if (e.to_agent === 'USER') {
      run = undefined;
      events.push({ type: 'supervisor.outbound', partition: e.run_id, record: { kind: 'direct', envelope: e } });
      continue;
    }
    if (run?.partition !== e.run_id) {
      run = { type: 'supervisor.routed', partition: e.run_id, records: [] };
      events.push(run);
    }
    run.records.push({ kind: 'direct', envelope: e });
  }
  return events;
}

/** Lets the memory journal's write and its ack through (no timer: pending promises settle first). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('supervisor routed events', () => {
  it('announces a burst as one routed event per run of one partition, in routing order', async () => {
    const h = start();
    const sent = ['run-1', 'run-1', 'run-2', 'run-1'].map((run_id, n) =>
      envelope({ run_id, payload: { text: 'x', n } }),
    );
    // Sent in one tick: the journal writer takes them as one write, acked at once.
    for (const e of sent) h.actor.send({ type: 'supervisor.send', envelope: e });
    await until(h.agent('B'), (c) => c.received.length === 4);
    await expect.poll(() => h.emitted.length).toBe(3);
    expect(h.emitted).toEqual([
      {
        type: 'supervisor.routed',
        partition: 'run-1',
        records: sent.slice(0, 2).map((e) => ({ kind: 'direct', envelope: e })),
      },
      { type: 'supervisor.routed', partition: 'run-2', records: [{ kind: 'direct', envelope: sent[2] }] },
      { type: 'supervisor.routed', partition: 'run-1', records: [{ kind: 'direct', envelope: sent[3] }] },
    ]);
  });

  it('announces an envelope for an external address between the routed events around it, and nothing more', async () => {
    const h = start();
    const before = envelope({ payload: { text: 'before' } });
    const outbound = envelope({ from_agent: 'B', to_agent: 'USER' });
    const after = envelope({ payload: { text: 'after' } });
    for (const e of [before, outbound, after]) h.actor.send({ type: 'supervisor.send', envelope: e });
    await until(h.agent('B'), (c) => c.received.length === 2);
    await expect.poll(() => h.emitted.length).toBe(3);
    expect(h.emitted).toEqual(expectedEvents([before, outbound, after]));
    expect(h.received('B').map((d) => d.input)).toEqual([before, after]);
  });

  it('announces any burst of envelopes across partitions and external addresses exactly once each, in order', async () => {
    const burst = fc.array(fc.record({ run: fc.constantFrom('run-1', 'run-2', 'run-3'), outbound: fc.boolean() }), {
      minLength: 1,
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(burst, async (shape) => {
        const h = start();
        const sent = shape.map(({ run, outbound }, n) =>
          outbound
            ? envelope({ from_agent: 'B', to_agent: 'USER', run_id: run, payload: { text: 'out', n } })
            : envelope({ run_id: run, payload: { text: 'in', n } }),
        );
        for (const e of sent) h.actor.send({ type: 'supervisor.send', envelope: e });
        await settled();
        expect(h.emitted).toEqual(expectedEvents(sent));
        h.actor.stop();
      }),
      { numRuns: 100 },
    );
  });
});
