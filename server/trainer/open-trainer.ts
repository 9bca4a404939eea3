import { join } from 'node:path';
import type { Hono } from 'hono';
import type { InspectionEvent } from 'xstate';
import { openFileJournal } from '../../actors/runtime/file-journal.ts';
import type { Store } from '../../actors/runtime/store.ts';
import { createDataSources } from '../../actors/trainer/user-data/data-sources.ts';
import { createEventStore } from '../../actors/trainer/events/event-store.ts';
import { createConsoleLog } from '../../actors/trainer/loop/console-log.ts';
import { createModelProvider } from '../../actors/models/create-model-provider.ts';
import type { ModelProvider } from '../../actors/models/model-provider.ts';
import { createKnowledgeSelector } from '../../actors/trainer/initializer/initializer.ts';
import { createContextInitializer } from '../../actors/trainer/initializer/trainer-context-initializer.ts';
import type { ContextInitializer } from '../../actors/trainer/initializer/trainer-initializer-brain.ts';
import { createUserDataStore } from '../../actors/trainer/user-data/user-data-store.ts';
import { WorkoutState } from '../../actors/trainer/workout-state.ts';
import type { AgentLoopInput } from '../../machines/trainer/agent-loop-context.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { StoredSessionEvent } from '../../protocol/trainer/session-event.ts';
import type { Config } from '../config.ts';
import type { Clock } from '../nutrition/live-run.ts';
import { agentRoutes } from './agent-routes.ts';
import { userRoutes } from './user-routes.ts';
import { TrainerService } from './trainer-service.ts';

/** What tests and benchmarks may swap in the trainer. */
export interface TrainerOverrides {
  clock?: Clock;
  /** The trainer's model; by default Claude when `ANTHROPIC_API_KEY` is set, else offline. */
  model?: ModelProvider;
  /** The initializer; by default OpenAI when `OPENAI_API_KEY` is set, else the deterministic selector. */
  initializer?: ContextInitializer;
  loop?: Omit<AgentLoopInput, 'name'>;
  /** The §11.3 console log; on by default, `false` silences it. */
  consoleLog?: boolean;
  inspect?: (sessionId: string, event: InspectionEvent) => void;
}

/**
 * Opens the personal-trainer system (spec 001) on the runtime's store: session events in the
 * journal under `journal/sessions` (one partition per session), each turn's envelopes under
 * `journal/trainer`, and the `/agent` and `/users` routes over them.
 */
export async function openTrainer(config: Config, store: Store, overrides: TrainerOverrides = {}) {
  const eventJournal = await openFileJournal<StoredSessionEvent>(join(config.dataDir, 'journal', 'sessions'));
  const routingJournal = await openFileJournal<RoutedRecord>(join(config.dataDir, 'journal', 'trainer'));
  const events = createEventStore({ store, journal: eventJournal });
  const userData = createUserDataStore(store);
  const dataSources = createDataSources({ userData });
  const log = overrides.consoleLog === false ? undefined : createConsoleLog();
  const initializer =
    overrides.initializer ??
    createContextInitializer({
      selector: createKnowledgeSelector({ openaiApiKey: config.openaiApiKey, openaiBaseUrl: config.openaiBaseUrl }),
      dataSources,
      events,
      ...(log ? { log } : {}),
    });
  const trainer = new TrainerService({
    store,
    events,
    userData,
    dataSources,
    workouts: new WorkoutState(),
    model: overrides.model ?? createModelProvider({ anthropicApiKey: config.anthropicApiKey, anthropicBaseUrl: config.anthropicBaseUrl }),
    initializer,
    journal: routingJournal,
    primaryModel: config.primaryModel,
    ...(overrides.clock ? { clock: overrides.clock } : {}),
    ...(overrides.loop ? { loop: overrides.loop } : {}),
    ...(log ? { log } : {}),
    ...(overrides.inspect ? { inspect: overrides.inspect } : {}),
  });
  const routes: Record<string, Hono<any>> = { '/agent': agentRoutes(trainer, events), '/users': userRoutes(userData) };
  return {
    trainer,
    events,
    userData,
    routes,
    async close() {
      await trainer.close();
      await routingJournal.close();
      await eventJournal.close();
    },
  };
}

export type OpenTrainer = Awaited<ReturnType<typeof openTrainer>>;
