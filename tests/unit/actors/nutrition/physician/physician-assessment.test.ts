import { describe, expect, it } from 'vitest';
import { MedicalContextSchema } from '../../../../../protocol/nutrition/medical-context.ts';
import type { HealthQuery } from '../../../../../protocol/nutrition/health-query.ts';
import {
  MEDICAL_DISCLAIMER,
  assessHealthQuery,
  findingsOf,
} from '../../../../../actors/nutrition/physician/physician-assessment.ts';

function query(context: Partial<HealthQuery['user_context']> = {}, text = 'Red flags found.'): HealthQuery {
  return {
    query_type: 'red_flag',
    query: text,
    requesting_agent: 'SCIENTIST',
    user_context: {
      current_weight_kg: 55,
      bmi: 20.2,
      symptoms: [],
      menstrual_status: 'regular',
      training_weeks: 0,
      supplements_current: [],
      ...context,
    },
  };
}

describe('assessHealthQuery', () => {
  it('pauses for amenorrhea, soon, with a gynecologist or sports-medicine referral', () => {
    const answer = MedicalContextSchema.parse(assessHealthQuery(query({ menstrual_status: 'amenorrhea' })));
    expect(answer).toMatchObject({
      pipeline_action: 'pause_pending_referral',
      urgency: 'soon',
      referral_needed: true,
      referral_target: 'gynecologist or sports-medicine physician',
    });
    expect(answer.sources.map((source) => `${source.author.split(',')[0]} ${source.year}`)).toEqual([
      'De Souza MJ 2014',
      'Gordon CM 2017',
      'Mountjoy M 2018',
    ]);
    expect(answer.timeline).toMatch(/2-4 weeks/);
  });

  it('aborts, urgently, for a BMI under 16 and not for a BMI of 16', () => {
    expect(assessHealthQuery(query({ bmi: 16 })).pipeline_action).toBe('continue');
    const answer = assessHealthQuery(query({ bmi: 15.99 }));
    expect(answer).toMatchObject({ pipeline_action: 'abort', urgency: 'urgent', referral_needed: true });
    expect(answer.response).toMatch(/refeeding/);
  });

  it('aborts, urgently, for an eating disorder among the symptoms, with a specialist referral', () => {
    const answer = assessHealthQuery(
      query({ symptoms: ['eating disorder in medical history: binge eating disorder'] }),
    );
    expect(answer).toMatchObject({ pipeline_action: 'abort', urgency: 'urgent' });
    expect(answer.referral_target).toMatch(/eating-disorder specialist/);
  });

  it('continues with an advisory for irregular cycles, no referral', () => {
    const answer = assessHealthQuery(query({ menstrual_status: 'irregular' }));
    expect(answer).toMatchObject({
      pipeline_action: 'continue',
      urgency: 'routine',
      referral_needed: false,
      referral_target: null,
    });
    expect(answer.response).toMatch(/Track your cycle/);
  });

  it('continues, routine, when nothing is found', () => {
    const answer = assessHealthQuery({
      ...query({}, 'Is creatine safe? I have no eating disorder.'),
      query_type: 'health_question',
    });
    expect(answer).toMatchObject({ pipeline_action: 'continue', urgency: 'routine', referral_needed: false });
    expect(findingsOf(query({}, 'no eating disorder'))).toEqual([]);
  });

  it('answers a batched query once: the most severe action wins and every finding is explained', () => {
    const answer = assessHealthQuery(query({ bmi: 15.5, menstrual_status: 'amenorrhea' }));
    expect(answer.pipeline_action).toBe('abort');
    expect(answer.urgency).toBe('urgent');
    expect(answer.response).toMatch(/^\(1\) A BMI under 16.*\(2\) Absent periods/);
    expect(answer.referral_target).toBe(
      'physician (general practitioner or internal medicine) for medical assessment; gynecologist or sports-medicine physician',
    );
    const keys = answer.sources.map((source) => `${source.author}|${source.year}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('lets amenorrhea outrank irregular-free advice and keeps the disclaimer on every answer', () => {
    for (const context of [
      {},
      { menstrual_status: 'irregular' as const },
      { menstrual_status: 'amenorrhea' as const },
      { bmi: 14 },
    ]) {
      expect(assessHealthQuery(query(context)).disclaimer).toBe(MEDICAL_DISCLAIMER);
    }
  });
});
