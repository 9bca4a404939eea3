import { readFileSync } from 'node:fs';
import type { RouteMethod } from '../../../server/openapi/route-doc.ts';

/** A ready body in `examples/` and the route it is sent to (the README's curl lines use them). */
export interface RouteExample {
  file: string;
  method: RouteMethod;
  /** The route as its description writes it (`/pipelines/:id/checkins`). */
  path: string;
  /** For `PUT /users/me/:source`: the document it is. */
  source?: string;
  /** Refused on purpose (the README shows the refusal): its schema refuses it too. */
  refused?: string;
}

/** Every file of `examples/`, by the route it is for. */
export const ROUTE_EXAMPLES: readonly RouteExample[] = [
  { file: 'nutrition-intake.json', method: 'post', path: '/pipelines' },
  { file: 'nutrition-checkin.json', method: 'post', path: '/pipelines/:id/checkins' },
  { file: 'nutrition-clearance.json', method: 'post', path: '/clearance' },
  { file: 'trainer-chat.json', method: 'post', path: '/agent/chat' },
  { file: 'trainer-stream.json', method: 'post', path: '/agent/stream' },
  { file: 'trainer-session.json', method: 'post', path: '/agent/sessions' },
  { file: 'trainer-profile.json', method: 'put', path: '/users/me/:source', source: 'user_profile' },
  { file: 'trainer-locations.json', method: 'put', path: '/users/me/:source', source: 'all_locations' },
  { file: 'tiers-task.json', method: 'post', path: '/tiers/tasks' },
  { file: 'tiers-task-racing.json', method: 'post', path: '/tiers/tasks' },
  { file: 'tiers-task-ambiguous.json', method: 'post', path: '/tiers/tasks' },
  { file: 'tiers-task-unknown.json', method: 'post', path: '/tiers/tasks' },
  { file: 'tiers-cancel.json', method: 'post', path: '/tiers/tasks/:id/cancel' },
  { file: 'tiers-clarification.json', method: 'post', path: '/tiers/tasks/:id/clarification' },
  { file: 'tiers-message.json', method: 'post', path: '/tiers/messages' },
  {
    file: 'tiers-message-v2.json',
    method: 'post',
    path: '/tiers/messages',
    refused: 'another major version: 400 version_not_supported',
  },
  { file: 'coscientist-goal.json', method: 'post', path: '/research' },
  { file: 'coscientist-guidance.json', method: 'post', path: '/research/:id/guidance' },
  { file: 'org-project.json', method: 'post', path: '/org/projects' },
  { file: 'org-amend.json', method: 'patch', path: '/org/projects/:id/prd' },
  { file: 'org-resolve.json', method: 'post', path: '/org/projects/:id/escalations/:eid/resolve' },
  { file: 'org-message.json', method: 'post', path: '/org/messages' },
];

/** The parsed body of an example file. */
export function readExample(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../../examples/${file}`, import.meta.url), 'utf8'));
}
