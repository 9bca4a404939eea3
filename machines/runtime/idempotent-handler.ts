import { realClock, type ServiceClock } from '../../actors/runtime/clock.ts';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';

/**
 * The part of shared state the handler needs: read a key, write a key that must be absent
 * (`expectedVersion: 0`) with a TTL. The runtime's `SharedState` (`actors/runtime/shared-state/`)
 * is one.
 */
export interface ResponseCache {
  get(key: string): Promise<{ value?: unknown } | undefined>;
  write(
    role: string,
    writes: { key: string; value?: unknown; expectedVersion?: number; ttlMs?: number }[],
  ): Promise<{ ok: boolean }>;
}

/** Options of {@link createIdempotentHandler}. */
export interface IdempotentHandlerOptions<Req, Res> {
  /** Where responses are cached; it must survive a restart for duplicates to be caught across one. */
  cache: ResponseCache;
  /** The role that writes the cache (it needs write access to the key's namespace). */
  role: string;
  /** The receiver whose requests these are: keys are `{keyPrefix}/{scope}/{id}`. */
  scope: string;
  /** Does the work; runs once per request id while its terminal response is cached. */
  handle: (request: Req, id: string) => Promise<Res>;
  /** Only terminal responses are cached (DESIGN "Dedup"): a `throttled` answer is not. */
  isTerminal: (response: Res) => boolean;
  /** How long a response answers duplicates, from the request's first receipt (1 h, spec 002). */
  ttlMs?: number;
  /** Where in the cache responses live, a key prefix the system chooses (spec 002: `system/seen-messages`). */
  keyPrefix: string;
  clock?: ServiceClock;
}

/** Handles requests by id, once each; see {@link createIdempotentHandler}. */
export interface IdempotentHandler<Req, Res> {
  /** The response to request `id`: cached, awaited from the same request in flight, or computed now. */
  handle(id: string, request: Req): Promise<Res>;
  /** The cache key of request `id`. */
  keyOf(id: string): string;
  /** Requests being worked on now. */
  readonly inFlight: number;
}

/** The response was computed but could not be cached, so a duplicate would run the work again. */
export class ResponseNotCachedError extends RuntimeError {
  override name = 'ResponseNotCachedError';
  constructor(key: string, reason: unknown) {
    super(
      'response_not_cached',
      `The response to ${key} could not be stored (${String(reason)}), so it was not acknowledged: check the shared state's journal, then send the request again.`,
      503,
    );
  }
}

/**
 * Idempotent handling of requests by message id (spec 002, "Idempotency & Deduplication"): a
 * duplicate of a finished request gets the cached response without running `handle` again; a
 * duplicate of a request still in flight waits for the same result; only terminal responses
 * are cached, with a TTL counted from the first receipt, in shared state (so duplicates are
 * caught across a restart). A response is returned only once it is cached.
 *
 * @example
 * const handler = createIdempotentHandler({
 *   cache: sharedState, role: 'MONITOR', keyPrefix: 'system/seen-messages', scope: 'ROUTING_DISPATCHER',
 *   handle: (envelope) => dispatch(envelope), isTerminal: (outcome) => outcome.status !== 'throttled',
 * });
 * const outcome = await handler.handle(envelope.id, envelope);
 */
export function createIdempotentHandler<Req, Res>(
  options: IdempotentHandlerOptions<Req, Res>,
): IdempotentHandler<Req, Res> {
  const { cache, role, keyPrefix, scope, handle, isTerminal, clock = realClock } = options;
  const ttlMs = options.ttlMs ?? 3_600_000;
  const inFlight = new Map<string, Promise<Res>>();
  const keyOf = (id: string): string => `${keyPrefix}/${scope}/${id}`;

  const run = async (id: string, request: Req, receivedAt: number): Promise<Res> => {
    const key = keyOf(id);
    const cached = await cache.get(key);
    if (cached) return cached.value as Res;
    const response = await handle(request, id);
    if (!isTerminal(response)) return response;
    let stored: { ok: boolean };
    try {
      const ttlLeft = Math.max(1, ttlMs - (clock.now() - receivedAt));
      stored = await cache.write(role, [{ key, value: response, expectedVersion: 0, ttlMs: ttlLeft }]);
    } catch (error) {
      throw new ResponseNotCachedError(key, error);
    }
    if (!stored.ok) {
      // Another handler of the same cache answered first: its response is the one (same id, same outcome).
      const winner = await cache.get(key);
      if (!winner) throw new ResponseNotCachedError(key, 'the write was refused and no response is cached');
      return winner.value as Res;
    }
    return response;
  };

  return {
    handle(id, request) {
      const pending = inFlight.get(id);
      if (pending) return pending;
      const result = run(id, request, clock.now()).finally(() => inFlight.delete(id));
      inFlight.set(id, result);
      return result;
    },
    keyOf,
    get inFlight() {
      return inFlight.size;
    },
  };
}
