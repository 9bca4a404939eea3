import { describe, expect, it } from 'vitest';
import {
  bodyMassIndex,
  detectCheckinRedFlags,
  detectIntakeRedFlags,
  detectRedFlags,
  namesEatingDisorder,
} from '../../../../../actors/nutrition/physician/red-flags.ts';
import { checkinFixture, intakeFixture } from '../../../../support/nutrition/scientist-fixtures.ts';

const withConditions = (...conditions: string[]) =>
  intakeFixture({ medical_history: { medications: [], conditions, injuries: [] } });

describe('bodyMassIndex', () => {
  it('is kg / m^2, truncated to the hundredth', () => {
    expect(bodyMassIndex(64, 200)).toBe(16);
    expect(bodyMassIndex(63.9, 200)).toBe(15.97); // 15.975 truncated, not rounded up
    expect(bodyMassIndex(55, 165)).toBe(20.2); // 20.202
  });
});

describe('namesEatingDisorder', () => {
  it.each([
    'anorexia nervosa',
    'Anorexic episode in 2019',
    'Bulimia',
    'bulimia nervosa (in remission)',
    'binge eating disorder',
    'Binge-eating',
    'ARFID',
    'avoidant/restrictive food intake disorder',
    'OSFED',
    'history of an eating disorder',
    'Eating-Disorder',
  ])('recognises "%s"', (condition) => {
    expect(namesEatingDisorder(condition)).toBe(true);
  });

  it.each(['asthma', 'anemia', 'hypothyroidism', 'irritable bowel syndrome', 'disordered sleep'])(
    'does not flag "%s"',
    (condition) => {
      expect(namesEatingDisorder(condition)).toBe(false);
    },
  );
});

describe('detectIntakeRedFlags', () => {
  it('finds nothing for a healthy intake', () => {
    expect(detectIntakeRedFlags(intakeFixture())).toEqual([]);
  });

  it('flags an eating disorder in the conditions as critical, naming it', () => {
    const [flag] = detectIntakeRedFlags(withConditions('asthma', 'Bulimia nervosa'));
    expect(flag).toMatchObject({ kind: 'eating_disorder', severity: 'critical', source: 'intake' });
    expect(flag?.symptom).toContain('Bulimia nervosa');
    expect(flag?.symptom).not.toContain('asthma');
  });

  it('flags a BMI under 16 but not a BMI of exactly 16', () => {
    expect(detectIntakeRedFlags(intakeFixture({ height_cm: 200, current_weight_kg: 64 }))).toEqual([]);
    const [flag] = detectIntakeRedFlags(intakeFixture({ height_cm: 200, current_weight_kg: 63.9 }));
    expect(flag).toMatchObject({ kind: 'low_bmi', severity: 'critical' });
    expect(flag?.symptom).toContain('BMI 15.97');
  });

  it('flags amenorrhea for referral and irregular cycles as advisory', () => {
    expect(detectIntakeRedFlags(intakeFixture({ menstrual_status: 'amenorrhea' }))).toMatchObject([
      { kind: 'amenorrhea', severity: 'referral' },
    ]);
    expect(detectIntakeRedFlags(intakeFixture({ menstrual_status: 'irregular' }))).toMatchObject([
      { kind: 'irregular_menstruation', severity: 'advisory' },
    ]);
  });

  it('reports every flag of an intake, most severe first', () => {
    const intake = intakeFixture({
      menstrual_status: 'amenorrhea',
      height_cm: 170,
      current_weight_kg: 45, // BMI 15.57
      medical_history: { medications: [], conditions: ['ARFID'], injuries: [] },
    });
    expect(detectIntakeRedFlags(intake).map((flag) => flag.kind)).toEqual(['eating_disorder', 'low_bmi', 'amenorrhea']);
  });
});

describe('detectCheckinRedFlags', () => {
  it('flags only a BMI under 16 at the check-in weight, not intake findings again', () => {
    const intake = intakeFixture({ height_cm: 200, current_weight_kg: 66, menstrual_status: 'amenorrhea' });
    expect(detectCheckinRedFlags(checkinFixture(64), intake)).toEqual([]);
    expect(detectCheckinRedFlags(checkinFixture(63.9), intake)).toMatchObject([{ kind: 'low_bmi', source: 'checkin' }]);
  });

  it('is what detectRedFlags does with a check-in', () => {
    const intake = intakeFixture({ height_cm: 200, current_weight_kg: 66, menstrual_status: 'irregular' });
    expect(detectRedFlags(intake, checkinFixture(63))).toEqual(detectCheckinRedFlags(checkinFixture(63), intake));
    expect(detectRedFlags(intake)).toEqual(detectIntakeRedFlags(intake));
  });
});
