import { z } from 'zod';
import type { SessionStatus } from './session.ts';

/** What moves a session between its statuses (spec 001 §7.6, §12.9 step 8). */
export const SessionEventTypeSchema = z.enum(['session.complete', 'session.fail', 'session.continue']);
export type SessionEventType = z.infer<typeof SessionEventTypeSchema>;

/** One allowed status change of a session and the event that makes it. */
type SessionTransition = { from: SessionStatus; to: SessionStatus; event: SessionEventType };

/**
 * Every status change a session may make, and nothing else: §7.6 ends an active session as
 * `completed` (normal exit) or `error` (fatal error); a new message to an ended session makes it
 * `active` again (§12.9 step 8 continues a completed session; after an error the user may retry).
 */
export const SESSION_TRANSITIONS = [
  { from: 'active', to: 'completed', event: 'session.complete' },
  { from: 'active', to: 'error', event: 'session.fail' },
  { from: 'completed', to: 'active', event: 'session.continue' },
  { from: 'error', to: 'active', event: 'session.continue' },
] as const satisfies readonly SessionTransition[];

/** The status a session has right after it is created (§12.5). */
export const INITIAL_SESSION_STATUS: SessionStatus = 'active';
