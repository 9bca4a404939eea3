import { describe, expect, it } from 'vitest';
import { HealthQuerySchema } from '../../../../../protocol/nutrition/health-query.ts';
import { detectIntakeRedFlags, type RedFlag } from '../../../../../actors/nutrition/physician/red-flags.ts';
import { buildHealthQuery, type NonEmpty } from '../../../../../actors/nutrition/physician/red-flags-health-query.ts';
import { intakeFixture } from '../../../../support/nutrition/scientist-fixtures.ts';

describe('buildHealthQuery', () => {
  it('batches all red flags of a run into one query, one symptom each', () => {
    const intake = intakeFixture({
      menstrual_status: 'amenorrhea',
      height_cm: 170,
      current_weight_kg: 45,
      medical_history: { medications: [], conditions: ['anorexia nervosa'], injuries: [] },
    });
    const flags = detectIntakeRedFlags(intake) as unknown as NonEmpty<RedFlag>;
    const query = HealthQuerySchema.parse(buildHealthQuery(flags, { intake }));
    expect(query.query_type).toBe('red_flag');
    expect(query.requesting_agent).toBe('SCIENTIST');
    expect(query.user_context.symptoms).toHaveLength(3);
    expect(query.query).toContain('3 red flags at intake');
    expect(query.query).toMatch(/\(1\) eating disorder.*\(2\) BMI 15\.57.*\(3\) amenorrhea/);
    expect(query.user_context).toMatchObject({
      current_weight_kg: 45,
      bmi: 15.57,
      menstrual_status: 'amenorrhea',
      training_weeks: 0,
      supplements_current: [],
    });
  });

  it('describes a check-in query with the check-in weight, week and supplements', () => {
    const intake = intakeFixture({ height_cm: 200, current_weight_kg: 66 });
    const flag: RedFlag = {
      kind: 'low_bmi',
      severity: 'critical',
      source: 'checkin',
      symptom: 'BMI 15.75 (63 kg at 200 cm) is under 16',
    };
    const query = buildHealthQuery([flag], {
      intake,
      current_weight_kg: 63,
      training_weeks: 9,
      supplements_current: ['creatine monohydrate'],
      requesting_agent: 'NUTRITIONIST',
    });
    expect(query.query).toContain('1 red flag at a weekly check-in');
    expect(query.requesting_agent).toBe('NUTRITIONIST');
    expect(query.user_context).toMatchObject({
      current_weight_kg: 63,
      bmi: 15.75,
      training_weeks: 9,
      supplements_current: ['creatine monohydrate'],
    });
  });

  it('refuses an empty list', () => {
    expect(() => buildHealthQuery([] as unknown as NonEmpty<RedFlag>, { intake: intakeFixture() })).toThrow(RangeError);
  });
});
