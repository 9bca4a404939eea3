import { z } from 'zod';
import { ErrorIssueSchema } from './http-error.ts';

/*
 * The `agent.*` event family of the generic worker actor (machines/agent.ts): what a supervisor
 * sends it, what it reports back, and what its brain receives. Brains live in actors/, which may
 * not import machines/, so their input shape lives here too.
 */

/**
 * Asks an agent to run its brain on `input`; requests arriving while it is busy wait (FIFO), up to
 * the agent's `maxQueued`. With `ack`, the agent answers `agent.ack` when it takes the request
 * from its mailbox and starts on it (acknowledged delivery).
 */
export const AgentRequestEventSchema = z.strictObject({
  type: z.literal('agent.request'),
  requestId: z.string().min(1),
  input: z.unknown(),
  ack: z.literal(true).optional(),
});
export type AgentRequestEvent = z.infer<typeof AgentRequestEventSchema>;

/** Cancels one request by id, or (without `requestId`) the current one and everything queued. */
export const AgentCancelEventSchema = z.strictObject({
  type: z.literal('agent.cancel'),
  requestId: z.string().min(1).optional(),
});
export type AgentCancelEvent = z.infer<typeof AgentCancelEventSchema>;

/** What a brain is invoked with: the same `input` on every attempt, `attempt` counting from 1. */
export const AgentBrainInputSchema = z.strictObject({
  agent: z.string(),
  requestId: z.string(),
  input: z.unknown(),
  attempt: z.number().int().positive(),
});
export type AgentBrainInput = z.infer<typeof AgentBrainInputSchema>;

/** Why a request failed: its last attempt timed out (§6.1), gave invalid output, or threw. */
export const AgentFailureSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('timeout'),
    timeout_duration_ms: z.number().positive(),
    /** sha256 hex of the canonical JSON of the request input (actors/input-hash.ts). */
    input_hash: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  z.strictObject({
    kind: z.literal('validation'),
    issues: z.array(ErrorIssueSchema),
  }),
  z.strictObject({
    kind: z.literal('error'),
    message: z.string(),
  }),
]);
export type AgentFailure = z.infer<typeof AgentFailureSchema>;

/**
 * How one request ended. `throttled` (spec 002's THROTTLED): the agent's mailbox was full, so the
 * request was never queued nor started; send it again after `retryAfterMs` at the earliest.
 */
export const AgentOutcomeSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('completed'), output: z.unknown() }),
  z.strictObject({ status: z.literal('failed'), failure: AgentFailureSchema }),
  z.strictObject({ status: z.literal('cancelled') }),
  z.strictObject({ status: z.literal('throttled'), retryAfterMs: z.number().int().nonnegative() }),
]);
export type AgentOutcome = z.infer<typeof AgentOutcomeSchema>;

/**
 * Sent to the parent exactly once per request. `attempts` counts brain runs: 0 for a request
 * cancelled before it started or throttled, at most `maxAttempts` otherwise.
 */
export const AgentReportSchema = z.strictObject({
  type: z.literal('agent.report'),
  agent: z.string(),
  requestId: z.string(),
  attempts: z.number().int().nonnegative(),
  outcome: AgentOutcomeSchema,
});
export type AgentReport = z.infer<typeof AgentReportSchema>;

/**
 * Sent to the parent when an agent takes a request that asked for an ack (`ack: true`) from its
 * mailbox and starts on it, and again at once when such a request comes back after it ran.
 */
export const AgentAckEventSchema = z.strictObject({
  type: z.literal('agent.ack'),
  agent: z.string(),
  requestId: z.string(),
});
export type AgentAckEvent = z.infer<typeof AgentAckEventSchema>;
