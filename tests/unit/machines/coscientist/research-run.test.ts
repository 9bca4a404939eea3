import { describe, expect, it } from 'vitest';
import { RANKING_ENTRY } from '../../../../actors/coscientist/agents/memory-reads.ts';
import { OFFLINE_BRAINS } from '../../../../actors/coscientist/agents/offline-brains.ts';
import { addGuidance } from '../../../../machines/coscientist/research-guidance.ts';
import { researchMessage } from '../../../../machines/coscientist/research-messages.ts';
import { openResearch } from '../../../../machines/coscientist/open-research.ts';
import { consistencyProblems } from '../../../../machines/coscientist/consistency-check.ts';
import { readRanking } from '../../../../actors/coscientist/agents/memory-reads.ts';
import type { MatchContent } from '../../../../protocol/coscientist/memory-content.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { goalOf, runGoal, stateWatcher, testServices } from '../../../support/coscientist/research-harness.ts';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ResearchRun (the SUPERVISOR loop)', () => {
  it('runs three iterations to ranked hypotheses, matches, feedback and an overview, every message routed', async () => {
    const services = testServices();
    const research = await runGoal('r-three', services);
    const record = research.run.record;
    expect(record.state).toBe('completed');
    expect(record.iteration).toBe(3);
    const { ranking } = await readRanking(research.memory);
    const matches = (await research.memory.list('match')).map((e) => e.content as MatchContent);
    expect(matches.length).toBeGreaterThan(10);
    expect(Object.keys(ranking.ratings).length).toBeGreaterThan(8);
    expect((await research.memory.list('feedback')).length).toBe(12);
    expect((await research.memory.list('overview')).length).toBe(3);
    expect(research.messages).toEqual({
      sent: research.messages.delivered,
      delivered: research.messages.sent,
      rejected: 0,
    });
    const evolved = (await research.memory.list('hypothesis')).filter((e) => e.content.origin === 'evolution');
    expect(evolved.length).toBeGreaterThan(0);
    for (const e of evolved) expect((e.content.parent_ids as string[]).length).toBeGreaterThan(0);
    expect(record.checks).toBeGreaterThan(10);
    expect(services.errors).toEqual([]);
    const journal = await services.messageJournal.read('r-three');
    const types = new Set(
      journal
        .map((e) => (e.data as RoutedRecord).envelope.header as { message_type: string })
        .map((h) => h.message_type),
    );
    expect(types).toEqual(new Set(['task_assignment', 'task_result', 'tournament_request', 'feedback_broadcast']));
  });

  it('escalates a task that keeps failing (its dependents blocked), then resumes on guidance', async () => {
    const watcher = stateWatcher();
    let broken = true;
    const services = testServices({
      onState: watcher.onState,
      fault: (task) => (broken && task.task_id === 'i1-d1' ? new Error('the debate model is down') : undefined),
    });
    const research = await openResearch('r-escalate', services, goalOf({ iterations: 1 }));
    await watcher.reached('awaiting_scientist');
    await flush();
    expect(research.run.record.question).toMatch(/i1-d1/);
    expect(research.queue.get('i1-d1')!.status).toBe('failed');
    expect(research.queue.get('i1-apply')).toMatchObject({ status: 'blocked', blocked_by: 'i1-d1' });
    expect((await research.memory.list('error')).map((e) => e.content.task_id)).toContain('i1-d1');
    broken = false;
    await addGuidance(research, 'The model is back; go on.');
    await research.run.settled();
    expect(research.run.record.state).toBe('completed');
    expect(research.queue.get('i1-apply')!.status).toBe('completed');
  });

  it('stops after the tasks in flight finish: unstarted ones cancelled, results kept', async () => {
    const watcher = stateWatcher();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const services = testServices({
      onState: watcher.onState,
      brains: {
        ...OFFLINE_BRAINS,
        RANKING: async (input, context) => {
          if (input.kind === 'debate') await gate;
          return OFFLINE_BRAINS.RANKING(input, context);
        },
      },
    });
    const research = await openResearch('r-stop', services, goalOf());
    await watcher.reached('tournament');
    for (let i = 0; i < 20 && research.queue.get('i1-d1')?.status !== 'running'; i++) await flush();
    await research.run.stop();
    expect(research.run.record.state).toBe('stopping');
    expect(research.queue.get('i1-apply')!.status).toBe('failed');
    expect(research.queue.get('i1-apply')!.error!.message).toMatch(/cancelled/);
    open();
    await research.run.settled();
    expect(research.run.record.state).toBe('stopped');
    expect(research.queue.get('i1-d1')!.status).toBe('completed');
    expect(research.queue.get('i1-evo')).toBeUndefined();
    expect((await research.memory.list('review')).length).toBe(4);
  });

  it('keeps what a timed-out GENERATION finished as partial entries, promoted before anyone consumes them', async () => {
    const services = testServices({
      limits: {
        concurrency: { GENERATION: 1, REFLECTION: 2, RANKING: 4, EVOLUTION: 1, META_REVIEW: 1 },
        timeLimitMs: 1_000,
      },
      brains: {
        ...OFFLINE_BRAINS,
        GENERATION: (input, context) => {
          // Finishes two hypotheses, then works on the third until its time limit aborts it.
          let finished = 0;
          const stall = () =>
            ++finished < 2
              ? Promise.resolve()
              : new Promise<void>((_, reject) =>
                  context.signal.addEventListener('abort', () => reject(context.signal.reason)),
                );
          return OFFLINE_BRAINS.GENERATION(input, { ...context, pause: stall });
        },
      },
    });
    const research = await openResearch('r-partial', services, goalOf({ iterations: 1 }));
    for (let i = 0; i < 40 && research.run.record.state === 'generating'; i++) {
      services.clock.increment(600);
      await flush();
      await flush();
    }
    await research.run.settled().catch(() => {});
    expect(research.queue.get('i1-gen')!.status).toBe('failed');
    expect(research.run.record.accepted_partial).toContain('i1-gen');
    const hypotheses = await research.memory.list('hypothesis');
    const generated = hypotheses.filter((e) => e.content.origin === 'generation');
    expect(generated.length).toBe(2);
    for (const entry of generated) expect(entry).toMatchObject({ partial: true, promoted: true });
    const reviewed = (await research.memory.list('review')).map((e) => e.content.hypothesis_id);
    expect(reviewed).toEqual(expect.arrayContaining(generated.map((e) => e.entry_id)));
  });

  it('rolls memory back to the last consistent version when a rating no longer matches its matches', async () => {
    const watcher = stateWatcher();
    const services = testServices({ onState: watcher.onState });
    const research = await openResearch('r-rollback', services, goalOf({ iterations: 2 }));
    await watcher.reached('evolving');
    const { ranking, version } = await readRanking(research.memory);
    const [first] = Object.keys(ranking.ratings);
    const corrupt = { ...ranking, ratings: { ...ranking.ratings, [first!]: ranking.ratings[first!]! + 50 } };
    const entry = (await research.memory.get('ranking', RANKING_ENTRY))!;
    const { version: _v, ...stored } = entry;
    await research.memory.state.write('SUPERVISOR', [
      { key: `ranking/${RANKING_ENTRY}`, value: { ...stored, content: corrupt }, expectedVersion: version },
    ]);
    await research.run.settled();
    expect(research.run.record.rollbacks).toBeGreaterThanOrEqual(1);
    expect(services.errors.some((e) => String(e).includes('rolling back'))).toBe(true);
    const after = await readRanking(research.memory);
    const matches = (await research.memory.list('match')).map((e) => e.content as MatchContent);
    const ids = new Set((await research.memory.list('hypothesis')).map((e) => e.entry_id));
    expect(
      consistencyProblems({ ranking: after.ranking, matches, hypothesisIds: ids, tasks: [], leased: new Set() }),
    ).toEqual([]);
  });

  it('journals a message past its expires_at as expired and delivers it to nobody', async () => {
    const services = testServices();
    const research = await runGoal('r-expiry', services, goalOf({ iterations: 1 }));
    const now = services.clock.now();
    research.run.deps.send(
      researchMessage({
        researchId: 'r-expiry',
        type: 'guidance_update',
        from: 'SUPERVISOR',
        to: 'GENERATION',
        data: { guidance_entry_id: 'g', concepts: [] },
        priority: 1,
        at: now,
        expiresAt: now - 1,
        key: 'late',
      }),
    );
    for (let i = 0; i < 10; i++) await flush();
    const records = (await services.messageJournal.read('r-expiry')).map((e) => e.data as RoutedRecord);
    const late = records.find(
      (r) => (r.envelope.header as { message_type: string }).message_type === 'guidance_update',
    );
    expect(late?.expired).toBe(true);
  });
});
