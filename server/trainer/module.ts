import type { InspectionEvent } from 'xstate';
import type { ModelProvider } from '../../actors/models/model-provider.ts';
import { createEventStore } from '../../actors/trainer/events/event-store.ts';
import { knowledgeSelectorFor } from '../../actors/trainer/initializer/initializer.ts';
import { createContextInitializer } from '../../actors/trainer/initializer/trainer-context-initializer.ts';
import type { ContextInitializer } from '../../actors/trainer/initializer/trainer-initializer-brain.ts';
import { createConsoleLog } from '../../actors/trainer/loop/console-log.ts';
import { trainerModelFor } from '../../actors/trainer/loop/trainer-model-for.ts';
import { createDataSources } from '../../actors/trainer/user-data/data-sources.ts';
import { createUserDataStore } from '../../actors/trainer/user-data/user-data-store.ts';
import { WorkoutState } from '../../actors/trainer/workout-state.ts';
import type { AgentLoopInput } from '../../machines/trainer/agent-loop-context.ts';
import { agentLoopMachine } from '../../machines/trainer/agent-loop.ts';
import { MACHINES } from '../../machines/trainer/machines.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { StoredSessionEvent } from '../../protocol/trainer/session-event.ts';
import { defineSystemModule, type OpenSystem } from '../system-module.ts';
import { inspectedRunSource } from '../viz/inspected-run-source.ts';
import type { RunInspectors } from '../viz/run-sources.ts';
import { trainerA2a } from './a2a-mapping.ts';
import { agentRoutes } from './agent-routes.ts';
import { TrainerService } from './trainer-service.ts';
import { userRoutes } from './user-routes.ts';
import { TRAINER_ROUTE_DOCS } from './trainer-route-docs.ts';

/** A microstep of the agent loop (what the live view and its recent transitions read; the supervisor's and the initializer's are not drawn). */
const isLoopMicrostep = (event: InspectionEvent) =>
  event.type === '@xstate.microstep' && event._transitions[0]?.source.machine.id === agentLoopMachine.id;

/** What tests and benchmarks may swap in the trainer. */
interface TrainerOptions {
  /** The trainer's model; by default Claude when `ANTHROPIC_API_KEY` is set, else offline. */
  model?: ModelProvider;
  /** The initializer; by default OpenAI when `OPENAI_API_KEY` is set, else the deterministic selector. */
  initializer?: ContextInitializer;
  loop?: Omit<AgentLoopInput, 'name'>;
  /** The §11.3 console log; on by default, `false` silences it. */
  consoleLog?: boolean;
}

/** The trainer once open: its routes, and its service for tests that wait for turns. */
export interface OpenTrainer extends OpenSystem {
  service: TrainerService;
}

/**
 * The personal-trainer system (spec 001): session events in the journal `sessions` (one
 * partition per session), each turn's envelopes in the journal `trainer` (a turn is the
 * session's run on the run host while it works), the `/agent` and `/users` routes, and the
 * `agentLoop` machine's live view by session id.
 */
export default defineSystemModule<TrainerOptions>({
  name: 'trainer',
  title: 'Personal trainer',
  spec: '001_d6c5daa9ebfdeeaa.txt',
  configKeys: [
    { name: 'ANTHROPIC_API_KEY', meaning: 'the trainer loop asks Claude (PRIMARY_MODEL, or the model a chat names)' },
    { name: 'OPENAI_API_KEY', meaning: "the initializer asks OpenAI's GPT-4o-mini for the knowledge to load" },
  ],
  machines: MACHINES,
  routeDocs: TRAINER_ROUTE_DOCS,
  async open(services, options = {}): Promise<OpenTrainer> {
    const { config, store } = services;
    const events = createEventStore({ store, journal: await services.journal<StoredSessionEvent>('sessions') });
    const userData = createUserDataStore(store);
    const dataSources = createDataSources({ userData });
    const log = options.consoleLog === false ? undefined : createConsoleLog();
    const initializer =
      options.initializer ??
      createContextInitializer({
        selector: knowledgeSelectorFor(services.models),
        dataSources,
        events,
        ...(log ? { log } : {}),
      });
    // The agent loop's microsteps of every turn, by session id (the live view of the agent loop).
    const inspectors: RunInspectors = new Set();
    const service = new TrainerService({
      store,
      events,
      userData,
      dataSources,
      workouts: new WorkoutState(),
      model: options.model ?? trainerModelFor(services.models),
      initializer,
      journal: await services.journal<RoutedRecord>('trainer'),
      primaryModel: config.primaryModel,
      ...(config.admission ? { admission: config.admission } : {}),
      ...(services.clock ? { clock: services.clock } : {}),
      ...(options.loop ? { loop: options.loop } : {}),
      ...(log ? { log } : {}),
      // Only what the live view draws goes on: the loop's microsteps (about 15 of a turn's 200 events).
      inspect: (sessionId: string, event: InspectionEvent) => {
        if (isLoopMicrostep(event)) for (const inspector of inspectors) inspector(sessionId, event);
      },
    });
    return {
      service,
      routes: { '/agent': agentRoutes(service, events), '/users': userRoutes(userData) },
      runSources: [
        inspectedRunSource({
          machine: agentLoopMachine,
          inspectors,
          owns: async (userId, sessionId) => (await events.getSession(userId, sessionId)) !== undefined,
        }),
      ],
      a2a: trainerA2a(service),
      close: async () => {
        try {
          await service.close();
        } finally {
          // Events not yet written (they wait at most their linger) go now, before the journal closes.
          await events.close();
        }
      },
    };
  },
});
