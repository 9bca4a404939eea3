import type { ServerCallContext } from '@a2a-js/sdk/server';

const signals = new WeakMap<ServerCallContext, AbortSignal>();

/**
 * The abort signal of a call's HTTP exchange (the client went away), for a stream that waits on a
 * run: the SDK's call context has no signal, so the route ties one to it here.
 *
 * @example
 * tieSignal(context, controller.signal); // in the route
 * signalOf(context)?.aborted;             // in the handler
 */
export function tieSignal(context: ServerCallContext, signal: AbortSignal): void {
  signals.set(context, signal);
}

/** The signal the route tied to `context`, if any. */
export function signalOf(context: ServerCallContext): AbortSignal | undefined {
  return signals.get(context);
}
