import { AsyncLocalStorage } from 'node:async_hooks';
import { derivedUuid } from '../../actors/runtime/derived-id.ts';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';

/** The message a tier works on: the tier that received it, and its id. */
export interface TierWork {
  receiver: string;
  message: string;
}

/** One tier's work on one message, with how many calls of each kind it made so far. */
interface Scope extends TierWork {
  made: Map<string, number>;
}

const current = new AsyncLocalStorage<Scope>();

/**
 * Runs `work` (a tier's handling of one message) in its scope, so the brain and sandbox calls
 * it makes, however deep, can name the message they serve (`tierCallKey`).
 *
 * @example
 * await inTierWork({ receiver: 'ABSTRACT_ARCHITECT', message: envelope.id }, () => handler(input, ctx));
 */
export function inTierWork<T>(work: TierWork, run: () => Promise<T>): Promise<T> {
  return current.run({ ...work, made: new Map() }, run);
}

/**
 * The idempotency key of a `kind` call (`architect`, `sandbox.runTests`, ...) made in the current
 * tier work: derived from the message, the receiver, the kind and how many calls of that kind
 * this work made before. A message worked on again (its task rebuilt in the next handler of its
 * Restate object, or after a restart) makes its calls in the same order, so each asks under its
 * first key and gets the first answer, even where its input moved meanwhile (the Dispatcher's
 * view of the fleet's load): a call is made once per place in the work, as Restate replays do.
 * A retried delegation is a new message, so its calls are new.
 *
 * @example
 * const key = tierCallKey('architect'); // `${message}/${uuid}`: the tiers-run call's idempotency key
 */
export function tierCallKey(kind: string): string {
  const scope = current.getStore();
  if (!scope)
    throw new RuntimeError(
      'tier_call_outside_work',
      `A ${kind} call of the tiers on Restate was made outside a tier's work on a message: make it from a tier handler (TaskDirectory.once wraps each in inTierWork), so its idempotency key can name the message.`,
    );
  const n = (scope.made.get(kind) ?? 0) + 1;
  scope.made.set(kind, n);
  return `${scope.message}/${derivedUuid(scope.receiver, kind, n)}`;
}
