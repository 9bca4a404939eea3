import { compileAckPolicy, type AckDeclaration, type AckPolicyReader } from './ack-policy.ts';
import { compilePath, type PathReader } from './envelope-path.ts';
import type { ErrorIssue } from './http-error.ts';
import { priorityMapper, type PriorityScale, type RuntimePriority } from './priority-scale.ts';

/**
 * How an envelope's kind is read: a dotted path to it (`data_type`, `header.message_type`); the
 * first of several fields that is present (spec 002 tells its payloads apart only by their fields:
 * `{ whenPresent: [{ path: 'payload.target_message_id', kind: 'cancellation' }, ...] }`); or, where
 * data cannot say it, a function.
 */
export type KindDeclaration =
  | string
  | { readonly whenPresent: readonly { readonly path: string; readonly kind: string }[] }
  | ((envelope: unknown) => string | undefined);

/**
 * Where a system's own envelope keeps what the supervisor routes by, as dotted paths
 * (`header.message_id`, `context.related_messages[0]`): the supervisor routes, validates and
 * journals each spec's envelope verbatim and reads it only through this declaration.
 */
export interface EnvelopeAddressing {
  /** The message id: deduplication, journal, request ids. A non-empty string. */
  readonly id: string;
  /** The sending agent's name. */
  readonly sender: string;
  /** The receiving agent: a name, an array of names (each edge checked), or the `broadcast` value. */
  readonly receivers: string;
  /** The receivers value that means every agent but the sender (spec 003's `"broadcast"`); its edge is `from -> <value> : kind`. */
  readonly broadcast?: string;
  /** The kind the routing table names (a route's `data_type`). */
  readonly kind: KindDeclaration;
  /** The message id this one answers or follows (`null` reads as none): a response closes that open request. */
  readonly correlation?: string;
  /** The priority and how it maps onto the runtime's 0 (critical) .. 4 (backlog). */
  readonly priority?: { readonly path: string; readonly scale: PriorityScale };
  /** When the envelope expires: ISO 8601 text or milliseconds since the epoch. Past it, it is not delivered. */
  readonly expiry?: string;
  /** Whether and how the envelope must be acknowledged by its receiver (spec 004). */
  readonly ack?: AckDeclaration;
}

/** Spec 000's envelope (and 001's): `message_id / from_agent / to_agent / data_type`. Every system's default. */
export const DEFAULT_ADDRESSING: EnvelopeAddressing = Object.freeze({
  id: 'message_id',
  sender: 'from_agent',
  receivers: 'to_agent',
  kind: 'data_type',
});

/** The address of one envelope, read into an object the caller owns (the hot path reuses one). */
export interface Address {
  id: string;
  sender: string;
  receivers: string | readonly string[];
  kind: string;
  correlation: string | undefined;
  /** Milliseconds since the epoch; `undefined` when the envelope does not expire. */
  expiresAt: number | undefined;
}

/** A compiled addressing: readers built once per system from its declaration. */
export interface Addressing {
  readonly declaration: EnvelopeAddressing;
  readonly broadcast: string | undefined;
  /** Whether envelopes may expire (the supervisor skips the clock otherwise). */
  readonly expires: boolean;
  /** The id, if it is a non-empty string (safe on anything). */
  idOf(envelope: unknown): string | undefined;
  /** Whether the id field is there at all, of whatever type (an agent's output that is an envelope). */
  hasId(envelope: unknown): boolean;
  /** The sender, if it is a string (safe on anything: a refusal goes back to it). */
  senderOf(envelope: unknown): string | undefined;
  /** The receivers as they are written (safe on anything). */
  receiversOf(envelope: unknown): unknown;
  kindOf(envelope: unknown): string | undefined;
  correlationOf(envelope: unknown): string | undefined;
  /** The priority on the runtime's scale; `undefined` when not declared or unreadable. */
  priorityOf(envelope: unknown): RuntimePriority | undefined;
  expiresAtOf(envelope: unknown): number | undefined;
  /** The envelope's ack policy; `undefined` when it needs none (or the system declares no acks). */
  ackPolicyOf(envelope: unknown): ReturnType<AckPolicyReader>;
  /** Reads every routed field into `into`; returns the issue naming the field when one is missing or of the wrong type. */
  read(envelope: unknown, into: Address): ErrorIssue | undefined;
}

