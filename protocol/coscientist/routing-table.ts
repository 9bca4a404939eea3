import type { Route } from '../runtime/routing.ts';
import { COSCIENTIST_BROADCAST } from './envelope.ts';
import { WorkerAgentSchema } from './payloads.ts';

/**
 * Spec 003's routing: no agent talks to another, so every edge has the SUPERVISOR at one end, and
 * only the SUPERVISOR broadcasts. Tasks go out (`task_assignment`), results come back
 * (`task_result`), RANKING asks for tournaments, feedback is broadcast and guidance reaches
 * GENERATION.
 */
export const COSCIENTIST_ROUTES: readonly Route[] = Object.freeze([
  ...WorkerAgentSchema.options.flatMap((agent) => [
    { from: 'SUPERVISOR', to: agent, data_type: 'task_assignment' },
    { from: agent, to: 'SUPERVISOR', data_type: 'task_result' },
  ]),
  { from: 'RANKING', to: 'SUPERVISOR', data_type: 'tournament_request' },
  { from: 'SUPERVISOR', to: COSCIENTIST_BROADCAST, data_type: 'feedback_broadcast' },
  { from: 'SUPERVISOR', to: 'GENERATION', data_type: 'guidance_update' },
]);
