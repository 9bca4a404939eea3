import type { HealthQuery } from '../../../protocol/nutrition/health-query.ts';
import type { MedicalContext, MedicalSource } from '../../../protocol/nutrition/medical-context.ts';
import { LOW_BMI_THRESHOLD, namesEatingDisorder, type RedFlagKind } from './red-flags.ts';
import {
  NO_FINDING,
  PHYSICIAN_FINDINGS,
  PIPELINE_ACTION_SEVERITY,
  URGENCY_SEVERITY,
  type PhysicianFinding,
} from './physician-findings.ts';

/** Always present in the PHYSICIAN's answer (§4.9). */
export const MEDICAL_DISCLAIMER =
  'This is general information from an automated assistant, not a diagnosis or medical advice. It does not replace an examination by a qualified clinician. If you feel unwell, faint, have chest pain or a racing heart, seek medical care immediately.';

/**
 * The findings a query describes, most severe first: an eating disorder named in a symptom, a BMI
 * under 16, amenorrhea, irregular cycles (from `user_context.menstrual_status`). The free-text
 * `query` is not scanned, so that "I have no eating disorder" cannot read as one.
 */
export function findingsOf(query: HealthQuery): RedFlagKind[] {
  const context = query.user_context;
  const kinds: RedFlagKind[] = [];
  if (context.symptoms.some(namesEatingDisorder)) kinds.push('eating_disorder');
  if (context.bmi < LOW_BMI_THRESHOLD) kinds.push('low_bmi');
  if (context.menstrual_status === 'amenorrhea') kinds.push('amenorrhea');
  if (context.menstrual_status === 'irregular') kinds.push('irregular_menstruation');
  return kinds;
}

function mostSevere(findings: readonly PhysicianFinding[]): PhysicianFinding {
  return findings.reduce((worst, finding) =>
    PIPELINE_ACTION_SEVERITY[finding.pipeline_action] > PIPELINE_ACTION_SEVERITY[worst.pipeline_action] ||
    (finding.pipeline_action === worst.pipeline_action &&
      URGENCY_SEVERITY[finding.urgency] > URGENCY_SEVERITY[worst.urgency])
      ? finding
      : worst,
  );
}

function uniqueSources(findings: readonly PhysicianFinding[]): MedicalSource[] {
  const seen = new Set<string>();
  return findings
    .flatMap((finding) => finding.sources)
    .filter((source) => {
      const key = `${source.author}|${source.year}|${source.publication}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/**
 * The PHYSICIAN's answer to a health query (§4.9, §5), deterministic:
 *
 * - eating disorder or BMI under 16 -> `abort`, urgency `urgent`, referral;
 * - amenorrhea -> `pause_pending_referral`, urgency `soon`, gynecologist or sports-medicine physician;
 * - irregular cycles -> `continue` with an advisory, urgency `routine`;
 * - nothing -> `continue`, `routine`.
 *
 * A batched query (§5) gets one answer: the most severe action and urgency win, every finding is
 * explained, referrals are listed most severe first, sources are merged. The disclaimer is always set.
 */
export function assessHealthQuery(query: HealthQuery): MedicalContext {
  const kinds = findingsOf(query);
  const findings = kinds.length > 0 ? kinds.map((kind) => PHYSICIAN_FINDINGS[kind]) : [NO_FINDING];
  const worst = mostSevere(findings);
  const targets = [
    ...new Set(findings.flatMap((finding) => (finding.referral_target ? [finding.referral_target] : []))),
  ];
  const several = findings.length > 1;
  const numbered = (texts: readonly string[]) =>
    several ? texts.map((text, index) => `(${index + 1}) ${text}`).join(' ') : (texts[0] ?? '');
  return {
    response: numbered(findings.map((finding) => finding.response)),
    sources: uniqueSources(findings),
    mechanism_explained: numbered(findings.map((finding) => finding.mechanism)),
    timeline: worst.timeline,
    referral_needed: targets.length > 0,
    referral_target: targets.length > 0 ? targets.join('; ') : null,
    urgency: worst.urgency,
    pipeline_action: worst.pipeline_action,
    disclaimer: MEDICAL_DISCLAIMER,
  };
}
