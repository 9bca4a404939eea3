import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClarificationRecord } from '../../../machines/tiers/tier-clarification.ts';
import type { SpecialistRequestShape, SpecialistResultShape } from '../../../machines/tiers/task-context.ts';
import type { TiersEnvelope } from '../../../protocol/tiers/envelope.ts';
import type { OutcomePayload } from '../../../protocol/tiers/payloads.ts';
import { solved, stubSpecialists } from '../../support/tiers/stub-specialists.ts';
import { BINARY_SEARCH_TASK, openTiers, settledTask, tiersData } from '../../support/tiers/tiers-harness.ts';

type Reply = 'ask' | 'answer' | 'contradiction';

const question = (type: string, detail: string): SpecialistResultShape => ({
  status: 'needs_clarification',
  summary: detail,
  confidence: 0,
  artifacts: [],
  log: [],
  error_type: type,
  error_detail: detail,
  recoverable: true,
});

const reply = (kind: Reply, request: SpecialistRequestShape): SpecialistResultShape =>
  kind === 'ask'
    ? question('missing_complexity_bound', 'Which time complexity?')
    : kind === 'contradiction'
      ? question('ambiguous_request', 'Which expected value is right?')
      : solved(request);

const isQuestion = (m: TiersEnvelope) => (m.payload as OutcomePayload).status === 'needs_clarification';

describe('tiers: clarifications answered once', () => {
  it('for random question sequences, each tier answers at most once per correlation, and every question is answered or reaches the user', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Reply>('ask', 'answer', 'contradiction'), { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom<Reply>('answer', 'contradiction'), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.boolean(),
        async (reviews, solves, statedInWords, recognisable) => {
          const data = tiersData();
          let review = 0;
          let solve = 0;
          const specialists = stubSpecialists({
            reviewer: (r) => reply(reviews[review++ % reviews.length]!, r),
            'js-solver': (r) => reply(solves[solve++ % solves.length]!, r),
          });
          const service = await openTiers(data, { brains: { specialists } });
          try {
            const problem = recognisable
              ? BINARY_SEARCH_TASK.problem
              : { ...BINARY_SEARCH_TASK.problem, function_name: 'f', statement: 'Compute f of the inputs.' };
            const constraints = statedInWords ? ['Must run in linear time'] : [];
            const { task_id } = await service.submit('ada', { ...BINARY_SEARCH_TASK, problem, constraints });
            const view = await settledTask(service, 'ada', task_id);
            expect(['success', 'needs_clarification']).toContain(view.status);
            const messages = (await service.messages('ada', task_id))!;
            const beads = (await service.beads('ada', task_id))!;
            const records = (key: string) => (beads.find((e) => e.key === key)?.value ?? []) as ClarificationRecord[];
            const dispatcher = records('routing/clarifications');
            const architect = records('task/clarifications');
            for (const answered of [dispatcher, architect]) {
              const correlations = answered.map((r) => r.correlation_id);
              expect(new Set(correlations).size).toBe(correlations.length);
            }
            const byId = new Map(messages.map((m) => [m.id, m]));
            // Each answer is a new delegation on the question's own correlation.
            for (const record of [...dispatcher, ...architect]) {
              const asked = byId.get(byId.get(record.question_id)!.correlation_id!)!;
              const revision = byId.get(record.revision_id)!;
              expect(revision.id).not.toBe(asked.id);
              expect(revision.correlation_id).toBe(asked.correlation_id);
              expect(revision.target_tier).toBe(asked.target_tier);
            }
            // Each question is answered by the tier it reached, or flows on as that tier's own question.
            const flowedOn = (delegation: string) =>
              messages.some((m) => m.correlation_id === delegation && isQuestion(m));
            const upOf = (m: TiersEnvelope) => byId.get(m.correlation_id!)!.correlation_id!;
            for (const m of messages.filter((m) => m.source_tier === 'SPECIALIZED_FLEET' && isQuestion(m)))
              expect(dispatcher.some((r) => r.question_id === m.id) || flowedOn(upOf(m))).toBe(true);
            for (const m of messages.filter((m) => m.source_tier === 'ROUTING_DISPATCHER' && isQuestion(m)))
              expect(architect.some((r) => r.question_id === m.id) || flowedOn(upOf(m))).toBe(true);
            // What reached the Monitor waits for the user, and only then.
            const atMonitor = messages.some((m) => m.target_tier === 'PROGRESS_MONITOR' && isQuestion(m));
            expect(view.status === 'needs_clarification').toBe(atMonitor);
            if (atMonitor) expect(view.waiting_for_user?.question).toBeTruthy();
            // A contradiction is never answered by a tier.
            expect([...dispatcher, ...architect].some((r) => r.error_type === 'ambiguous_request')).toBe(false);
          } finally {
            await service.close();
          }
        },
      ),
      { numRuns: 100 },
    );
  }, 240_000);
});
