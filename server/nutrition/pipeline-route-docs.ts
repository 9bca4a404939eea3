import { IntakeDataSchema } from '../../protocol/nutrition/intake-data.ts';
import { WeeklyCheckinSchema } from '../../protocol/nutrition/weekly-checkin.ts';
import { defineRouteDocs } from '../openapi/route-doc.ts';
import { ClearanceBodySchema, PipelineEventsQuerySchema } from './pipeline-routes.ts';

const id = { id: 'The pipeline run id (`pipeline_run_id`).' };

/** The nutrition routes (`/pipelines`, `/clearance`) as the API description shows them. */
export const PIPELINE_ROUTE_DOCS = defineRouteDocs([
  {
    method: 'post',
    path: '/pipelines',
    summary: 'Start a pipeline run from an intake',
    description: 'Body: `intake_data` (spec 000 §4.1). The run proceeds in the background.',
    body: IntakeDataSchema,
    admission: true,
    responses: { 201: { description: '`{ pipeline_run_id, state }`' } },
    errors: { 409: '`medical_clearance_required` after a medical abort, until `POST /clearance`.' },
  },
  {
    method: 'get',
    path: '/pipelines',
    summary: "The caller's runs, newest first",
    responses: { 200: { description: '`{ pipelines }`' } },
  },
  {
    method: 'get',
    path: '/pipelines/:id',
    summary: 'One run',
    params: id,
    responses: {
      200: {
        description:
          '`{ pipeline_run_id, version, state, previous_state, status, outputs, physician, error, last_adjustment }`',
      },
    },
  },
  {
    method: 'get',
    path: '/pipelines/:id/messages',
    summary: 'Every envelope of the run in journal order',
    params: id,
    responses: { 200: { description: '`{ messages }`' } },
  },
  {
    method: 'get',
    path: '/pipelines/:id/events',
    summary: 'Stream the run',
    params: id,
    query: PipelineEventsQuerySchema,
    sse: '`state` on each transition, `message` per envelope; `?until=settled` closes in `output_ready`, `paused_physician` or `error`.',
    responses: {},
  },
  {
    method: 'post',
    path: '/pipelines/:id/physician/confirm',
    summary: 'Confirm the referral was seen',
    params: id,
    responses: { 200: { description: 'The run, back in the state that paused.' } },
    errors: { 409: 'The run is not waiting for a referral confirmation.' },
  },
  {
    method: 'post',
    path: '/pipelines/:id/checkins',
    summary: 'Send a weekly check-in',
    description: 'Body: `weekly_checkin` (spec 000 §7.1).',
    params: id,
    body: WeeklyCheckinSchema,
    admission: true,
    responses: { 200: { description: 'The `adjustment_result` envelope, once any re-run finished.' } },
    errors: { 409: 'The run is not in `output_ready`.' },
  },
  {
    method: 'post',
    path: '/clearance',
    summary: 'Medical clearance after an abort',
    body: ClearanceBodySchema,
    responses: { 200: { description: 'The clearance recorded.' } },
  },
]);
