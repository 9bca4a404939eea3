import type { IntakeData } from '../../../protocol/nutrition/intake-data.ts';
import type { WeeklyCheckin } from '../../../protocol/nutrition/weekly-checkin.ts';

// Red flags: findings that must go to the PHYSICIAN before the program goes on (§5). Detection is
// deliberately simple and conservative; the PHYSICIAN decides what each one means.

/** What was found. */
export type RedFlagKind = 'eating_disorder' | 'low_bmi' | 'amenorrhea' | 'irregular_menstruation';

/**
 * How serious it is: `critical` (the program must not go on: abort), `referral` (a clinician must
 * see the client first: pause), `advisory` (the program may go on with advice).
 */
export type RedFlagSeverity = 'critical' | 'referral' | 'advisory';

/** One red flag, with the evidence in words. */
export interface RedFlag {
  readonly kind: RedFlagKind;
  readonly severity: RedFlagSeverity;
  /** Where it was found. */
  readonly source: 'intake' | 'checkin';
  /** One line for the PHYSICIAN's `user_context.symptoms`, with the numbers. */
  readonly symptom: string;
}

/** BMI under this is severe thinness (WHO 1995, TRS 854) and a NICE (2006, CG32) refeeding risk. */
export const LOW_BMI_THRESHOLD = 16;

/**
 * Body mass index `kg / m^2`, truncated (not rounded) to the hundredth, so that a value just
 * under 16 can never be reported as 16.00 and slip past the threshold downstream.
 *
 * @example bodyMassIndex(63.9, 200) // 15.97
 */
export function bodyMassIndex(weightKg: number, heightCm: number): number {
  const metres = heightCm / 100;
  const exact = Math.round((weightKg / (metres * metres)) * 1e9) / 1e9;
  return Math.floor(exact * 100) / 100;
}

/**
 * Names of eating disorders as people write them in a conditions list: anorexia (nervosa,
 * anorexic), bulimia, binge eating disorder, ARFID (avoidant/restrictive food intake disorder),
 * OSFED / EDNOS, and any "eating disorder".
 */
const EATING_DISORDER_PATTERNS: readonly RegExp[] = [
  /anorexi/i,
  /bulimi/i,
  /binge[\s-]*eating/i,
  /\barfid\b/i,
  /avoidant[\s/-]*restrictive/i,
  /\b(?:osfed|ednos)\b/i,
  /eating[\s-]*disorder/i,
];

/** True when `text` names an eating disorder (see `EATING_DISORDER_PATTERNS`). */
export function namesEatingDisorder(text: string): boolean {
  return EATING_DISORDER_PATTERNS.some((pattern) => pattern.test(text));
}

function lowBmiFlag(weightKg: number, heightCm: number, source: RedFlag['source']): RedFlag | undefined {
  const bmi = bodyMassIndex(weightKg, heightCm);
  if (bmi >= LOW_BMI_THRESHOLD) return undefined;
  return {
    kind: 'low_bmi',
    severity: 'critical',
    source,
    symptom: `BMI ${bmi.toFixed(2)} (${weightKg} kg at ${heightCm} cm) is under ${LOW_BMI_THRESHOLD}`,
  };
}

/**
 * The red flags of an intake: an eating disorder named in `medical_history.conditions`, a BMI
 * under 16, amenorrhea, and (advisory) irregular menstruation. Most severe first.
 */
export function detectIntakeRedFlags(intake: IntakeData): RedFlag[] {
  const flags: RedFlag[] = [];
  const disorders = intake.medical_history.conditions.filter(namesEatingDisorder);
  if (disorders.length > 0) {
    flags.push({
      kind: 'eating_disorder',
      severity: 'critical',
      source: 'intake',
      symptom: `eating disorder in medical history: ${disorders.join(', ')}`,
    });
  }
  const lowBmi = lowBmiFlag(intake.current_weight_kg, intake.height_cm, 'intake');
  if (lowBmi) flags.push(lowBmi);
  if (intake.menstrual_status === 'amenorrhea') {
    flags.push({
      kind: 'amenorrhea',
      severity: 'referral',
      source: 'intake',
      symptom: 'amenorrhea: no menstrual periods reported at intake',
    });
  }
  if (intake.menstrual_status === 'irregular') {
    flags.push({
      kind: 'irregular_menstruation',
      severity: 'advisory',
      source: 'intake',
      symptom: 'irregular menstrual cycles reported at intake',
    });
  }
  return flags;
}

/**
 * The red flags of a weekly check-in: only what the check-in itself can show, a BMI under 16 at
 * the new weight (height from the intake). Intake findings are not raised again every week: the
 * PHYSICIAN already answered them.
 */
export function detectCheckinRedFlags(checkin: WeeklyCheckin, intake: IntakeData): RedFlag[] {
  const lowBmi = lowBmiFlag(checkin.weight_kg, intake.height_cm, 'checkin');
  return lowBmi ? [lowBmi] : [];
}

/**
 * The red flags of an intake, or with `checkin`, of that week's check-in. Every flag of a run goes
 * into one PHYSICIAN query (`buildHealthQuery`, §5 last rule).
 */
export function detectRedFlags(intake: IntakeData, checkin?: WeeklyCheckin): RedFlag[] {
  return checkin ? detectCheckinRedFlags(checkin, intake) : detectIntakeRedFlags(intake);
}
