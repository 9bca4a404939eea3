import { randomUUID } from 'node:crypto';
import type { InspectionEvent } from 'xstate';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { Store } from '../../actors/runtime/store.ts';
import { createContextBuilder } from '../../actors/trainer/context/context-builder.ts';
import type { DataSourceRegistry } from '../../actors/trainer/user-data/data-sources.ts';
import type { EventStore } from '../../actors/trainer/events/event-store.ts';
import { createCallModelLogic } from '../../actors/trainer/loop/loop-call-model.ts';
import type { LoopDeps } from '../../actors/trainer/loop/loop-deps.ts';
import { createFinishTurnLogic } from '../../actors/trainer/loop/loop-finish-turn.ts';
import { createLogErrorLogic } from '../../actors/trainer/loop/loop-log-error.ts';
import { createRecordTurnLogic } from '../../actors/trainer/loop/loop-record-turn.ts';
import { createRecordToolTimeoutLogic, createRunToolLogic } from '../../actors/trainer/loop/loop-run-tool.ts';
import type { ModelProvider } from '../../actors/models/model-provider.ts';
import { getModelConfig } from '../../actors/models/model-registry.ts';
import { getToolDefinitions } from '../../actors/trainer/tools/tool-registry.ts';
import {
  createInitializerBrain,
  type ContextInitializer,
} from '../../actors/trainer/initializer/trainer-initializer-brain.ts';
import { TRAINER_SYSTEM_PROMPT } from '../../actors/trainer/loop/trainer-system-prompt.ts';
import type { UserDataStore } from '../../actors/trainer/user-data/user-data-store.ts';
import type { WorkoutState } from '../../actors/trainer/workout-state.ts';
import type { AgentLoopInput } from '../../machines/trainer/agent-loop-context.ts';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import { trainerSystem } from '../../machines/trainer/trainer-system.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { ChatBody } from '../../protocol/trainer/chat-body.ts';
import type { SseEvent } from '../../protocol/trainer/sse-event.ts';
import type { LoopAction, StopReason } from '../../protocol/trainer/trainer-envelope.ts';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import { RunHost, type RunHostOptions } from '../run-host/run-host.ts';
import { TooManyRunsError } from '../../protocol/runtime/runtime-error.ts';
import { clientResponseOf, type ClientResponse } from './client-response.ts';
import { createSessionLifecycle } from './session-lifecycle.ts';
import { runTrainerTurn } from './trainer-turn.ts';

export interface TrainerServiceOptions {
  store: Store;
  events: EventStore;
  userData: UserDataStore;
  dataSources: DataSourceRegistry;
  workouts: WorkoutState;
  /** Claude through the SDK, or the offline policy. */
  model: ModelProvider;
  /** The initializer (OpenAI, or the deterministic selector). */
  initializer: ContextInitializer;
  /** Where every turn's envelopes are journaled, one partition per hour shared by all sessions (`turnPartitionAt`). */
  journal: Journal<RoutedRecord>;
  /** The model of a chat that names none (`PRIMARY_MODEL`). */
  primaryModel: string;
  systemPrompt?: string;
  clock?: ServiceClock;
  loop?: Omit<AgentLoopInput, 'name'>;
  now?: () => Date;
  /** The §11.3 console log; silent when absent. */
  log?: LoopDeps['log'];
  inspect?: (sessionId: string, event: InspectionEvent) => void;
  /** How many turns work at once (the run host's defaults where absent). */
  admission?: RunHostOptions['admission'];
}

/** Turns of one session under way or waiting their turn; one more is refused with 429. */
const MAX_TURNS_PER_SESSION = 4;

/** The answer of `POST /agent/chat` (spec 001 §10.2), with the §3.1 actions and why the loop stopped. */
interface ChatResult {
  sessionId: string;
  response: ClientResponse;
  iterations: number;
  actions: LoopAction[];
  status: 'completed' | 'error';
  stopReason: StopReason;
  error?: string;
  /** The code of the error that ended the turn, when it had one (`model_server_error`, ...). */
  errorCode?: string;
}

/** A chat whose session and model are settled, ready to run. */
interface PreparedChat {
  sessionId: string;
  model: string;
  /** Runs the turn; call it once for every `prepare` (the turn holds a place in its session's line). */
  run(onEvent?: (event: SseEvent) => void): Promise<ChatResult>;
}

/**
 * The personal-trainer agent of spec 001 behind the HTTP routes: runs each chat turn on its own
 * trainer supervisor, one turn at a time per session (a second message to a busy session waits
 * its turn, so the event stream never interleaves two loops).
 */
export class TrainerService {
  readonly system: SystemDefinition;
  private readonly host: RunHost;
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Turns under way or waiting, per session (bounded by MAX_TURNS_PER_SESSION). */
  private readonly pending = new Map<string, number>();

