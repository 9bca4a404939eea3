import { describe, expect, it } from 'vitest';
import {
  NutritionDataTypeSchema,
  NutritionEnvelopeSchema,
  PipelineRunIdSchema,
  type EnvelopeOf,
} from '../../../../protocol/nutrition/index.ts';
import { MESSAGE_ID, RUN_ID, VALID_PAYLOADS, validEnvelope } from './fixtures.ts';
import { issuePaths, issuesOf } from './issues.ts';

describe('NutritionEnvelopeSchema', () => {
  it.each(NutritionDataTypeSchema.options)('accepts a valid %s envelope', (dataType) => {
    const envelope = validEnvelope(dataType);
    expect(NutritionEnvelopeSchema.parse(envelope)).toEqual(envelope);
  });

  it('accepts the §7.1 check-in with USER as sender and the §6 error with ORCHESTRATOR as sender', () => {
    const checkin = { ...validEnvelope('weekly_checkin'), from_agent: 'USER', to_agent: 'SCIENTIST' };
    const error = { ...validEnvelope('pipeline_error'), from_agent: 'ORCHESTRATOR', to_agent: 'USER' };
    expect(issuesOf(NutritionEnvelopeSchema, checkin)).toEqual([]);
    expect(issuesOf(NutritionEnvelopeSchema, error)).toEqual([]);
  });

  it('narrows the payload type by data_type', () => {
    const parsed = NutritionEnvelopeSchema.parse(validEnvelope('macro_targets'));
    if (parsed.data_type !== 'macro_targets') throw new Error('expected macro_targets');
    const typed: EnvelopeOf<'macro_targets'> = parsed;
    expect(typed.payload.protein_g).toBe(VALID_PAYLOADS.macro_targets.protein_g);
  });

  it('reports a bad payload field under payload.', () => {
    const envelope = validEnvelope('macro_targets');
    const bad = { ...envelope, payload: { ...envelope.payload, protein_g: 'lots' } };
    expect(issuePaths(NutritionEnvelopeSchema, bad)).toEqual(['payload.protein_g']);
  });

  it('validates the payload against the schema its data_type names', () => {
    const mismatched = { ...validEnvelope('macro_targets'), payload: VALID_PAYLOADS.weekly_checkin };
    const paths = issuePaths(NutritionEnvelopeSchema, mismatched);
    expect(paths).toContain('payload.bmr_kcal');
    expect(paths).toContain('payload');
  });

  it('rejects an unknown data_type at data_type', () => {
    expect(issuePaths(NutritionEnvelopeSchema, { ...validEnvelope('recipes'), data_type: 'recipe' })).toEqual([
      'data_type',
    ]);
  });

  it.each(['message_id', 'from_agent', 'to_agent', 'payload', 'pipeline_run_id', 'timestamp', 'version'] as const)(
    'requires %s',
    (field) => {
      const envelope: Record<string, unknown> = { ...validEnvelope('recipes') };
      delete envelope[field];
      expect(issuePaths(NutritionEnvelopeSchema, envelope)).toEqual([field]);
    },
  );

  it('rejects an unknown envelope field', () => {
    expect(issuePaths(NutritionEnvelopeSchema, { ...validEnvelope('recipes'), priority: 1 })).toEqual(['']);
  });

  it.each([
    ['from_agent', 'BOB'],
    ['to_agent', 'scientist'],
    ['version', '1.1'],
    ['version', 1],
  ])('rejects %s = %j', (field, value) => {
    expect(issuePaths(NutritionEnvelopeSchema, { ...validEnvelope('recipes'), [field]: value })).toEqual([field]);
  });

  it.each([
    'not-a-uuid',
    '3b241101-e2bb-1255-8caf-4136c566a962', // version 1
    '3b241101-e2bb-4255-7caf-4136c566a962', // bad variant
    '3b241101e2bb42558caf4136c566a962',
    `${MESSAGE_ID}_v2`, // a run suffix is not allowed on a message id
  ])('rejects message_id %s', (messageId) => {
    expect(issuePaths(NutritionEnvelopeSchema, { ...validEnvelope('recipes'), message_id: messageId })).toEqual([
      'message_id',
    ]);
  });

  it.each([
    '2026-02-09T14:30:00+00:00',
    '2026-02-09T16:30:00+02:00',
    '2026-02-09T14:30:00',
    '2026-02-09 14:30:00Z',
    '2026-02-09',
    '2026-02-30T14:30:00Z',
    'ISO8601',
  ])('rejects timestamp %s (not ISO 8601 UTC)', (timestamp) => {
    expect(issuePaths(NutritionEnvelopeSchema, { ...validEnvelope('recipes'), timestamp })).toEqual(['timestamp']);
  });

  it('accepts a UTC timestamp with milliseconds', () => {
    const envelope = { ...validEnvelope('recipes'), timestamp: '2026-02-09T14:30:00.123Z' };
    expect(issuesOf(NutritionEnvelopeSchema, envelope)).toEqual([]);
  });
});

describe('PipelineRunIdSchema', () => {
  it.each([RUN_ID, `${RUN_ID}_v2`, `${RUN_ID}_v3`, `${RUN_ID}_v9`, `${RUN_ID}_v10`, `${RUN_ID}_v123`])(
    'accepts %s',
    (runId) => {
      expect(PipelineRunIdSchema.safeParse(runId).success).toBe(true);
    },
  );

  it.each([
    `${RUN_ID}_v1`,
    `${RUN_ID}_v0`,
    `${RUN_ID}_v02`,
    `${RUN_ID}_v`,
    `${RUN_ID}_2`,
    `${RUN_ID}-v2`,
    `${RUN_ID}_v2_v3`,
    'run-abc_v2',
    '1b9d6bcd-bbfd-1b2d-9b5d-ab8dfbbd4bed',
  ])('rejects %s', (runId) => {
    expect(PipelineRunIdSchema.safeParse(runId).success).toBe(false);
  });

  it('is checked in the envelope at pipeline_run_id', () => {
    const envelope = { ...validEnvelope('recipes'), pipeline_run_id: `${RUN_ID}_v1` };
    expect(issuePaths(NutritionEnvelopeSchema, envelope)).toEqual(['pipeline_run_id']);
  });
});
