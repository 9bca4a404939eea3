import { describe, expect, it } from 'vitest';
import { buildTrainingProgram } from '../../../../../actors/nutrition/coach/coach.ts';
import { findTrainingExercise } from '../../../../../actors/nutrition/coach/training-exercise-table.ts';
import type { TrainingInput } from '../../../../../protocol/nutrition/training-input.ts';
import type { TrainingProgram } from '../../../../../protocol/nutrition/training-program.ts';
import { TrainingProgramSchema } from '../../../../../protocol/nutrition/training-program.ts';
import { tableEntries, trainingInput } from '../../../../support/nutrition/coach-fixtures.ts';

/** Every exercise with its day, in program order. */
function exercisesOf(program: TrainingProgram) {
  return program.program.sessions.flatMap((session) =>
    session.exercises.map((exercise) => ({ day: session.day, exercise })),
  );
}

/** The check-in after `program`: the named lifts stuck below the top of their range for 3 sessions. */
function stalledInput(
  input: TrainingInput,
  program: TrainingProgram,
  stuck: string[],
  progressing: string[],
): TrainingInput {
  const log = [...stuck, ...progressing].map((name) => {
    const prescribed = exercisesOf(program).find(({ exercise }) => exercise.name === name)!.exercise;
    const top = Number(/-(\d+)/.exec(String(prescribed.reps))![1]);
    return { name, sets: prescribed.sets, reps: stuck.includes(name) ? top - 2 : top, weight_kg: 20 };
  });
  return {
    ...input,
    client_data: { ...input.client_data, weeks_on_program: input.client_data.weeks_on_program + 1 },
    progress_data: { ...input.progress_data, training_log: log, stall_detected: true, consecutive_stall_sessions: 3 },
  };
}

