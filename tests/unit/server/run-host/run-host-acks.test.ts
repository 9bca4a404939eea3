import { describe, expect, it } from 'vitest';
import { SimulatedClock, type AnyActorRef } from 'xstate';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { createMemoryStore } from '../../../../actors/runtime/memory-store.ts';
import { isRoutedRecord, type JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import { RunHost } from '../../../../server/run-host/run-host.ts';
import { ackTestSystem, stopAgent } from '../../../support/ack-harness.ts';
import { envelope } from '../../../support/test-system.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('run host with acknowledged delivery', () => {
  it('re-arms a pending ack of a recovered run from its journal, and its new receiver gets the redelivery', async () => {
    const journal = createMemoryJournal<JournalRecord>();
    const store = createMemoryStore();
    const clock = new SimulatedClock();
    const open = (system: ReturnType<typeof ackTestSystem>['system']) =>
      RunHost.open({
        system,
        journal,
        store,
        clock,
        runActor: 'A',
        durable: { finished: () => false, rebuild: () => {} },
      });
    const before = ackTestSystem();
    const host = await open(before.system);
    const run = host.start({ owner: 'ada', partition: 'run-1' });
    stopAgent((run.supervisor.getSnapshot().children as Record<string, AnyActorRef>)['B']!);
    const question = envelope({ data_type: 'question' });
    run.send({ type: 'recorder.send', event: { type: 'supervisor.send', envelope: question } });
    await run.journaled(question.message_id);
    await host.commit(run);
    await host.close();
    expect(before.calls).toEqual([]);

    const after = ackTestSystem();
    const reopened = await open(after.system);
    clock.increment(1_099);
    await tick();
    expect(after.calls).toEqual([]);
    clock.increment(1); // its journaled deadline (1 000), then the backoff (100)
    await tick();
    expect(after.calls.map((c) => [c.agent, c.requestId])).toEqual([['B', question.message_id]]);
    await tick();
    const records = (await journal.read('run-1')).map((e) => e.data);
    expect(records.filter(isRoutedRecord)).toHaveLength(1);
    expect(records.filter((r) => !isRoutedRecord(r))).toEqual([
      { kind: 'ack.armed', message_id: question.message_id, receiver: 'B', attempt: 1, due_at: 1_000 },
      { kind: 'ack.armed', message_id: question.message_id, receiver: 'B', attempt: 2, due_at: 2_100 },
      { kind: 'ack.acked', message_id: question.message_id, receiver: 'B', attempt: 2 },
    ]);
    await reopened.close();
  });

  it('is quiescent only once no envelope awaits an ack: a run with a redelivery pending is not retired', async () => {
    const clock = new SimulatedClock();
    const host = await RunHost.open({
      system: ackTestSystem().system,
      journal: createMemoryJournal<JournalRecord>(),
      store: createMemoryStore(),
      clock,
      runActor: 'A',
      durable: { finished: () => false, rebuild: () => {} },
    });
    const run = host.start({ owner: 'ada', partition: 'run-1' });
    stopAgent((run.supervisor.getSnapshot().children as Record<string, AnyActorRef>)['B']!);
    const question = envelope({ data_type: 'question' });
    run.send({ type: 'recorder.send', event: { type: 'supervisor.send', envelope: question } });
    await run.journaled(question.message_id);
    let quiet = false;
    void run.quiescent().then(() => (quiet = true));
    await tick();
    expect(quiet).toBe(false);
    for (let i = 0; i < 40 && !quiet; i++) {
      clock.increment(100);
      await tick();
    }
    expect(quiet).toBe(true); // given up on: journaled undeliverable, nothing pending
    await host.close();
  });
});
