import { describe, expect, it } from 'vitest';
import {
  NutritionEnvelopeSchema,
  PipelineErrorSchema,
  UpstreamDataRequestSchema,
} from '../../../../protocol/nutrition/index.ts';
import { MESSAGE_ID, RUN_ID, payloadCopy } from './fixtures.ts';
import { issuePaths, issuesOf } from './issues.ts';

describe('PipelineErrorSchema', () => {
  it('accepts the §6 error message from ORCHESTRATOR to USER', () => {
    const envelope = {
      message_id: MESSAGE_ID,
      from_agent: 'ORCHESTRATOR',
      to_agent: 'USER',
      data_type: 'pipeline_error',
      payload: {
        error_type: 'validation_failure',
        failing_agent: 'SCIENTIST',
        details: 'Description of what failed',
        pipeline_run_id: RUN_ID,
        recoverable: true,
        retry_count: 1,
        issues: [{ path: 'protein_g', message: 'Required' }],
      },
      pipeline_run_id: RUN_ID,
      timestamp: '2026-02-09T14:31:10Z',
      version: '1.0',
    };
    expect(issuesOf(NutritionEnvelopeSchema, envelope)).toEqual([]);
  });

  it.each(['timeout_duration_ms', 'input_hash'])('requires %s on a timeout (§6.1)', (field) => {
    const payload = payloadCopy('pipeline_error');
    delete payload[field];
    expect(issuePaths(PipelineErrorSchema, payload)).toEqual(['error_type']);
  });

  it.each([
    ['error_type', 'crash'],
    ['failing_agent', 'ROBOT'],
    ['pipeline_run_id', `${RUN_ID}_v1`],
    ['retry_count', 2],
    ['retry_count', -1],
    ['recoverable', 'yes'],
    ['details', ''],
  ])('rejects %s = %j', (field, value) => {
    expect(issuePaths(PipelineErrorSchema, { ...payloadCopy('pipeline_error'), [field]: value })).toEqual([field]);
  });

  it('accepts a physician abort without timeout fields', () => {
    const payload = {
      error_type: 'physician_abort',
      failing_agent: 'PHYSICIAN',
      details: 'PHYSICIAN advised immediate medical care.',
      pipeline_run_id: RUN_ID,
      recoverable: false,
      retry_count: 0,
    };
    expect(issuesOf(PipelineErrorSchema, payload)).toEqual([]);
  });
});

describe('UpstreamDataRequestSchema', () => {
  it('accepts a request naming the missing fields and the agent to re-run', () => {
    expect(issuesOf(UpstreamDataRequestSchema, payloadCopy('upstream_data_request'))).toEqual([]);
  });

  it.each([
    ['missing_fields', []],
    ['upstream_agent', 'SOMEONE'],
    ['upstream_data_type', 'strategy'],
  ])('rejects %s = %j', (field, value) => {
    const payload = { ...payloadCopy('upstream_data_request'), [field]: value };
    expect(issuePaths(UpstreamDataRequestSchema, payload)).toEqual([field]);
  });
});
