import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import { openSharedState } from '../../actors/runtime/shared-state/open-shared-state.ts';
import { createIdempotentHandler, type IdempotentHandler } from '../../machines/runtime/idempotent-handler.ts';
import { DEDUP_ROLE, SEEN_MESSAGES_PREFIX, SEEN_MESSAGES_SCHEMA } from '../../protocol/tiers/beads.ts';

type Work = () => Promise<unknown>;

/**
 * The runtime's dedup service for the tiers (spec 002 "Idempotency & Deduplication"): each
 * receiver's answer to a message id is cached at `system/seen-messages/{receiver}/{id}` for an
 * hour from its first receipt, in shared state of its own (`SEEN_MESSAGES_SCHEMA`: written by the
 * `DEDUP` role, outside the Beads permission table), so a duplicate is answered from the cache
 * without running again, also after a restart.
 */
export class SeenMessages {
  private readonly state;
  private readonly handlers = new Map<string, IdempotentHandler<Work, unknown>>();

  constructor(
    journal: Journal<unknown>,
    private readonly clock: ServiceClock,
    /** How long an answer is kept from its first receipt (an hour). */
    private readonly ttlMs?: number,
  ) {
    this.state = openSharedState({ journal, schema: SEEN_MESSAGES_SCHEMA, scopes: { seen: 'tiers' }, clock });
  }

  /** Runs `work` once for (`receiver`, `id`) and answers duplicates with its cached answer. */
  once(receiver: string, id: string, work: Work): Promise<unknown> {
    let handler = this.handlers.get(receiver);
    if (!handler) {
      handler = createIdempotentHandler<Work, unknown>({
        cache: this.state,
        role: DEDUP_ROLE,
        keyPrefix: SEEN_MESSAGES_PREFIX,
        scope: receiver,
        handle: (run) => run(),
        isTerminal: () => true,
        clock: this.clock,
        ...(this.ttlMs === undefined ? {} : { ttlMs: this.ttlMs }),
      });
      this.handlers.set(receiver, handler);
    }
    return handler.handle(id, work);
  }

  /** The cached answer of (`receiver`, `id`), if it was handled within the hour. */
  async answered(receiver: string, id: string): Promise<{ value: unknown } | undefined> {
    return this.state.get(`${SEEN_MESSAGES_PREFIX}/${receiver}/${id}`);
  }

  close(): Promise<void> {
    return this.state.close();
  }
}