describe('buildTrainingProgram on a re-run', () => {
  it('swaps only the stalled lifts for same-muscle variations and keeps everything else as it was', () => {
    const input = trainingInput({ training_experience: 'intermediate', weeks_on_program: 6 });
    const previous = buildTrainingProgram(input);
    const names = [...new Set(exercisesOf(previous).map(({ exercise }) => exercise.name))];
    const stuck = names.filter((name) => findTrainingExercise(name)!.kind === 'compound').slice(0, 2);
    const progressing = names.filter((name) => !stuck.includes(name)).slice(0, 1);
    const next = buildTrainingProgram(stalledInput(input, previous, stuck, progressing), { previous_output: previous });

    expect(() => TrainingProgramSchema.parse(next)).not.toThrow();
    const before = exercisesOf(previous);
    const after = exercisesOf(next);
    expect(after.map(({ day }) => day)).toEqual(before.map(({ day }) => day));
    let changed = 0;
    before.forEach(({ exercise: old }, index) => {
      const now = after[index]!.exercise;
      if (!stuck.includes(old.name)) {
        expect(now).toEqual(old);
        return;
      }
      changed += 1;
      expect(now.name).not.toBe(old.name);
      expect(findTrainingExercise(now.name)!.primary).toEqual(findTrainingExercise(old.name)!.primary);
      expect(now.notes).toContain(`Replaces ${old.name}`);
    });
    expect(changed).toBeGreaterThanOrEqual(2);
    expect(next.weekly_volume_summary).toEqual(previous.weekly_volume_summary);
    expect(next.progression_rules.filter((rule) => rule.startsWith('Stall change'))).toHaveLength(2);
    expect(next.program.phase_week).toBe(previous.program.phase_week + 1);
  });

  it('changes the rep range of a stalled lift instead of adding a new lift when gym anxiety is high', () => {
    const input = trainingInput({ gym_anxiety_level: 'high', weeks_on_program: 6 });
    const previous = buildTrainingProgram(input);
    const [stuck] = exercisesOf(previous).map(({ exercise }) => exercise.name);
    const next = buildTrainingProgram(stalledInput(input, previous, [stuck!], []), { previous_output: previous });
    const before = exercisesOf(previous);
    exercisesOf(next).forEach(({ exercise }, index) => {
      const old = before[index]!.exercise;
      expect(exercise.name).toBe(old.name);
      if (old.name === stuck) {
        expect(exercise.reps).not.toBe(old.reps);
        expect(exercise.notes).toContain('rep range moves from');
      } else {
        expect(exercise).toEqual(old);
      }
    });
  });

  it('names the stalled lifts from the SCIENTIST note when it names them', () => {
    const input = trainingInput({ training_experience: 'intermediate', weeks_on_program: 6 });
    const previous = buildTrainingProgram(input);
    const [first, second] = [...new Set(exercisesOf(previous).map(({ exercise }) => exercise.name))];
    const stalled = stalledInput(input, previous, [first!, second!], []);
    const note = `Stall on ${second} for 3 sessions.`;
    const next = buildTrainingProgram(
      { ...stalled, scientist_triggers: { ...stalled.scientist_triggers, adjustment_note: note } },
      { previous_output: previous },
    );
    const names = exercisesOf(next).map(({ exercise }) => exercise.name);
    expect(names).toContain(first);
    expect(names).not.toContain(second);
    expect(exercisesOf(next).find(({ exercise }) => exercise.notes.includes('Replaces'))!.exercise.notes).toContain(
      `SCIENTIST: ${note}`,
    );
  });

  it('keeps a stall change on the following week when nothing stalls any more', () => {
    const input = trainingInput({ training_experience: 'intermediate', weeks_on_program: 6 });
    const previous = buildTrainingProgram(input);
    const stuck = exercisesOf(previous)[0]!.exercise.name;
    const stalled = stalledInput(input, previous, [stuck], []);
    const swapped = buildTrainingProgram(stalled, { previous_output: previous });
    const calm = {
      ...stalled,
      progress_data: { ...stalled.progress_data, stall_detected: false, consecutive_stall_sessions: 0 },
    };
    const following = buildTrainingProgram(calm, { previous_output: swapped });
    expect(following.program.sessions).toEqual(swapped.program.sessions);
  });

  it('substitutes only the exercises a new injury rules out', () => {
    const input = trainingInput({ training_experience: 'intermediate', weeks_on_program: 6 });
    const previous = buildTrainingProgram(input);
    const injured = { ...input, client_data: { ...input.client_data, injuries: ['sore shoulder (impingement)'] } };
    const next = buildTrainingProgram(injured, { previous_output: previous });
    expect(tableEntries(next).some((entry) => entry.contraindications.includes('shoulder'))).toBe(false);
    const before = exercisesOf(previous);
    const kept = before.filter(
      ({ exercise }) => !findTrainingExercise(exercise.name)!.contraindications.includes('shoulder'),
    );
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(before.length);
    for (const { day, exercise } of kept) {
      expect(exercisesOf(next).some((entry) => entry.day === day && entry.exercise.name === exercise.name)).toBe(true);
    }
  });

  it('repeats the same week on a validation retry instead of advancing it', () => {
    const input = trainingInput({ weeks_on_program: 2 });
    const previous = buildTrainingProgram(input);
    const retry = buildTrainingProgram(input, {
      previous_output: previous,
      validation_issues: [{ path: 'program.sessions', message: 'Too small' }],
    });
    expect(retry.program.phase_week).toBe(previous.program.phase_week);
    expect(buildTrainingProgram(input, { previous_output: previous }).program.phase_week).toBe(
      previous.program.phase_week + 1,
    );
  });

  it('returns to the normal week after a deload', () => {
    const input = trainingInput({ training_experience: 'intermediate', weeks_on_program: 8 });
    const normal = buildTrainingProgram(input);
    const deload = buildTrainingProgram(
      { ...input, scientist_triggers: { ...input.scientist_triggers, deload_recommended: true } },
      { previous_output: normal },
    );
    const after = buildTrainingProgram(input, { previous_output: deload });
    expect(after.weekly_volume_summary).toEqual(normal.weekly_volume_summary);
    expect(after.program.sessions.map((session) => session.focus)).toEqual(
      normal.program.sessions.map((session) => session.focus),
    );
  });
});