  constructor(private readonly options: TrainerServiceOptions) {
    const { events, dataSources, now, log } = options;
    const context = createContextBuilder({
      events,
      dataSources,
      systemPrompt: options.systemPrompt ?? TRAINER_SYSTEM_PROMPT,
      tools: getToolDefinitions(),
    });
    const deps: LoopDeps = {
      events,
      context,
      model: options.model,
      sessions: createSessionLifecycle({ events }),
      workouts: options.workouts,
      dataSources,
      userData: options.userData,
      ...(now ? { now } : {}),
      ...(log ? { log } : {}),
    };
    this.system = trainerSystem({
      loopActors: {
        recordTurn: createRecordTurnLogic(deps),
        callModel: createCallModelLogic(deps),
        runTool: createRunToolLogic(deps),
        recordToolTimeout: createRecordToolTimeoutLogic(deps),
        logError: createLogErrorLogic(deps),
        finishTurn: createFinishTurnLogic(deps),
      },
      initializerBrain: createInitializerBrain(options.initializer),
      ...(options.loop ? { loop: options.loop } : {}),
      ...(options.clock ? { now: () => options.clock!.now() } : {}),
    });
    const { inspect } = options;
    this.host = RunHost.ephemeral({
      system: this.system,
      journal: withoutPrepare(options.journal),
      store: options.store,
      runActor: 'TRAINER',
      ...(options.clock ? { clock: options.clock } : {}),
      ...(inspect ? { inspect } : {}),
      ...(options.admission ? { admission: options.admission } : {}),
    });
  }

  /**
   * Settles what a chat runs on before anything runs, so bad input fails fast: the model (400
   * when unknown) and the session (the given one, 404 when missing or another user's; else the
   * user's latest active session or a new one, §12.5).
   */
  async prepare(userId: string, body: ChatBody): Promise<PreparedChat> {
    // Over capacity, refused before anything is read (a turn queued behind its session's counts when it starts).
    this.host.checkAdmission(userId);
    const model = body.model ?? this.options.primaryModel;
    getModelConfig(model);
    const session = await this.options.events.getOrCreateSession(userId, body.sessionId);
    // Its place in the session's line is taken now, so a full line is a 429 before a stream opens.
    const pending = this.pending.get(session.id) ?? 0;
    if (pending >= MAX_TURNS_PER_SESSION)
      throw new TooManyRunsError('chat turns under way or waiting in this session', pending, 1);
    this.pending.set(session.id, pending + 1);
    return {
      sessionId: session.id,
      model,
      run: (onEvent) => this.serialized(session.id, () => this.runTurn(userId, session.id, model, body, onEvent)),
    };
  }

  /** Runs one chat turn to its end (spec 001 §3.1 `runAgentLoop`). */
  async chat(userId: string, body: ChatBody, onEvent?: (event: SseEvent) => void): Promise<ChatResult> {
    return (await this.prepare(userId, body)).run(onEvent);
  }

  /** Resolves once no turn is under way (a client that left a stream does not stop its turn, §8.4). */
  async idle(): Promise<void> {
    while (this.queues.size > 0) await Promise.allSettled([...this.queues.values()]);
  }

  /** Waits for every turn under way. */
  async close(): Promise<void> {
    await this.idle();
    await this.host.close();
  }

  private async runTurn(
    userId: string,
    sessionId: string,
    model: string,
    body: ChatBody,
    onEvent?: (event: SseEvent) => void,
  ): Promise<ChatResult> {
    const payload: { user_id: string; message: string; model: string; current_workout?: unknown } = {
      user_id: userId,
      message: body.message,
      model,
    };
    if (body.currentWorkout !== undefined && body.currentWorkout !== null)
      payload.current_workout = body.currentWorkout;
    const output = await runTrainerTurn({
      host: this.host,
      owner: userId,
      request: {
        message_id: randomUUID(),
        from_agent: 'USER',
        to_agent: 'TRAINER',
        data_type: 'chat_request',
        session_id: sessionId,
        payload,
      },
      ...(onEvent ? { onEvent } : {}),
    });
    const result: ChatResult = {
      sessionId,
      response: clientResponseOf(output.actions),
      iterations: output.iterations,
      actions: output.actions,
      status: output.status,
      stopReason: output.stop_reason,
    };
    if (output.error !== undefined) result.error = output.error;
    if (output.error_code !== undefined) result.errorCode = output.error_code;
    return result;
  }

  /** Runs `work` after every earlier turn of the session has finished, then gives back its place in the line (taken by `prepare`). */
  private serialized<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(sessionId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    const tail = next.catch(() => undefined);
    void tail.then(() => {
      const left = (this.pending.get(sessionId) ?? 1) - 1;
      if (left > 0) this.pending.set(sessionId, left);
      else this.pending.delete(sessionId);
    });
    this.queues.set(sessionId, tail);
    void tail.then(() => {
      if (this.queues.get(sessionId) === tail) this.queues.delete(sessionId);
    });
    return next;
  }
}

/**
 * The journal as the run host gets it: a turn's run is keyed by its session, but its envelopes go
 * to the partition of the hour, so the host must not make a file per session ahead of a turn
 * (`prepare`); the hour's partition is made by its first append.
 */
function withoutPrepare(journal: Journal<RoutedRecord>): Journal<RoutedRecord> {
  return {
    append: (partition, data) => journal.append(partition, data),
    appendMany: (partition, data) => journal.appendMany(partition, data),
    read: (partition) => journal.read(partition),
    lastSeq: (partition) => journal.lastSeq(partition),
    loadedSeq: (partition) => journal.loadedSeq(partition),
    partitions: () => journal.partitions(),
    close: () => journal.close(),
  };
}
