import type { DataSourceRegistry } from '../user-data/data-sources.ts';
import type { EventStore } from '../events/event-store.ts';
import { initializeContext, type KnowledgeSelector } from './initializer.ts';
import type { LoopDeps } from '../loop/loop-deps.ts';
import type { ContextInitializer } from './trainer-initializer-brain.ts';

interface ContextInitializerOptions {
  /** GPT-4o-mini, or the deterministic §5.5 rules (initializer.ts `knowledgeSelectorFor`). */
  selector: KnowledgeSelector;
  dataSources: DataSourceRegistry;
  events: Pick<EventStore, 'listContextEvents' | 'recordEvents'>;
  log?: LoopDeps['log'];
}

/**
 * The initializer the INITIALIZER worker runs (spec 001 §5.2): it selects from the session's
 * context events so far, held in memory (what knowledge is already loaded, §5.4), appends each fetched source as a
 * `knowledge` event in selection order and each failure as an `error` event, and answers the
 * sources it loaded. A failed selection is logged, not thrown: the agent runs anyway (§12.3).
 */
export function createContextInitializer(options: ContextInitializerOptions): ContextInitializer {
  const { selector, dataSources, events, log } = options;
  return {
    async initialize({ sessionId, userId, message, signal }) {
      // What the model sees: the context events after the session's checkpoint, held in memory.
      const context = await events.listContextEvents(sessionId);
      const init = await initializeContext({
        selector,
        dataSources,
        userId,
        userMessage: message,
        events: context,
        ...(signal ? { signal } : {}),
      });
      // In selection order, in one journal write (the user's message was appended before).
      await events.recordEvents(sessionId, [
        ...init.knowledge.map(({ source, data }) => ({ type: 'knowledge' as const, data: { source, data } })),
        ...init.errors.map((error) => ({ type: 'error' as const, data: error })),
      ]);
      for (const { source, data } of init.knowledge)
        log?.(sessionId, { kind: 'knowledge', source, chars: data.length });
      for (const error of init.errors)
        log?.(sessionId, { kind: 'error', message: error.message, context: error.context });
      return {
        sources: init.knowledge.map(({ source, displayName }) => ({ source, displayName })),
        reasoning: init.reasoning,
      };
    },
  };
}
