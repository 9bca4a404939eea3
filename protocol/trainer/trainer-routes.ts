import type { Route } from '../runtime/routing.ts';

/**
 * Every edge of the trainer system: the user's message to the agent loop, the loop's request to
 * the initializer and its answer (spec 001 §5), and the turn's result back to the user.
 */
export const TRAINER_ROUTES: readonly Route[] = [
  { from: 'USER', to: 'TRAINER', data_type: 'chat_request' },
  { from: 'TRAINER', to: 'INITIALIZER', data_type: 'context_request' },
  { from: 'INITIALIZER', to: 'TRAINER', data_type: 'context_loaded' },
  { from: 'TRAINER', to: 'USER', data_type: 'turn_result' },
];
