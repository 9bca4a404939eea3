import type { OpenResearch } from '../../machines/coscientist/open-research.ts';

/** What a goal's stream hears. */
export type ResearchEvent =
  | { event: 'state'; data: { state: string; iteration: number; question?: string } }
  | { event: 'task'; data: { task_id: string; type: string } }
  | { event: 'match'; data: Record<string, unknown> }
  | { event: 'memory'; data: { entry_type: string; entry_id: string; version: number; partial?: boolean } };

/**
 * The goals' event hub, by goal id: a stream watches a goal whether it is in memory or resting
 * (a goal woken later emits to the same listeners).
 *
 * @example
 * const stop = events.watch(researchId, (event) => console.log(event.event));
 */
export class ResearchEvents {
  readonly #listeners = new Map<string, Set<(event: ResearchEvent) => void>>();

  /** Hears the goal's events until the returned function is called. */
  watch(id: string, listener: (event: ResearchEvent) => void): () => void {
    let set = this.#listeners.get(id);
    if (!set) this.#listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(id) === set) this.#listeners.delete(id);
    };
  }

  emit(id: string, event: ResearchEvent): void {
    for (const listener of this.#listeners.get(id) ?? []) listener(event);
  }
}

/** Feeds the hub with an open goal's task changes and durable memory changes (matches too). */
export function emitResearchEvents(events: ResearchEvents, research: OpenResearch): void {
  const id = research.researchId;
  research.queue.subscribe((event) =>
    events.emit(id, { event: 'task', data: { task_id: event.taskId, type: event.type } }),
  );
  research.memory.state.watch('', (change) => {
    const [type, ...rest] = change.key.split('/');
    if (type === 'supervisor' || change.deleted) return;
    const value = change.value as { partial?: boolean; content?: Record<string, unknown> };
    events.emit(id, {
      event: 'memory',
      data: {
        entry_type: type!,
        entry_id: rest.join('/'),
        version: change.version,
        ...(value.partial ? { partial: true } : {}),
      },
    });
    if (type === 'match' && value.content) events.emit(id, { event: 'match', data: value.content });
  });
}