const none = () => undefined;
const asString = (value: unknown) => (typeof value === 'string' ? value : undefined);
const nonEmpty = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function compileKind(kind: KindDeclaration): (envelope: unknown) => string | undefined {
  if (typeof kind === 'function') return kind;
  if (typeof kind === 'string') {
    const read = compilePath(kind);
    return (e) => nonEmpty(read(e));
  }
  const cases = kind.whenPresent.map(({ path, kind: name }) => ({ read: compilePath(path), name }));
  return (e) => {
    for (const { read, name } of cases) if (read(e) !== undefined && read(e) !== null) return name;
    return undefined;
  };
}

function toMs(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  return typeof value === 'string' ? Date.parse(value) : undefined;
}

const receiversIssue = (path: string): ErrorIssue => ({
  path,
  message: 'Expected the receiving agent: a name or a non-empty array of names.',
});

function compile(declaration: EnvelopeAddressing): Addressing {
  const readId = compilePath(declaration.id);
  const readSender = compilePath(declaration.sender);
  const readReceivers: PathReader = compilePath(declaration.receivers);
  const kindOf = compileKind(declaration.kind);
  const readCorrelation = declaration.correlation === undefined ? none : compilePath(declaration.correlation);
  const readExpiry = declaration.expiry === undefined ? none : compilePath(declaration.expiry);
  const readPriority = declaration.priority === undefined ? none : compilePath(declaration.priority.path);
  const toPriority = declaration.priority === undefined ? none : priorityMapper(declaration.priority.scale);
  const ackOf = declaration.ack === undefined ? undefined : compileAckPolicy(declaration.ack);
  const kindPath = typeof declaration.kind === 'string' ? declaration.kind : 'kind';
  const expires = declaration.expiry !== undefined;
  const idOf = (e: unknown) => nonEmpty(readId(e));
  const senderOf = (e: unknown) => asString(readSender(e));
  const expiresAtOf = (e: unknown) => toMs(readExpiry(e));
  return {
    declaration,
    broadcast: declaration.broadcast,
    expires,
    idOf,
    hasId: (e) => readId(e) !== undefined,
    senderOf,
    receiversOf: readReceivers,
    kindOf,
    correlationOf: (e) => asString(readCorrelation(e)),
    priorityOf: (e) => toPriority(readPriority(e)),
    expiresAtOf,
    ackPolicyOf: ackOf ? (e) => ackOf(e, kindOf(e) ?? '') : none,
    read(envelope, into) {
      const id = idOf(envelope);
      if (id === undefined) return { path: declaration.id, message: 'Expected the message id: a non-empty string.' };
      const sender = nonEmpty(readSender(envelope));
      if (sender === undefined)
        return { path: declaration.sender, message: "Expected the sending agent's name: a non-empty string." };
      const receivers = readReceivers(envelope);
      if (typeof receivers !== 'string') {
        if (!Array.isArray(receivers) || receivers.length === 0 || !receivers.every((r) => typeof r === 'string'))
          return receiversIssue(declaration.receivers);
      } else if (receivers === '') return receiversIssue(declaration.receivers);
      const kind = kindOf(envelope);
      if (kind === undefined)
        return { path: kindPath, message: 'Expected the kind of the envelope the routing table names.' };
      into.id = id;
      into.sender = sender;
      into.receivers = receivers as string | readonly string[];
      into.kind = kind;
      into.correlation = asString(readCorrelation(envelope));
      into.expiresAt = undefined;
      if (expires) {
        const raw = readExpiry(envelope);
        if (raw !== undefined && raw !== null) {
          const at = toMs(raw);
          if (at === undefined || Number.isNaN(at))
            return { path: declaration.expiry!, message: 'Expected an expiry time: ISO 8601 text or milliseconds.' };
          into.expiresAt = at;
        }
      }
      return undefined;
    },
  };
}

const compiled = new WeakMap<EnvelopeAddressing, Addressing>();

/**
 * The compiled readers of an addressing declaration, built once per declaration and shared.
 *
 * @example
 * const address = addressingOf({ id: 'header.message_id', sender: 'header.source_agent',
 *   receivers: 'header.target_agent', broadcast: 'broadcast', kind: 'header.message_type' });
 * address.idOf(message); // message.header.message_id
 */
export function addressingOf(declaration: EnvelopeAddressing = DEFAULT_ADDRESSING): Addressing {
  let addressing = compiled.get(declaration);
  if (!addressing) compiled.set(declaration, (addressing = compile(declaration)));
  return addressing;
}
