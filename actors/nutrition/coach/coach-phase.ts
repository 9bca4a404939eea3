import type { TrainingExperience } from '../../../protocol/nutrition/client-profile.ts';
import type { Program } from '../../../protocol/nutrition/training-program.ts';

/** The COACH's training phases, in the order a client moves through them. */
export const COACH_PHASES = ['foundation', 'hypertrophy', 'strength'] as const;
export type CoachPhase = (typeof COACH_PHASES)[number];

/**
 * Planned length of each phase in weeks. Foundation teaches the lifts: six weeks for a first-
 * timer, four for a beginner, two for an intermediate who only needs to learn this program;
 * neural adaptations dominate the first 4-8 weeks (Moritani & deVries 1979). Hypertrophy
 * blocks of 8 weeks and strength blocks of 6 then alternate.
 */
function phaseLength(phase: CoachPhase, experience: TrainingExperience): number {
  if (phase === 'foundation') return { none: 6, beginner: 4, intermediate: 2 }[experience];
  return phase === 'hypertrophy' ? 8 : 6;
}

/** The phase after `phase`: foundation leads to hypertrophy, then strength and hypertrophy alternate. */
function nextPhase(phase: CoachPhase): CoachPhase {
  return phase === 'hypertrophy' ? 'strength' : 'hypertrophy';
}

/** Where the client is: the §4.7 `program` header fields and how they were reached. */
interface PhasePosition {
  phase: CoachPhase;
  phase_week: number;
  total_weeks_remaining_in_phase: number;
  /** The SCIENTIST's `phase_transition_due` moved the client into `phase` on this run. */
  transitioned: boolean;
  /** The planned weeks are over but the transition criteria are not met yet. */
  extended: boolean;
}

/** What the phase is derived from. */
interface PhaseInput {
  experience: TrainingExperience;
  weeksOnProgram: number;
  phaseTransitionDue: boolean;
  /** The COACH's previous program header, on a re-run. */
  previous?: Pick<Program, 'phase' | 'phase_week'> | undefined;
  /** A retry after a validation failure is the same week again, so the week does not advance. */
  sameWeek: boolean;
}

/**
 * The current phase. The SCIENTIST decides when the transition criteria are met (§8 rank 5:
 * the COACH defers to it on adjustment triggers), so a phase ends only on
 * `phase_transition_due`; past its planned length it is extended, never left silently.
 * On a first run the phase is inferred from the weeks already on the program.
 */
export function resolvePhase(input: PhaseInput): PhasePosition {
  const known = COACH_PHASES.find((phase) => phase === input.previous?.phase);
  let phase: CoachPhase;
  let week: number;
  if (input.previous && known) {
    phase = known;
    week = input.previous.phase_week + (input.sameWeek ? 0 : 1);
  } else {
    ({ phase, week } = scheduledPhase(input.experience, input.weeksOnProgram));
  }
  const transitioned = input.phaseTransitionDue;
  if (transitioned) {
    phase = nextPhase(phase);
    week = 1;
  }
  week = Math.min(Math.max(week, 1), 52);
  const length = phaseLength(phase, input.experience);
  return {
    phase,
    phase_week: week,
    total_weeks_remaining_in_phase: Math.max(0, length - week),
    transitioned,
    extended: week > length,
  };
}

/** The phase and week that the planned lengths give after `weeks` completed weeks. */
function scheduledPhase(experience: TrainingExperience, weeks: number): { phase: CoachPhase; week: number } {
  let phase: CoachPhase = 'foundation';
  let remaining = weeks;
  while (remaining >= phaseLength(phase, experience)) {
    remaining -= phaseLength(phase, experience);
    phase = nextPhase(phase);
  }
  return { phase, week: remaining + 1 };
}

/**
 * The criteria for leaving the current phase, for the SCIENTIST to check at each check-in
 * (it raises `phase_transition_due` when they are met).
 */
export function phaseTransitionCriteria(position: PhasePosition, experience: TrainingExperience): string[] {
  const length = phaseLength(position.phase, experience);
  const next = nextPhase(position.phase);
  const common = [
    `${position.phase} -> ${next} after at least ${length} weeks (now week ${position.phase_week}) and only when every criterion below is met.`,
    'At least 80 % of the planned sessions completed over the last 2 weeks.',
  ];
  const specific: Record<CoachPhase, string[]> = {
    foundation: [
      'Technique consistent on every main lift at the target RPE, with no joint pain.',
      'Top of the rep range reached on at least two thirds of the lifts (double progression is working).',
      'Client reports being comfortable with the routine and setting up each exercise alone.',
    ],
    hypertrophy: [
      'Weekly weight gain on target (at least 0.25 kg/week averaged over the block).',
      'No stall of 3 or more sessions on 2 or more lifts in the last 2 weeks.',
      'Sleep averaging 7 h or more, and a deload completed in this block.',
    ],
    strength: [
      'Main lifts at or above their best loads of the previous block.',
      'Recovery markers steady: sleep 7 h or more, energy and mood 6/10 or more.',
      'A deload completed before the new hypertrophy block starts.',
    ],
  };
  const extended = position.extended
    ? [`Phase extended past its planned ${length} weeks until the criteria are met.`]
    : [];
  return [...common, ...specific[position.phase], ...extended];
}
