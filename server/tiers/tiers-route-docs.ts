import {
  CancelRequestSchema,
  ClarificationRequestSchema,
  TaskRequestSchema,
} from '../../protocol/tiers/task-request.ts';
import { TiersEnvelopeSchema } from '../../protocol/tiers/envelope.ts';
import { defineRouteDocs } from '../openapi/route-doc.ts';
import { EventsQuerySchema } from './task-events-route.ts';
import { BeadsQuerySchema } from './tiers-routes.ts';

const task = { id: 'The task id (`task_id`).' };

/** The tiers routes (`/tiers`) as the API description shows them. */
export const TIERS_ROUTE_DOCS = defineRouteDocs([
  {
    method: 'post',
    path: '/tiers/tasks',
    summary: 'Submit a programming problem',
    description: 'Strict: an unknown field is a 400 naming it. See `examples/tiers-task.json`.',
    body: TaskRequestSchema,
    admission: true,
    responses: { 201: { description: '`{ task_id, status: "working" }`' } },
  },
  {
    method: 'get',
    path: '/tiers/tasks',
    summary: "The user's tasks, newest first",
    responses: { 200: { description: '`{ tasks: [{ task_id, status, created_at }] }`' } },
  },
  {
    method: 'get',
    path: '/tiers/tasks/:id',
    summary: 'One task: status, outcome, delegation tree',
    params: task,
    responses: { 200: { description: '`{ task_id, status, outcome, tree, waiting_for_user, created_at }`' } },
  },
  {
    method: 'get',
    path: '/tiers/tasks/:id/messages',
    summary: 'Every spec Message of the task in journal order',
    params: task,
    responses: { 200: { description: '`{ messages }`' } },
  },
  {
    method: 'get',
    path: '/tiers/tasks/:id/beads',
    summary: "The task's Beads",
    params: task,
    query: BeadsQuerySchema,
    responses: { 200: { description: '`{ entries: [{ key, value, version, written_by }] }`' } },
  },
  {
    method: 'get',
    path: '/tiers/tasks/:id/events',
    summary: 'Stream the task',
    params: task,
    query: EventsQuerySchema,
    sse: '`message` per envelope, `status` per delegation change, `settled` when the task ends or waits for the user; past events first.',
    responses: {},
  },
  {
    method: 'post',
    path: '/tiers/tasks/:id/cancel',
    summary: 'Cancel a task',
    params: task,
    body: CancelRequestSchema,
    responses: {
      200: { description: 'The task had finished: its view (its outcome).' },
      202: { description: '`{ task_id, accepted: true }`' },
    },
  },
  {
    method: 'post',
    path: '/tiers/tasks/:id/clarification',
    summary: "Answer the task's question",
    params: task,
    body: ClarificationRequestSchema,
    responses: { 202: { description: '`{ task_id, accepted: true }`: the task resumes.' } },
    errors: { 409: '`not_waiting_for_clarification`' },
  },
  {
    method: 'post',
    path: '/tiers/messages',
    summary: "An external Progress Monitor's spec Message",
    description:
      'A delegation to the Architect (the problem in `task_data.problem`) or a cancellation of one. A duplicate id gets the same answer, nothing re-run; another major is 400 `version_not_supported`.',
    body: TiersEnvelopeSchema,
    admission: true,
    responses: { 202: { description: '`{ task_id, message_id }`' } },
    errors: { 409: '`message_id_taken`: another user sent that id.' },
  },
]);
