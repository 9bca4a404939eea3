import { z } from 'zod';
import type { EnvelopeAddressing } from './envelope-addressing.ts';
import { RoutableEnvelopeSchema, type RoutingError } from './routing.ts';

/**
 * What a run's journal keeps of an envelope refused at admission (a system's opt-in:
 * `RunHostOptions.journalRefusals`): the envelope verbatim, the refusal's code and the field it
 * names. It is no routed envelope: nobody got it, and a restart hands it to nobody.
 */
export const RefusedRecordSchema = z.strictObject({
  kind: z.literal('refused'),
  envelope: RoutableEnvelopeSchema,
  code: z.string().min(1),
  /** The dotted path of the field the refusal names (`destination_agent`), when it names one. */
  field: z.string().optional(),
  message: z.string(),
});
export type RefusedRecord = z.infer<typeof RefusedRecordSchema>;

/**
 * The refusals of admission, which say what is wrong with an envelope. Not these: a duplicate (its
 * first copy is journaled), nor what happens to an admitted one (`journal_unavailable`,
 * `throttled`, `request_timeout`, `undeliverable`).
 */
const ADMISSION_REFUSALS: ReadonlySet<string> = new Set<RoutingError['code']>([
  'invalid_envelope',
  'unknown_agent',
  'unknown_edge',
  'unknown_topic',
  'unknown_correlation',
  'version_not_supported',
  'outside_channel',
  'unknown_reference',
]);

/** Whether a refusal with `code` is one admission journals (see {@link ADMISSION_REFUSALS}). */
export const isAdmissionRefusal = (code: string): boolean => ADMISSION_REFUSALS.has(code);

/** The field a refusal without issues is about, by its code, as the system's addressing places it. */
function fieldOfCode(code: string, addressing: EnvelopeAddressing): string | undefined {
  if (code === 'unknown_agent' || code === 'unknown_edge' || code === 'unknown_topic') return addressing.receivers;
  if (code === 'unknown_correlation') return addressing.correlation;
  return undefined;
}

/**
 * The record of a refused envelope: the field is the first issue's path, or where the addressing
 * keeps what the code is about (the receivers for `unknown_edge`).
 *
 * @example
 * refusedRecordOf(envelope, { code: 'unknown_edge', message }, ORG_ADDRESSING);
 * // { kind: 'refused', envelope, code: 'unknown_edge', field: 'destination_agent', message }
 */
export function refusedRecordOf(
  envelope: Record<string, unknown>,
  error: Pick<RoutingError, 'code' | 'message' | 'issues'>,
  addressing: EnvelopeAddressing,
): RefusedRecord {
  const field = error.issues?.[0]?.path ?? fieldOfCode(error.code, addressing);
  return {
    kind: 'refused',
    envelope,
    code: error.code,
    ...(field === undefined ? {} : { field }),
    message: error.message,
  };
}
