import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import type { AgentBrain, AgentBrains } from '../../../actors/coscientist/agents/agent-context.ts';
import { OFFLINE_BRAINS } from '../../../actors/coscientist/agents/offline-brains.ts';
import { ContextMemory } from '../../../actors/coscientist/memory/context-memory.ts';
import { MEMORY_SCHEMA } from '../../../actors/coscientist/memory/memory-schema.ts';
import {
  applyDebates,
  emptyRanking,
  expectedScore,
  ratingsFromMatches,
} from '../../../actors/coscientist/rules/elo.ts';
import type { ServiceClock } from '../../../actors/runtime/clock.ts';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../actors/runtime/shared-state/open-shared-state.ts';
import type { DebateContent, MatchContent, RankingContent } from '../../../protocol/coscientist/memory-content.ts';
import type { WorkerAgent } from '../../../protocol/coscientist/payloads.ts';
import { goalOf, runGoal, testServices } from '../../support/coscientist/research-harness.ts';

const ids = ['h1', 'h2', 'h3', 'h4', 'h5'];
const debateArb = fc.record({
  pair: fc.uniqueArray(fc.constantFrom(...ids), { minLength: 2, maxLength: 2 }),
  consistent: fc.boolean(),
  firstWins: fc.boolean(),
  confidence: fc.double({ min: 0.5, max: 0.99, noNaN: true }),
});

const memoryOf = () => {
  const clock = new SimulatedClock() as SimulatedClock & ServiceClock;
  const state = openSharedState({
    journal: createMemoryJournal(),
    schema: MEMORY_SCHEMA,
    scopes: { research: 'p' },
    clock,
  });
  return new ContextMemory(state, () => new Date(clock.now()).toISOString());
};

