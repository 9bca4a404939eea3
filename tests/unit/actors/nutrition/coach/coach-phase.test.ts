import { describe, expect, it } from 'vitest';
import { phaseTransitionCriteria, resolvePhase } from '../../../../../actors/nutrition/coach/coach-phase.ts';

const base = { experience: 'beginner' as const, weeksOnProgram: 0, phaseTransitionDue: false, sameWeek: false };

describe('resolvePhase', () => {
  it('infers the phase from the weeks on the program on a first run', () => {
    expect(resolvePhase(base)).toMatchObject({ phase: 'foundation', phase_week: 1, total_weeks_remaining_in_phase: 3 });
    expect(resolvePhase({ ...base, weeksOnProgram: 4 })).toMatchObject({ phase: 'hypertrophy', phase_week: 1 });
    expect(resolvePhase({ ...base, weeksOnProgram: 12 })).toMatchObject({ phase: 'strength', phase_week: 1 });
    expect(resolvePhase({ ...base, experience: 'none', weeksOnProgram: 4 })).toMatchObject({
      phase: 'foundation',
      phase_week: 5,
    });
  });

  it('continues the previous phase a week later, or the same week on a retry', () => {
    const previous = { phase: 'hypertrophy', phase_week: 3 };
    expect(resolvePhase({ ...base, previous })).toMatchObject({
      phase: 'hypertrophy',
      phase_week: 4,
      total_weeks_remaining_in_phase: 4,
    });
    expect(resolvePhase({ ...base, previous, sameWeek: true })).toMatchObject({ phase_week: 3 });
  });

  it('leaves a phase only on phase_transition_due and extends it past its length otherwise', () => {
    const previous = { phase: 'foundation', phase_week: 4 };
    const extended = resolvePhase({ ...base, previous });
    expect(extended).toMatchObject({
      phase: 'foundation',
      phase_week: 5,
      total_weeks_remaining_in_phase: 0,
      extended: true,
    });
    expect(phaseTransitionCriteria(extended, 'beginner').at(-1)).toContain('extended');
    expect(resolvePhase({ ...base, previous, phaseTransitionDue: true })).toMatchObject({
      phase: 'hypertrophy',
      phase_week: 1,
      transitioned: true,
    });
    expect(
      resolvePhase({ ...base, previous: { phase: 'hypertrophy', phase_week: 8 }, phaseTransitionDue: true }).phase,
    ).toBe('strength');
    expect(
      resolvePhase({ ...base, previous: { phase: 'strength', phase_week: 6 }, phaseTransitionDue: true }).phase,
    ).toBe('hypertrophy');
  });

  it('lists the transition criteria of the current phase', () => {
    const criteria = phaseTransitionCriteria(resolvePhase(base), 'beginner');
    expect(criteria[0]).toBe(
      'foundation -> hypertrophy after at least 4 weeks (now week 1) and only when every criterion below is met.',
    );
    expect(criteria.some((line) => line.includes('Technique'))).toBe(true);
  });
});
