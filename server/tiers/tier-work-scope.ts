import { AsyncLocalStorage } from 'node:async_hooks';
import { derivedUuid } from '../../actors/runtime/derived-id.ts';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';

/** The message a tier works on: its task (journal partition), the tier that received it, its id. */
export interface TierWork {
  task: string;
  receiver: string;
  message: string;
}

/** One tier's work on one message, with how often each call was made in it so far. */
interface Scope extends TierWork {
  made: Map<string, number>;
}

const current = new AsyncLocalStorage<Scope>();

/**
 * Runs `work` (a tier's handling of one message) in its scope, so the brain and sandbox calls
 * it makes, however deep, can name the message they serve (`tierCallKey`).
 *
 * @example
 * await inTierWork({ task, receiver: 'ABSTRACT_ARCHITECT', message: envelope.id }, () => handler(input, ctx));
 */
export function inTierWork<T>(work: TierWork, run: () => Promise<T>): Promise<T> {
  return current.run({ ...work, made: new Map() }, run);
}

/** A call's key when it is made within a tier's work on a message (`inTierWork`). */
export interface TierCallKey {
  /** The task: the `tiers-run` object the call goes to. */
  task: string;
  /** The call's idempotency key: the same for the same call made again when the message is worked on again. */
  key: string;
}

/**
 * The key of a `kind` call (`architect`, `sandbox.runTests`, ...) with `input`, made in the
 * current tier work: derived from the task, the receiver, the message, the kind, the input and
 * how many equal calls this work made before. A message worked on again (after a restart of the
 * API process) makes the same calls under the same keys, so Restate answers them from its
 * journal; a retried delegation is a new message, so its calls are new.
 *
 * @example
 * const { task, key } = tierCallKey('architect', input); // post to tiers-run/<task>/call, idempotency-key: key
 */
export function tierCallKey(kind: string, input: unknown): TierCallKey {
  const scope = current.getStore();
  if (!scope)
    throw new RuntimeError(
      'tier_call_outside_work',
      `A ${kind} call of the tiers on Restate was made outside a tier's work on a message: make it from a tier handler (TaskDirectory.once wraps each in inTierWork), so its idempotency key can name the message.`,
    );
  const content = derivedUuid(kind, JSON.stringify(input) ?? 'undefined');
  const n = (scope.made.get(content) ?? 0) + 1;
  scope.made.set(content, n);
  return { task: scope.task, key: `${scope.message}/${derivedUuid(scope.receiver, content, n)}` };
}
