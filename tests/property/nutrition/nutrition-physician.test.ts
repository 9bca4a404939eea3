import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HealthQuerySchema, type HealthQuery } from '../../../protocol/nutrition/health-query.ts';
import { MenstrualStatusSchema } from '../../../protocol/nutrition/client-profile.ts';
import {
  MedicalContextSchema,
  type PipelineAction,
  type Urgency,
} from '../../../protocol/nutrition/medical-context.ts';
import { assessHealthQuery } from '../../../actors/nutrition/physician/physician-assessment.ts';
import { PIPELINE_ACTION_SEVERITY, URGENCY_SEVERITY } from '../../../actors/nutrition/physician/physician-findings.ts';
import { buildHealthQuery } from '../../../actors/nutrition/physician/red-flags-health-query.ts';
import { detectIntakeRedFlags, type RedFlagSeverity } from '../../../actors/nutrition/physician/red-flags.ts';
import { intakeArb, oneDecimal } from '../../support/nutrition/scientist-arbitraries.ts';

const NUM_RUNS = 400;
const ACTION_OF: Record<RedFlagSeverity, PipelineAction> = {
  critical: 'abort',
  referral: 'pause_pending_referral',
  advisory: 'continue',
};
const URGENCY_OF: Record<RedFlagSeverity, Urgency> = { critical: 'urgent', referral: 'soon', advisory: 'routine' };

const queryArb: fc.Arbitrary<HealthQuery> = fc.record({
  query_type: fc.constantFrom('health_question' as const, 'red_flag' as const, 'symptom_check' as const),
  query: fc.constantFrom('Is this safe?', 'Red flags found.', 'I have no eating disorder.'),
  requesting_agent: fc.constantFrom('SCIENTIST' as const, 'USER' as const, 'COACH' as const),
  user_context: fc.record({
    current_weight_kg: oneDecimal(35, 140),
    bmi: oneDecimal(12, 35),
    symptoms: fc.subarray(['fatigue', 'eating disorder in medical history: bulimia', 'dizziness', 'ARFID']),
    menstrual_status: fc.constantFrom(...MenstrualStatusSchema.options),
    training_weeks: fc.integer({ min: 0, max: 52 }),
    supplements_current: fc.subarray(['creatine monohydrate', 'whey protein']),
  }),
});

describe('PHYSICIAN properties', () => {
  it("answers every batched intake query with the most severe flag's action and urgency", () => {
    fc.assert(
      fc.property(intakeArb, (intake) => {
        const flags = detectIntakeRedFlags(intake);
        if (flags.length === 0) return;
        const query = HealthQuerySchema.parse(
          buildHealthQuery(flags as [(typeof flags)[number], ...typeof flags], { intake }),
        );
        expect(query.user_context.symptoms).toHaveLength(flags.length);
        const answer = MedicalContextSchema.parse(assessHealthQuery(query));
        const worstAction = Math.max(...flags.map((flag) => PIPELINE_ACTION_SEVERITY[ACTION_OF[flag.severity]]));
        const worstUrgency = Math.max(...flags.map((flag) => URGENCY_SEVERITY[URGENCY_OF[flag.severity]]));
        expect(PIPELINE_ACTION_SEVERITY[answer.pipeline_action]).toBe(worstAction);
        expect(URGENCY_SEVERITY[answer.urgency]).toBe(worstUrgency);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('always gives a disclaimer and follows the severity order: ED or BMI < 16 abort, amenorrhea pauses, else continue', () => {
    fc.assert(
      fc.property(queryArb, (query) => {
        const answer = MedicalContextSchema.parse(assessHealthQuery(query));
        expect(answer.disclaimer.trim().length).toBeGreaterThan(0);
        const context = query.user_context;
        const critical = context.bmi < 16 || context.symptoms.some((symptom) => /eating disorder|ARFID/i.test(symptom));
        const expected: PipelineAction = critical
          ? 'abort'
          : context.menstrual_status === 'amenorrhea'
            ? 'pause_pending_referral'
            : 'continue';
        expect(answer.pipeline_action).toBe(expected);
        expect(answer.referral_needed).toBe(expected !== 'continue');
        expect(answer.sources.length).toBeGreaterThan(0);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('never answers less severely when a finding is added', () => {
    fc.assert(
      fc.property(
        queryArb,
        fc.constantFrom('amenorrhea', 'low_bmi', 'eating_disorder', 'irregular'),
        (query, added) => {
          const base = assessHealthQuery(query);
          const context = { ...query.user_context };
          if (added === 'amenorrhea') context.menstrual_status = 'amenorrhea';
          if (added === 'irregular' && context.menstrual_status === 'regular') context.menstrual_status = 'irregular';
          if (added === 'low_bmi') context.bmi = 15;
          if (added === 'eating_disorder') context.symptoms = [...context.symptoms, 'anorexia nervosa'];
          const worse = assessHealthQuery({ ...query, user_context: context });
          expect(PIPELINE_ACTION_SEVERITY[worse.pipeline_action]).toBeGreaterThanOrEqual(
            PIPELINE_ACTION_SEVERITY[base.pipeline_action],
          );
          expect(URGENCY_SEVERITY[worse.urgency]).toBeGreaterThanOrEqual(URGENCY_SEVERITY[base.urgency]);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
