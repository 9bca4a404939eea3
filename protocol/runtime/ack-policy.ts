import { compilePath } from './envelope-path.ts';

/** How an envelope that requires acknowledgment is redelivered: wait `timeoutMs` for the ack, `retries` times more. */
export interface AckPolicy {
  timeoutMs: number;
  retries: number;
}

/**
 * Where an envelope says it requires acknowledgment, as dotted paths (spec 004's
 * `acknowledgment: { required, timeout_ms, retry_count }`), and which kinds always do (every 004
 * `request`). A field that is absent takes its value from `defaults`.
 */
export interface AckDeclaration {
  /** A boolean: true requires an ack. */
  required?: string;
  /** A number of milliseconds. */
  timeoutMs?: string;
  /** A whole number of redeliveries after the first delivery. */
  retries?: string;
  /** Kinds (as the addressing reads them) that require an ack whatever `required` says. */
  requiredForKinds?: readonly string[];
  defaults: AckPolicy;
}

/** Reads an envelope's ack policy; `undefined` when it needs no ack. */
export type AckPolicyReader = (envelope: unknown, kind: string) => AckPolicy | undefined;

const positiveInt = (raw: unknown, fallback: number) =>
  typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 ? raw : fallback;

/**
 * Compiles an ack declaration into a reader (once per system).
 *
 * @example
 * const ackOf = compileAckPolicy({ required: 'acknowledgment.required', timeoutMs: 'acknowledgment.timeout_ms',
 *   retries: 'acknowledgment.retry_count', requiredForKinds: ['request'], defaults: { timeoutMs: 30_000, retries: 3 } });
 * ackOf(envelope, 'request'); // { timeoutMs: 30000, retries: 3 }
 */
export function compileAckPolicy(declaration: AckDeclaration): AckPolicyReader {
  const required = declaration.required === undefined ? () => undefined : compilePath(declaration.required);
  const timeoutMs = declaration.timeoutMs === undefined ? () => undefined : compilePath(declaration.timeoutMs);
  const retries = declaration.retries === undefined ? () => undefined : compilePath(declaration.retries);
  const always = new Set(declaration.requiredForKinds ?? []);
  const { defaults } = declaration;
  return (envelope, kind) => {
    if (required(envelope) !== true && !always.has(kind)) return undefined;
    return {
      timeoutMs: positiveInt(timeoutMs(envelope), defaults.timeoutMs),
      retries: positiveInt(retries(envelope), defaults.retries),
    };
  };
}
