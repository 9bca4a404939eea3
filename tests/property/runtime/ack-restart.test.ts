import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivedUuid } from '../../../actors/runtime/derived-id.ts';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import type { SupervisorEmitted } from '../../../machines/runtime/supervisor.ts';
import { isAckRecord, isRoutedRecord, type JournalRecord } from '../../../protocol/runtime/ack-record.ts';
import { startAckHarness, stopAgent } from '../../support/ack-harness.ts';
import { createGatedJournal } from '../../support/gated-journal.ts';
import { envelope } from '../../support/test-system.ts';

/*
 * Acknowledged delivery across crashes: a process killed between any two steps (some appends on
 * the disk, the rest lost, whatever the supervisor had heard of them) and restarted from its
 * journal, with appends that fail now and then. Whatever the schedule: each (message id,
 * receiver) the journal holds ends with exactly one closing record (acked, undeliverable or
 * expired); a give-up or an expiry is announced at most once over every run of the process, and
 * only as the pair's durable close; each durable give-up has exactly one durable dead letter.
 */

type Command =
  | { kind: 'send'; expiresIn: number | undefined }
  | { kind: 'publish' }
  | { kind: 'finish'; pick: number }
  | { kind: 'stop'; agent: 'B' | 'C' }
  | { kind: 'tick'; ms: number }
  | { kind: 'commit'; count: number }
  | { kind: 'fail' }
  | { kind: 'crash'; commits: number };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      expiresIn: fc.option(fc.integer({ min: 500, max: 4_000 }), { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'publish' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('finish' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stop' as const), agent: fc.constantFrom('B', 'C') }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 1_500 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('commit' as const), count: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fail' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('crash' as const), commits: fc.nat(3) }) },
);

const pairOf = (e: SupervisorEmitted): string | undefined => {
  if (e.type === 'supervisor.undeliverable')
    return `${(e.envelope as { message_id: string }).message_id}/${e.receiver}`;
  return undefined;
};

describe('acknowledged delivery across crashes (property)', () => {
  it('closes each journaled pair once, announces each close at most once and only once durable', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: 1, maxLength: 30 }), async (commands) => {
        const durable = createMemoryJournal<JournalRecord>();
        const announced: { kind: 'undeliverable' | 'expired'; pair: string }[] = [];
        const start = async (now: number) => {
          const journal = createGatedJournal<JournalRecord>(durable);
          const journaled = (await durable.read('run-1')).map((e) => e.data);
          const h = startAckHarness({ journal, journaled, agentInput: { maxQueued: 1, retryAfterMs: 300 } });
          h.clock.set(now); // the process was down until now: what fell due meanwhile fires at once
          h.actor.on('supervisor.undeliverable', (e) => announced.push({ kind: 'undeliverable', pair: pairOf(e)! }));
          h.actor.on('supervisor.expired', (e) => {
            const id = (e.record.envelope as { message_id: string }).message_id;
            // Only an expiry of acknowledged delivery names a receiver: B (questions go A -> B).
            if (e.at === 'delivery' && (e.record.envelope as { data_type: string }).data_type === 'question')
              announced.push({ kind: 'expired', pair: `${id}/B` });
          });
          return Object.assign(h, { journal });
        };
        let h = await start(0);
        const commit = async (count: number) => {
          for (let i = 0; i < count && h.journal.waiting.length > 0; i++) await h.journal.commit();
          await h.flush();
        };
        for (const command of commands) {
          switch (command.kind) {
            case 'send': {
              const q = envelope({ data_type: 'question' });
              if (command.expiresIn !== undefined) q.expires_at = h.clock.now() + command.expiresIn;
              h.sendAsA({ type: 'supervisor.send', envelope: q });
              break;
            }
            case 'publish':
              h.sendAsA({ type: 'supervisor.publish', topic: 'news', envelope: envelope({ data_type: 'news' }) });
              break;
            case 'finish': {
              const open = h.calls.filter((c) => !c.settled);
              open[command.pick % Math.max(1, open.length)]?.resolve('done');
              break;
            }
            case 'stop':
              stopAgent(h.child(command.agent));
              break;
            case 'tick':
              h.clock.increment(command.ms);
              break;
            case 'commit':
              await commit(command.count);
              break;
            case 'fail':
              if (h.journal.waiting.length > 0) h.journal.fail();
              break;
            case 'crash': {
              // Some appends reach the disk, then the process dies: the rest are lost.
              for (let i = 0; i < command.commits && h.journal.waiting.length > 0; i++) await h.journal.commit();
              const now = h.clock.now();
              h.actor.stop();
              h = await start(now);
              break;
            }
          }
          await h.flush();
        }
        // A last restart (what failed in memory is redone from the journal), then everything runs out.
        const now = h.clock.now();
        await commit(Infinity);
        h.actor.stop();
        h = await start(now);
        for (let round = 0; round < 30; round++) {
          for (const call of h.calls) if (!call.settled) call.resolve('done');
          h.clock.increment(1_000);
          await h.flush();
          await commit(Infinity);
        }
        const records = (await durable.read('run-1')).map((e) => e.data);
        const closes = new Map<string, string[]>();
        const armed = new Set<string>();
        const routedIds = new Set<string>();
        for (const r of records) {
          if (isRoutedRecord(r)) {
            routedIds.add((r.envelope as { message_id: string }).message_id);
            continue;
          }
          if (!isAckRecord(r)) continue;
          const pair = `${r.message_id}/${r.receiver}`;
          if (r.kind === 'ack.armed') armed.add(pair);
          else closes.set(pair, [...(closes.get(pair) ?? []), r.kind]);
        }
        for (const pair of armed) expect(closes.get(pair), pair).toHaveLength(1);
        const counts = new Map<string, number>();
        for (const { kind, pair } of announced) {
          const key = `${kind}:${pair}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
          expect(closes.get(pair), key).toEqual([`ack.${kind}`]);
        }
        for (const [key, count] of counts) expect(count, key).toBe(1);
        for (const [pair, [close]] of closes) {
          const [id, receiver] = pair.split('/') as [string, string];
          const deadLetters = records.filter(
            (r) =>
              isRoutedRecord(r) &&
              (r.envelope as { message_id: string }).message_id === derivedUuid('dead-letter', id, receiver),
          );
          expect(deadLetters, pair).toHaveLength(close === 'ack.undeliverable' ? 1 : 0);
        }
        h.actor.stop();
      }),
      { numRuns: 150 },
    );
  });
});
