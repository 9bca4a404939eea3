import { describe, expect, it } from 'vitest';
import { NutritionEnvelopeSchema, WeeklyCheckinSchema } from '../../../../protocol/nutrition/index.ts';
import { RUN_ID, payloadCopy } from './fixtures.ts';
import { issuePaths, issuesOf } from './issues.ts';

describe('WeeklyCheckinSchema', () => {
  it('accepts the §7.1 example envelope as written (with ids and timestamp filled in)', () => {
    const envelope = {
      message_id: '9f0c6a47-5b0e-4a57-9a4f-7f1f2b8f2a10',
      from_agent: 'USER',
      to_agent: 'SCIENTIST',
      data_type: 'weekly_checkin',
      payload: payloadCopy('weekly_checkin'),
      pipeline_run_id: `${RUN_ID}_v2`,
      timestamp: '2026-03-02T07:15:00Z',
      version: '1.0',
    };
    expect(issuesOf(NutritionEnvelopeSchema, envelope)).toEqual([]);
  });

  it('accepts weight_kg alone with null girths (the off week of the biweekly cadence)', () => {
    expect(issuesOf(WeeklyCheckinSchema, { weight_kg: 56.4, waist_cm: null, hip_cm: null })).toEqual([]);
  });

  it.each(['weight_kg', 'waist_cm', 'hip_cm'])('requires %s', (field) => {
    const payload = payloadCopy('weekly_checkin');
    delete payload[field];
    expect(issuePaths(WeeklyCheckinSchema, payload)).toEqual([field]);
  });

  it('wants waist_cm and hip_cm together', () => {
    expect(issuePaths(WeeklyCheckinSchema, { ...payloadCopy('weekly_checkin'), hip_cm: null })).toEqual(['hip_cm']);
    expect(issuePaths(WeeklyCheckinSchema, { ...payloadCopy('weekly_checkin'), waist_cm: null })).toEqual(['hip_cm']);
  });

  it.each([0, 11, 7.5, '7'])('rejects a subjective marker of %j', (score) => {
    const payload = payloadCopy('weekly_checkin');
    payload.subjective_markers.mood = score;
    expect(issuePaths(WeeklyCheckinSchema, payload)).toEqual(['subjective_markers.mood']);
  });

  it.each([
    ['cycle_phase', 'ovulatory'],
    ['cycle_day', 0],
    ['minimum_viable_days_count', 8],
    ['minimum_viable_days_count', -1],
    ['weight_kg', 0],
  ])('rejects %s = %j', (field, value) => {
    expect(issuePaths(WeeklyCheckinSchema, { ...payloadCopy('weekly_checkin'), [field]: value })).toEqual([field]);
  });

  it('rejects a best set without reps', () => {
    const payload = payloadCopy('weekly_checkin');
    delete payload.training_log.exercises[0].best_set.reps;
    expect(issuePaths(WeeklyCheckinSchema, payload)).toEqual(['training_log.exercises.0.best_set.reps']);
  });
});
