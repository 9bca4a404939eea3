import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { AgentSession } from '../../../protocol/trainer/session.ts';
import type { ContextBuilder } from '../context/context-builder.ts';
import type { ConsoleLogEntry } from './console-log.ts';
import type { DataSourceRegistry } from '../user-data/data-sources.ts';
import type { EventStore } from '../events/event-store.ts';
import type { ModelProvider } from '../../models/model-provider.ts';
import type { UserDataStore } from '../user-data/user-data-store.ts';
import type { WorkoutState } from '../workout-state.ts';

/**
 * How a turn changes its session's status. The server implements it with the session statechart
 * (machines/session.ts), which actors may not import.
 */
export interface SessionLifecycle {
  /** A new message continues an ended session: it becomes `active` again (no-op when it is). */
  continue(userId: string, sessionId: string): Promise<void>;
  /** Ends the session with its totals summed from the `llm_response` events (§7.6, §11.2). */
  end(userId: string, sessionId: string, status: 'completed' | 'error'): Promise<AgentSession>;
}

/** What the agent loop's actors work with: the stores, the context builder and the model. */
export interface LoopDeps {
  events: EventStore;
  context: ContextBuilder<Tool>;
  model: ModelProvider;
  sessions: SessionLifecycle;
  workouts: WorkoutState;
  dataSources: DataSourceRegistry;
  userData: UserDataStore;
  now?: () => Date;
  /** The §11.3 console log (models/console-log.ts `createConsoleLog`); silent when absent. */
  log?: (sessionId: string, entry: ConsoleLogEntry) => void;
}

/** A model's tool choice (spec 001 §3.3 `toolCall`). */
export interface LoopToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** Milliseconds since `start` (a `performance.now()` reading), rounded. */
export function elapsedMs(start: number): number {
  return Math.round(performance.now() - start);
}