describe('co-scientist properties', () => {
  it('Elo from batches equals a reference computed from the stored matches alone', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(debateArb, { maxLength: 8 }), { maxLength: 5 }),
        fc.integer({ min: 8, max: 64 }),
        (batches, k) => {
          let ranking: RankingContent = emptyRanking(k);
          const stored: MatchContent[] = [];
          batches.forEach((batch, b) => {
            const debates: DebateContent[] = batch.map((d, n) => ({
              debate_id: `d${b}-${String(n).padStart(2, '0')}`,
              pair: [d.pair[0]!, d.pair[1]!],
              format: 'single_comparison',
              consistent: d.consistent,
              ...(d.consistent
                ? { winner_id: d.pair[d.firstWins ? 0 : 1]!, loser_id: d.pair[d.firstWins ? 1 : 0]! }
                : {}),
              debate_transcript: [],
              confidence_score: d.confidence,
            }));
            const result = applyDebates(ranking, [...debates].reverse(), b + 1);
            ranking = result.ranking;
            stored.push(...result.matches);
          });
          // The reference: replay the stored matches with Elo's formula, K and 1200, in their order.
          const reference: Record<string, number> = {};
          for (const m of [...stored].sort((x, y) => x.iteration - y.iteration || x.order - y.order)) {
            const w = reference[m.winner_id] ?? 1200;
            const l = reference[m.loser_id] ?? 1200;
            const delta = Math.round(k * (1 - expectedScore(w, l)) * 100) / 100;
            expect(m.elo_delta).toBe(delta);
            reference[m.winner_id] = w + delta;
            reference[m.loser_id] = l - delta;
          }
          expect(ranking.ratings).toEqual(reference);
          expect(ratingsFromMatches(stored)).toEqual(reference);
          const total = Object.values(ranking.ratings).reduce((a, r) => a + r - 1200, 0);
          expect(Math.abs(total)).toBeLessThan(1e-6); // no draws: every point won is lost by someone
        },
      ),
      { numRuns: 300 },
    );
  });

  it('loses no update under concurrent writers with read-before-write and retry', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 2, maxLength: 6 }), async (writers) => {
        const memory = memoryOf();
        const bump = () =>
          memory.update('RANKING', 'ranking', 'elo', (current) => ({
            entry_id: 'elo',
            agent_id: 'RANKING',
            entry_type: 'ranking',
            content: { count: ((current?.content.count as number) ?? 0) + 1 },
            created_at: '2026-01-01T00:00:00.000Z',
            updated_at: '2026-01-01T00:00:00.000Z',
            dependencies: [],
          }));
        const clock = memory.state.clock as SimulatedClock & ServiceClock;
        const all = Promise.all(
          writers.map(async (n) => {
            for (let i = 0; i < n; i++) await bump();
          }),
        );
        let done = false;
        void all.then(() => (done = true));
        while (!done) {
          await new Promise((r) => setImmediate(r));
          clock.increment(50); // backoffs between retries run on the simulated clock
        }
        await all;
        expect((await memory.get('ranking', 'elo'))!.content.count).toBe(writers.reduce((a, b) => a + b, 0));
      }),
      { numRuns: 100 },
    );
  });

  it('never lets a dependent consume a partial entry the SUPERVISOR has not promoted', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), partial: fc.boolean() }),
      fc.record({ kind: fc.constant('promote' as const), pick: fc.nat() }),
      fc.constant({ kind: 'read' as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const memory = memoryOf();
        const model = new Map<string, { partial: boolean; promoted: boolean }>();
        for (const [n, s] of steps.entries()) {
          if (s.kind === 'write') {
            await memory.create('GENERATION', 'hypothesis', { n }, { entryId: `h${n}`, partial: s.partial });
            model.set(`h${n}`, { partial: s.partial, promoted: false });
          } else if (s.kind === 'promote') {
            const partials = [...model].filter(([, v]) => v.partial && !v.promoted);
            if (partials.length === 0) continue;
            const [id, v] = partials[s.pick % partials.length]!;
            await memory.promote((await memory.get('hypothesis', id))!);
            v.promoted = true;
          }
          const consumed = (await memory.consumable('hypothesis')).map((e) => e.entry_id).sort();
          const allowed = [...model]
            .filter(([, v]) => !v.partial || v.promoted)
            .map(([id]) => id)
            .sort();
          expect(consumed).toEqual(allowed);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('never runs a task before its dependencies are done, nor beyond its agent type pool', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          reflection: fc.integer({ min: 1, max: 3 }),
          ranking: fc.integer({ min: 1, max: 4 }),
          n: fc.integer({ min: 2, max: 5 }),
        }),
        async ({ reflection, ranking, n }) => {
          const running = new Map<string, number>();
          const finished = new Set<string>();
          const peak = new Map<string, number>();
          const violations: string[] = [];
          const services = testServices();
          const wrap =
            (agent: WorkerAgent, brain: AgentBrain): AgentBrain =>
            async (input, context) => {
              // The Elo update depends on every debate of its tournament: all must be done when it starts.
              if (input.kind === 'apply') {
                const debates = [...finished].filter((id) => /^i1-d\d+$/.test(id));
                if (debates.length !== (input.debate_ids as string[]).length)
                  violations.push(`${context.taskId} before its debates`);
              }
              running.set(agent, (running.get(agent) ?? 0) + 1);
              peak.set(agent, Math.max(peak.get(agent) ?? 0, running.get(agent)!));
              await new Promise((r) => setImmediate(r));
              try {
                return await brain(input, context);
              } finally {
                running.set(agent, running.get(agent)! - 1);
                finished.add(context.taskId);
              }
            };
          const brains = Object.fromEntries(
            Object.entries(OFFLINE_BRAINS).map(([agent, brain]) => [agent, wrap(agent as WorkerAgent, brain)]),
          ) as unknown as AgentBrains;
          const limits = {
            concurrency: { GENERATION: 1, REFLECTION: reflection, RANKING: ranking, EVOLUTION: 1, META_REVIEW: 1 },
            timeLimitMs: 60_000,
          };
          Object.assign(services, { brains, limits });
          const opening = runGoal(
            `q-${reflection}-${ranking}-${n}`,
            services,
            goalOf({ iterations: 1, hypotheses_per_iteration: n }),
          );
          const research = await opening;
          expect(violations).toEqual([]);
          expect(peak.get('REFLECTION') ?? 0).toBeLessThanOrEqual(reflection);
          expect(peak.get('RANKING') ?? 0).toBeLessThanOrEqual(ranking);
          expect(research.run.record.state).toBe('completed');
        },
      ),
      { numRuns: 25 },
    );
  });
});
