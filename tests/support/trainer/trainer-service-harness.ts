import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import { createMemoryStore } from '../../../actors/runtime/memory-store.ts';
import { createDataSources } from '../../../actors/trainer/user-data/data-sources.ts';
import { createEventStore } from '../../../actors/trainer/events/event-store.ts';
import type { ModelProvider } from '../../../actors/models/model-provider.ts';
import { createOfflineProvider } from '../../../actors/trainer/offline-model/offline-provider.ts';
import { createRuleSelector } from '../../../actors/trainer/initializer/initializer-rules.ts';
import { createContextInitializer } from '../../../actors/trainer/initializer/trainer-context-initializer.ts';
import { createUserDataStore } from '../../../actors/trainer/user-data/user-data-store.ts';
import { WorkoutState } from '../../../actors/trainer/workout-state.ts';
import type { RoutedRecord } from '../../../protocol/runtime/routing.ts';
import type { StoredSessionEvent } from '../../../protocol/trainer/session-event.ts';
import { TrainerService, type TrainerServiceOptions } from '../../../server/trainer/trainer-service.ts';

/**
 * The trainer service on memory stores and journals (no files, no network): the offline model
 * and the rule initializer unless told otherwise.
 */
export function createTestTrainer(options: { model?: ModelProvider; loop?: TrainerServiceOptions['loop'] } = {}) {
  const store = createMemoryStore();
  const events = createEventStore({ store, journal: createMemoryJournal<StoredSessionEvent>() });
  const userData = createUserDataStore(store);
  const dataSources = createDataSources({ userData });
  const journal = createMemoryJournal<RoutedRecord>();
  const trainer = new TrainerService({
    store,
    events,
    userData,
    dataSources,
    workouts: new WorkoutState(),
    model: options.model ?? createOfflineProvider(),
    initializer: createContextInitializer({ selector: createRuleSelector(), dataSources, events }),
    journal,
    primaryModel: 'claude-haiku-4-5',
    ...(options.loop ? { loop: options.loop } : {}),
  });
  return { trainer, store, events, userData, journal };
}
