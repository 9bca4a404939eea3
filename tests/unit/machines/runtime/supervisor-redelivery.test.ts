import { describe, expect, it } from 'vitest';
import { createActor, type AnyActorRef } from 'xstate';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { createSupervisorMachine } from '../../../../machines/runtime/supervisor.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { createGatedJournal } from '../../../support/gated-journal.ts';
import { startSupervisor as start, until } from '../../../support/supervisor-harness.ts';
import { envelope, testSystem } from '../../../support/test-system.ts';

/* Redelivery (`redeliver: true`): an envelope whose id was journaled before is delivered again without a second entry. */

describe('supervisor redelivery', () => {
  it('hands a redelivery out only once the first append of its id is durable, and refuses it if that append fails', async () => {
    const journal = createGatedJournal<RoutedRecord>();
    const { agent, emitted, rejected, sendAs } = start(journal);
    const m = envelope({ from_agent: 'B', to_agent: 'USER' });
    sendAs('B', { type: 'supervisor.send', envelope: m, redeliver: true });
    sendAs('B', { type: 'supervisor.send', envelope: m, redeliver: true });
    await expect.poll(() => journal.waiting.length).toBe(1);
    journal.fail();
    await until(agent('B'), (c) => c.rejected.length === 2);
    expect(rejected('B').map((r) => r.error.code)).toEqual(['journal_unavailable', 'journal_unavailable']);
    expect(emitted.filter((e) => e.type === 'supervisor.outbound')).toHaveLength(0);
    // Sent again, it is journaled once, and both copies go out.
    sendAs('B', { type: 'supervisor.send', envelope: m, redeliver: true });
    sendAs('B', { type: 'supervisor.send', envelope: m, redeliver: true });
    await expect.poll(() => journal.waiting.length).toBe(1);
    await journal.commit();
    await expect.poll(() => emitted.filter((e) => e.type === 'supervisor.outbound').length).toBe(2);
    expect((await journal.durable.read('run-1')).map((e) => e.data.envelope.message_id)).toEqual([m.message_id]);
  });

  it('redelivers an already journaled envelope once asked to, without journaling it twice', async () => {
    const journal = createMemoryJournal<RoutedRecord>();
    const sent = envelope();
    await journal.append('run-1', { kind: 'direct', envelope: sent });
    const actor = createActor(createSupervisorMachine(testSystem(), { journal }), {
      input: { journaledIds: [sent.message_id] },
    }).start();
    const child = (name: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
    child('A').send({ type: 'recorder.send', event: { type: 'supervisor.send', envelope: sent } });
    await until(child('A'), (c) => c.rejected.length === 1);
    expect(child('A').getSnapshot().context.rejected[0].error.code).toBe('duplicate_message');
    const next = envelope();
    child('A').send({ type: 'recorder.send', event: { type: 'supervisor.send', envelope: next } });
    child('A').send({ type: 'recorder.send', event: { type: 'supervisor.send', envelope: sent, redeliver: true } });
    await until(child('B'), (c) => c.received.length === 2);
    // Routing order holds for the redelivered envelope too.
    expect(
      child('B')
        .getSnapshot()
        .context.received.map((d: any) => d.input.envelope.message_id),
    ).toEqual([next.message_id, sent.message_id]);
    expect((await journal.read('run-1')).map((e) => e.data.envelope.message_id)).toEqual([
      sent.message_id,
      next.message_id,
    ]);
  });
});
