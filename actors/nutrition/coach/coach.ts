import type { ErrorIssue } from '../../../protocol/runtime/http-error.ts';
import type { MedicalContext } from '../../../protocol/nutrition/medical-context.ts';
import type { TrainingInput } from '../../../protocol/nutrition/training-input.ts';
import type { ProgramSession, TrainingProgram } from '../../../protocol/nutrition/training-program.ts';
import { balanceVolume } from './coach-balance.ts';
import { deloadPlan } from './coach-deload.ts';
import {
  CAUTION_RPE_CAP,
  progressionRules,
  recoveryProtocol,
  SHORT_SLEEP_HOURS,
  type GuidanceFacts,
} from './coach-guidance.ts';
import { inheritPlan } from './coach-inherit.ts';
import { readInjuries } from './coach-injuries.ts';
import { phaseTransitionCriteria, resolvePhase } from './coach-phase.ts';
import type { PlannedSession } from './coach-plan.ts';
import { DELOAD_RPE_CAP, experienceRpeCap, type PrescriptionContext } from './coach-prescription.ts';
import { renderExercise, stallChangeLines } from './coach-render.ts';
import { chooseTrainingDays, kitFor, sessionFrequency, sessionKinds, sessionLocations } from './coach-schedule.ts';
import { selectExercises, type SelectionContext } from './coach-selection.ts';
import { stalledLifts } from './coach-stall.ts';
import { weeklyVolume } from './coach-volume.ts';
import { isDeloadFocus, sessionFocus, sessionWarmup } from './coach-warmup.ts';
import { normalizeExerciseName, trainingExerciseById } from './training-exercise-table.ts';

/** What the COACH gets besides its §4.6 `training_input`. */
interface CoachContext {
  /** Its own last program, on a re-run (§10 rule 2: delta-aware generation). */
  previous_output?: TrainingProgram;
  /** Why its previous attempt failed validation (§6.2); the retry is the same week again. */
  validation_issues?: ErrorIssue[];
  /** The PHYSICIAN's answer when the pipeline continued after a pause (§5 `continue`). */
  physician?: MedicalContext;
}

/**
 * The offline COACH (§4.7): a weekly training program for the client of a §4.6 training input.
 * Pure and deterministic. Frequency follows the available days and experience; exercises suit
 * the equipment, gym anxiety and injuries; weekly sets per muscle stay in the experience's
 * range; the SCIENTIST's triggers bring a deload, the next phase or stall changes. With a
 * previous program it changes only what the new input affects.
 *
 * @example
 * const program = buildTrainingProgram(trainingInput, { previous_output: lastWeek });
 */
export function buildTrainingProgram(input: TrainingInput, context: CoachContext = {}): TrainingProgram {
  const { client_data: client, progress_data: progress, scientist_triggers: triggers } = input;
  const { training_experience: experience, gym_anxiety_level: anxiety, equipment_access: access } = client;
  const retry = (context.validation_issues?.length ?? 0) > 0;
  const previous = context.previous_output;
  const position = resolvePhase({
    experience,
    weeksOnProgram: client.weeks_on_program,
    phaseTransitionDue: triggers.phase_transition_due,
    previous: previous?.program,
    sameWeek: retry,
  });
  // A retried attempt was rejected and a new phase is a new program: neither is kept.
  const inherit = previous !== undefined && !retry && !position.transitioned ? previous : undefined;
  const injuries = readInjuries(client.injuries);
  const frequency = sessionFrequency(experience, client.available_days.length);
  const days = chooseTrainingDays(client.available_days, frequency);
  const kinds = sessionKinds(frequency);
  const locations = sessionLocations(access, anxiety, position.phase, frequency);
  const plan: PlannedSession[] = days.map((day, index) => {
    const location = locations[index] ?? 'home';
    return {
      day,
      kind: kinds[index] ?? 'full_body_a',
      location,
      criteria: { kit: kitFor(access, location), areas: injuries.areas, experience, anxiety },
      exercises: [],
    };
  });

  const names = (session: ProgramSession) => session.exercises.map((exercise) => normalizeExerciseName(exercise.name));
  const selection: SelectionContext = {
    familiar: new Set([
      ...progress.training_log.map((entry) => normalizeExerciseName(entry.name)),
      ...(previous?.program.sessions.flatMap(names) ?? []),
    ]),
    preferred: new Map(inherit?.program.sessions.map((session) => [session.day, names(session)]) ?? []),
    stalled: stalledLifts(input, previous),
  };
  if (!inherit || !inheritPlan(inherit, plan, selection)) selectExercises(plan, selection);
  const short = balanceVolume(plan, experience, selection);
  for (const session of plan) {
    // Every session needs an exercise (§4.7); the dead bug suits any kit, injury and anxiety.
    if (session.exercises.length === 0)
      session.exercises.push({ exercise: trainingExerciseById('dead-bug'), sets: 2, role: 'accessory' });
  }
  const deload = triggers.deload_recommended;
  if (deload) deloadPlan(plan);

  const sleep = progress.sleep_hours_avg;
  const cautious = (sleep !== null && sleep < SHORT_SLEEP_HOURS) || context.physician?.referral_needed === true;
  const rpeCap = Math.min(experienceRpeCap(experience), cautious ? CAUTION_RPE_CAP : 10);
  const prescription: PrescriptionContext = { phase: position.phase, experience, deload, rpeCap };
  const previousDeload = previous?.program.sessions.some((session) => isDeloadFocus(session.focus)) ?? false;
  const stallLines: string[] = [];
  const sessions = plan.map((session): ProgramSession => {
    const before = previous?.program.sessions.find((old) => old.day === session.day)?.exercises ?? [];
    const keepable = inherit && previousDeload === deload ? before : [];
    const exercises = session.exercises.map((entry) =>
      renderExercise(entry, {
        prescription,
        keepable,
        previous: before,
        stallSessions: progress.consecutive_stall_sessions,
        adjustmentNote: triggers.adjustment_note,
      }),
    );
    stallLines.push(...stallChangeLines(session.exercises, exercises));
    return {
      day: session.day,
      focus: sessionFocus(session, deload),
      warmup: sessionWarmup(session, injuries.areas),
      exercises,
    };
  });

  const facts: GuidanceFacts = {
    experience,
    anxiety,
    deload,
    rpeCap: deload ? Math.min(rpeCap, DELOAD_RPE_CAP) : rpeCap,
    days,
    cyclePhase: client.cycle_phase,
    sleepHours: sleep,
    steps: progress.step_count_avg,
    injuries,
    short: deload ? [] : short,
    stallChanges: [...new Set(stallLines)],
    adjustmentNote: triggers.adjustment_note,
    physician: context.physician,
  };
  return {
    program: {
      phase: position.phase,
      phase_week: position.phase_week,
      frequency: sessions.length,
      total_weeks_remaining_in_phase: position.total_weeks_remaining_in_phase,
      sessions,
    },
    progression_rules: progressionRules(facts),
    recovery_protocol: recoveryProtocol(facts),
    phase_transition_criteria: phaseTransitionCriteria(position, experience),
    weekly_volume_summary: weeklyVolume(plan),
  };
}
