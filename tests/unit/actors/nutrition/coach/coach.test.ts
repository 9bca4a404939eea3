import { describe, expect, it } from 'vitest';
import { buildTrainingProgram } from '../../../../../actors/nutrition/coach/coach.ts';
import { weeklyVolumeRanges } from '../../../../../actors/nutrition/coach/coach-volume.ts';
import { EQUIPMENT_KITS, MAJOR_MUSCLE_GROUPS } from '../../../../../actors/nutrition/coach/training-exercise.ts';
import { TrainingProgramSchema } from '../../../../../protocol/nutrition/training-program.ts';
import { countSets, tableEntries, totalSets, trainingInput } from '../../../../support/nutrition/coach-fixtures.ts';

describe('buildTrainingProgram', () => {
  it('returns a payload that passes the training_program schema', () => {
    expect(() => TrainingProgramSchema.parse(buildTrainingProgram(trainingInput()))).not.toThrow();
  });

  it('gives a beginner at home with minimal equipment only bodyweight, band and light-dumbbell work', () => {
    for (const anxiety of ['high', 'moderate', 'low'] as const) {
      const program = buildTrainingProgram(
        trainingInput({ equipment_access: 'home_minimal', gym_anxiety_level: anxiety }),
      );
      for (const entry of tableEntries(program)) {
        expect(
          entry.equipment.every((item) => item === 'band' || item === 'light_dumbbells'),
          entry.name,
        ).toBe(true);
      }
      expect(program.program.sessions.every((session) => session.focus.includes('(home)'))).toBe(true);
    }
  });

  it('leaves out loaded deep knee flexion for a knee injury and still trains the quads', () => {
    const program = buildTrainingProgram(trainingInput({ injuries: ['Left knee pain (patellofemoral)'] }));
    const entries = tableEntries(program);
    expect(entries.filter((entry) => entry.contraindications.includes('knee'))).toEqual([]);
    expect(entries.filter((entry) => entry.pattern === 'squat' || entry.pattern === 'lunge')).toEqual([]);
    expect(program.weekly_volume_summary.quads).toBeGreaterThan(0);
    expect(program.recovery_protocol.join(' ')).toContain('knee');
  });

  it('gives high gym anxiety simple anxiety-friendly lifts, few new ones per session, at quiet hours', () => {
    const program = buildTrainingProgram(trainingInput({ gym_anxiety_level: 'high' }));
    for (const entry of tableEntries(program)) {
      expect(entry.anxietyFriendly && entry.complexity <= 2, entry.name).toBe(true);
    }
    const seen = new Set<string>();
    for (const session of program.program.sessions) {
      expect(session.focus).toContain('quiet hours');
      expect(session.exercises.filter((exercise) => !seen.has(exercise.name)).length).toBeLessThanOrEqual(4);
      for (const exercise of session.exercises) seen.add(exercise.name);
    }
    // The filter matters: without anxiety an intermediate gets barbell lifts that high anxiety rules out.
    const low = buildTrainingProgram(trainingInput({ training_experience: 'intermediate', gym_anxiety_level: 'low' }));
    expect(tableEntries(low).some((entry) => !entry.anxietyFriendly)).toBe(true);
    const high = buildTrainingProgram(
      trainingInput({ training_experience: 'intermediate', gym_anxiety_level: 'high' }),
    );
    expect(tableEntries(high).every((entry) => entry.anxietyFriendly)).toBe(true);
  });

  it('trains a high-anxiety client with home and gym access at home first, then adds one quiet gym session', () => {
    const foundation = buildTrainingProgram(trainingInput({ equipment_access: 'both', gym_anxiety_level: 'high' }));
    expect(foundation.program.sessions.map((session) => session.focus.includes('(home)'))).toEqual([true, true, true]);
    for (const entry of tableEntries(foundation)) {
      expect(entry.equipment.every((item) => EQUIPMENT_KITS.home_minimal.includes(item))).toBe(true);
    }
    const later = buildTrainingProgram(
      trainingInput({ equipment_access: 'both', gym_anxiety_level: 'high', weeks_on_program: 5 }),
    );
    expect(later.program.phase).toBe('hypertrophy');
    expect(later.program.sessions.filter((session) => session.focus.includes('quiet hours'))).toHaveLength(1);
  });

  it('reports weekly volume that equals the sets counted in the sessions', () => {
    const program = buildTrainingProgram(
      trainingInput({
        training_experience: 'intermediate',
        available_days: ['monday', 'tuesday', 'thursday', 'friday'],
      }),
    );
    const counted = countSets(program);
    for (const [group, sets] of Object.entries(program.weekly_volume_summary))
      expect(sets, group).toBe(counted[group] ?? 0);
    expect(Object.values(program.weekly_volume_summary).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('keeps each major group inside the evidence-based weekly range of the experience level', () => {
    for (const experience of ['none', 'beginner', 'intermediate'] as const) {
      const program = buildTrainingProgram(trainingInput({ training_experience: experience }));
      const ranges = weeklyVolumeRanges(experience);
      for (const group of MAJOR_MUSCLE_GROUPS) {
        const sets = program.weekly_volume_summary[group] ?? 0;
        expect(sets, `${experience} ${group}`).toBeGreaterThanOrEqual(ranges[group].min);
        expect(sets, `${experience} ${group}`).toBeLessThanOrEqual(ranges[group].max);
      }
    }
    expect(weeklyVolumeRanges('beginner').quads).toEqual({ min: 6, max: 10 });
    expect(weeklyVolumeRanges('intermediate').chest).toEqual({ min: 10, max: 16 });
  });

  it('derives frequency from the available days and experience, on those days, spread out', () => {
    const everyDay = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
    const none = buildTrainingProgram(trainingInput({ training_experience: 'none', available_days: [...everyDay] }));
    expect(none.program.frequency).toBe(3);
    expect(none.program.sessions.map((session) => session.day)).toEqual(['monday', 'wednesday', 'friday']);
    const intermediate = buildTrainingProgram(
      trainingInput({ training_experience: 'intermediate', available_days: [...everyDay] }),
    );
    expect(intermediate.program.frequency).toBe(5);
    const two = buildTrainingProgram(trainingInput({ available_days: ['saturday', 'sunday'] }));
    expect(two.program.sessions.map((session) => session.day)).toEqual(['saturday', 'sunday']);
  });

  it('cuts about 45 % of the sets in a deload week, keeps the exercises and caps RPE at 6', () => {
    const input = trainingInput({ training_experience: 'intermediate', weeks_on_program: 8 });
    const normal = buildTrainingProgram(input);
    const deload = buildTrainingProgram({
      ...input,
      scientist_triggers: { ...input.scientist_triggers, deload_recommended: true },
    });
    expect(totalSets(deload)).toBe(Math.round(totalSets(normal) * 0.55));
    const names = (program: typeof normal) =>
      program.program.sessions.map((session) => session.exercises.map((exercise) => exercise.name));
    expect(names(deload)).toEqual(names(normal));
    for (const session of deload.program.sessions) {
      expect(session.focus).toContain('deload');
      for (const exercise of session.exercises) expect(exercise.target_rpe).toBeLessThanOrEqual(6);
    }
    expect(
      Math.max(
        ...normal.program.sessions.flatMap((session) => session.exercises.map((exercise) => exercise.target_rpe)),
      ),
    ).toBeGreaterThan(6);
  });

  it('moves to the next phase on phase_transition_due and lists the criteria of the new phase', () => {
    const input = trainingInput({ weeks_on_program: 3 });
    const foundation = buildTrainingProgram(input);
    expect(foundation.program).toMatchObject({ phase: 'foundation', phase_week: 4, total_weeks_remaining_in_phase: 0 });
    const next = buildTrainingProgram(
      { ...input, scientist_triggers: { ...input.scientist_triggers, phase_transition_due: true } },
      { previous_output: foundation },
    );
    expect(next.program).toMatchObject({ phase: 'hypertrophy', phase_week: 1, total_weeks_remaining_in_phase: 7 });
    expect(next.phase_transition_criteria[0]).toContain('hypertrophy -> strength');
    expect(next.program.sessions[0]!.exercises[0]!.reps).toMatch(/^8-12/);
  });

  it('echoes the SCIENTIST adjustment note and reacts to the luteal phase, short sleep and a PHYSICIAN referral', () => {
    const note = 'Sleep trending down; keep the effort conservative this week.';
    const program = buildTrainingProgram(
      trainingInput(
        { training_experience: 'intermediate', cycle_phase: 'luteal' },
        { progress: { sleep_hours_avg: 5.5 }, triggers: { adjustment_note: note } },
      ),
    );
    expect(program.progression_rules).toContain(`SCIENTIST note: ${note}`);
    expect(program.progression_rules.some((rule) => rule.startsWith('Luteal phase'))).toBe(true);
    expect(
      program.program.sessions.flatMap((session) => session.exercises).every((exercise) => exercise.target_rpe <= 7),
    ).toBe(true);
    const referral = buildTrainingProgram(
      trainingInput({ training_experience: 'intermediate', weeks_on_program: 10 }),
      {
        physician: {
          response: 'Iron deficiency is likely; train lighter until it is treated.',
          sources: [],
          mechanism_explained: 'Low ferritin limits oxygen transport.',
          timeline: '6-8 weeks',
          referral_needed: true,
          referral_target: 'general practitioner',
          urgency: 'soon',
          pipeline_action: 'continue',
          disclaimer: 'Not medical advice.',
        },
      },
    );
    expect(referral.recovery_protocol.some((line) => line.startsWith('PHYSICIAN advisory: Iron deficiency'))).toBe(
      true,
    );
    expect(
      referral.program.sessions.flatMap((session) => session.exercises).every((exercise) => exercise.target_rpe <= 7),
    ).toBe(true);
  });

  it('gives every session a warm-up and every exercise a full prescription', () => {
    const program = buildTrainingProgram(trainingInput({ injuries: ['lower back'] }));
    for (const session of program.program.sessions) {
      expect(session.warmup.length).toBeGreaterThanOrEqual(4);
      expect(session.warmup.join(' ')).toContain('lower back');
      for (const exercise of session.exercises) {
        expect(exercise.reps).toMatch(/^\d+-\d+( s)?( per side)?$/);
        expect(exercise.progression_rule.length).toBeGreaterThan(20);
        expect(exercise.rest_sec).toBeGreaterThan(0);
      }
    }
  });
});
