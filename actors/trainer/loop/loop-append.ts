import type { EventDataInputMap, EventType } from '../../../protocol/trainer/event-data.ts';
import type { EventStore } from '../events/event-store.ts';

/** One event to append. */
export type PendingEvent = {
  [K in EventType]: { type: K; data: EventDataInputMap[K]; durationMs?: number };
}[EventType];

/**
 * Appends several events of a session in the given order with one journal write (the journal
 * commits appends issued in the same tick together). The order holds because each `appendEvent`
 * reaches the journal, which numbers entries when `append` is called, after the same single await
 * on the session's cached owner: call this only after an earlier append of the same session in
 * this process (the user's message always comes first), so that the owner is cached.
 */
export async function appendInOrder(
  events: Pick<EventStore, 'appendEvent'>,
  sessionId: string,
  pending: readonly PendingEvent[],
): Promise<void> {
  await Promise.all(
    pending.map((event) =>
      event.durationMs === undefined
        ? events.appendEvent(sessionId, event.type, event.data as never)
        : events.appendEvent(sessionId, event.type, event.data as never, event.durationMs),
    ),
  );
}
