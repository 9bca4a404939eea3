import { z } from 'zod';
import { ErrorIssueSchema } from './http-error.ts';

/**
 * Any system's envelope as the runtime carries it: a JSON object, kept verbatim. The supervisor
 * reads it only through its system's addressing (`envelope-addressing.ts`).
 */
export const RoutableEnvelopeSchema = z.looseObject({});
export type RoutableEnvelope = z.infer<typeof RoutableEnvelopeSchema>;

/**
 * The fields of the default addressing (spec 000 §2's envelope, and 001's): what a system that
 * declares no addressing must have. A system's own envelope schema has these and more.
 */
export const DefaultEnvelopeSchema = z.looseObject({
  message_id: z.string().min(1),
  from_agent: z.string().min(1),
  to_agent: z.string().min(1),
  data_type: z.string().min(1),
  payload: z.unknown(),
});
export type DefaultEnvelope = z.infer<typeof DefaultEnvelopeSchema>;

/**
 * One allowed edge of a system's routing table: `from -> to : data_type`, where `data_type` is the
 * kind the system's addressing reads (spec 003's `message_type`, say). `to` may be `topic:<name>`,
 * or the addressing's broadcast value (`broadcast`) for a sender allowed to reach every agent.
 */
export const RouteSchema = z.strictObject({
  from: z.string().min(1),
  to: z.string().min(1),
  data_type: z.string().min(1),
});
export type Route = z.infer<typeof RouteSchema>;

/** How an envelope was delivered. */
export const DeliveryKindSchema = z.enum(['direct', 'broadcast', 'request', 'response']);
export type DeliveryKind = z.infer<typeof DeliveryKindSchema>;

/** What the journal keeps of each routed envelope. */
export const RoutedRecordSchema = z.strictObject({
  kind: DeliveryKindSchema,
  envelope: RoutableEnvelopeSchema,
  topic: z.string().optional(),
  correlation_id: z.string().optional(),
  /** What the sender attached for the receiver beyond the envelope (error context, constraints). */
  context: z.unknown().optional(),
  /** Past its expiry when admitted: journaled, never delivered. */
  expired: z.literal(true).optional(),
});
export type RoutedRecord = z.infer<typeof RoutedRecordSchema>;

/** How an envelope reached its agent. */
export const DeliverySchema = z.strictObject({
  kind: DeliveryKindSchema,
  topic: z.string().optional(),
  correlationId: z.string().optional(),
});
export type Delivery = z.infer<typeof DeliverySchema>;

/** What an agent's brain receives for each envelope routed to it. */
export const DeliveredMessageSchema = z.strictObject({
  envelope: RoutableEnvelopeSchema,
  delivery: DeliverySchema,
  context: z.unknown().optional(),
});
export type DeliveredMessage = z.infer<typeof DeliveredMessageSchema>;

/** Why the supervisor refused an envelope. Each has its own code so a sender can tell them apart. */
const RoutingErrorCodeSchema = z.enum([
  'invalid_envelope',
  'unknown_agent',
  'unknown_edge',
  'duplicate_message',
  'unknown_topic',
  'unknown_correlation',
  'request_timeout',
  'journal_unavailable',
  'version_not_supported',
  'throttled',
  'undeliverable',
  /** A system's own admission rule refused it (`SystemDefinition.admissionRule`: spec 004's channels). */
  'outside_channel',
  /** A system's admission rule found a reference to something that does not exist (spec 004's knowledge_graph_refs). */
  'unknown_reference',
]);

/** The structured error a rejected envelope's sender receives. */
export const RoutingErrorSchema = z.strictObject({
  code: RoutingErrorCodeSchema,
  message: z.string(),
  issues: z.array(ErrorIssueSchema).optional(),
  /** With `throttled`: the receiver's hint, send again no sooner than this. */
  retryAfterMs: z.number().int().nonnegative().optional(),
  /** With `version_not_supported`: the protocol majors the receiver reads. */
  supported: z.array(z.int().nonnegative()).optional(),
});
export type RoutingError = z.infer<typeof RoutingErrorSchema>;
