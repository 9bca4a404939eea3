import type { GymAnxietyLevel, TrainingExperience } from '../../../protocol/nutrition/client-profile.ts';
import type { CyclePhase } from '../../../protocol/nutrition/cycle-phase.ts';
import type { MedicalContext } from '../../../protocol/nutrition/medical-context.ts';
import type { Weekday } from '../../../protocol/nutrition/weekday.ts';
import type { InjuryReading } from './coach-injuries.ts';
import { DELOAD_RPE_CAP, experienceRpeCap } from './coach-prescription.ts';
import { STALL_SESSIONS } from './coach-stall.ts';
import { MAX_NOVEL_LIFTS } from './coach-templates.ts';
import { weeklyVolumeRanges } from './coach-volume.ts';
import type { MuscleGroup } from './training-exercise.ts';

/** Sleep below which the RPE is capped (h/night): short sleep cuts strength-endurance and recovery. */
export const SHORT_SLEEP_HOURS = 6;
/** RPE cap while sleep is short or a PHYSICIAN referral is open. */
export const CAUTION_RPE_CAP = 7;

/** The facts the program-level text is written from. */
export interface GuidanceFacts {
  experience: TrainingExperience;
  anxiety: GymAnxietyLevel;
  deload: boolean;
  rpeCap: number;
  days: readonly Weekday[];
  cyclePhase: CyclePhase | null;
  sleepHours: number | null;
  steps: number;
  injuries: InjuryReading;
  /** Major groups the balancer could not bring to their floor. */
  short: readonly MuscleGroup[];
  /** One line per lift a stall changed on this run. */
  stallChanges: readonly string[];
  adjustmentNote: string | null;
  physician?: MedicalContext | undefined;
}

/** The §4.7 `progression_rules`: how load, reps, RPE and volume move from week to week. */
export function progressionRules(facts: GuidanceFacts): string[] {
  const ranges = weeklyVolumeRanges(facts.experience);
  const rules = [
    'Double progression: keep the load until every set reaches the top of its rep range at the target RPE, then add the smallest load step and restart at the bottom of the range.',
    `RPE targets (${facts.experience}): main lifts and accessories as listed per exercise, never above RPE ${experienceRpeCap(facts.experience)}${facts.rpeCap < experienceRpeCap(facts.experience) ? `; capped at ${facts.rpeCap} this week` : ''}.`,
    `Weekly volume: ${ranges.quads.min}-${ranges.quads.max} sets per major muscle group, glutes ${ranges.glutes.min}-${ranges.glutes.max} as the priority muscle; add a set only while recovery markers are good.`,
    `Stall rule: no progress for ${STALL_SESSIONS} sessions on a lift -> swap it for a close variation or change its rep range, as signalled by the SCIENTIST's check-in (spec 7.3).`,
    'Log every working set (load x reps) so the weekly check-in can track progression.',
  ];
  if (facts.anxiety === 'high') {
    rules.push(
      `Confidence first: at most ${MAX_NOVEL_LIFTS.high} new exercises per session, simple machines and dumbbells, the same lifts repeated across the week.`,
    );
  }
  if (facts.cyclePhase === 'luteal') {
    rules.push(
      'Luteal phase: the same load may feel about 0.5-1 RPE harder; keep the target RPE and let the load dip rather than forcing reps.',
    );
  }
  if (facts.adjustmentNote) rules.push(`SCIENTIST note: ${facts.adjustmentNote}`);
  rules.push(...facts.stallChanges);
  return rules;
}

/** The §4.7 `recovery_protocol`: sleep, rest days, RPE caps, deloads and what to watch. */
export function recoveryProtocol(facts: GuidanceFacts): string[] {
  const sleep = facts.sleepHours;
  const protocol = [
    `Sleep 7-9 h a night${sleep === null ? '' : ` (current average ${sleep} h)`}: muscle is built between sessions.`,
    `Training days: ${facts.days.join(', ')}; the other days are rest or easy walking, with at least one rest day before the same muscles are trained hard again.`,
    `RPE caps: ${facts.rpeCap} this week; deload weeks ${DELOAD_RPE_CAP}.`,
    'Deload every 6-8 weeks or whenever the SCIENTIST recommends one: about 45 % fewer sets at the same loads, RPE 6 or lower.',
    'Pain rule: training discomfort up to 3/10 that settles by the next day is fine; sharp or joint pain means stop that exercise and report it.',
  ];
  if (sleep !== null && sleep < SHORT_SLEEP_HOURS) {
    protocol.push(`Sleep under ${SHORT_SLEEP_HOURS} h: RPE capped at ${CAUTION_RPE_CAP} until the average recovers.`);
  } else if (sleep !== null && sleep < 7) {
    protocol.push('Sleep under 7 h: prioritise an earlier bedtime before adding any training volume.');
  }
  if (facts.deload)
    protocol.push(
      'This is a deload week: same exercises and loads, fewer sets, finish every set with 4 or more reps in reserve.',
    );
  if (facts.steps > 12_000) {
    protocol.push(
      `Daily steps about ${facts.steps}: keep them steady and eat to cover them; more steps without more food slows the gain.`,
    );
  }
  if (facts.injuries.areas.length > 0) {
    protocol.push(
      `Injury management: exercises loading the ${facts.injuries.areas.join(', ').replace(/_/g, ' ')} are left out or substituted; reintroduce them only after clearance.`,
    );
  }
  for (const injury of facts.injuries.unrecognised) {
    protocol.push(
      `Injury "${injury}" did not match a known area: nothing was excluded for it, so check with a clinician before loading it.`,
    );
  }
  if (facts.short.length > 0) {
    protocol.push(
      `Below the weekly set target this week: ${facts.short.join(', ')} (the equipment, injuries or session limits leave too few options); volume builds as lifts become familiar.`,
    );
  }
  if (facts.cyclePhase === 'luteal') {
    protocol.push(
      'Luteal phase: expect more fatigue and a higher resting heart rate; extra sleep and hydration help, and the RPE targets are the guide, not the loads.',
    );
  }
  if (facts.physician) {
    protocol.push(`PHYSICIAN advisory: ${facts.physician.response}`);
    if (facts.physician.referral_needed) {
      protocol.push(
        `Referral open (${facts.physician.referral_target ?? 'specialist'}): RPE capped at ${CAUTION_RPE_CAP} until it is done.`,
      );
    }
  }
  return protocol;
}
