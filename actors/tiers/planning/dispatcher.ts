import { RuntimeError } from '../../../protocol/runtime/runtime-error.ts';
import type { BrainTokens, PlannedSubtask } from './plan.ts';

/** A specialist as the Dispatcher sees it when routing. */
export interface SpecialistStatus {
  name: string;
  task_types: readonly string[];
  available: boolean;
  /** Delegations in flight on it now. */
  load: number;
  /** Past routing accuracy (0..1) from `system/routing-accuracy`; null when never routed to. */
  accuracy: number | null;
  /** Accuracy per task type, when known; it wins over `accuracy` for a subtask of that type. */
  accuracy_by_task_type?: Record<string, number> | undefined;
}

/** Which specialist runs a subtask, and why (written to `routing/assignments`). */
export interface Assignment {
  key: string;
  specialist: string;
  reason: string;
}

/**
 * What the Dispatcher routes: the subtasks (in plan order), the fleet now, the task's priority
 * (0 = critical .. 4 = backlog), and per subtask key the specialists not to use again (one was
 * unavailable, so the subtask is re-routed).
 */
export interface DispatcherInput {
  subtasks: PlannedSubtask[];
  specialists: SpecialistStatus[];
  priority: number;
  exclude?: Record<string, string[]>;
}

/** Spec 002's ROUTING_DISPATCHER brain: one assignment per subtask. */
export interface DispatcherBrain {
  route(input: DispatcherInput, signal?: AbortSignal): Promise<{ assignments: Assignment[]; tokens?: BrainTokens }>;
}

/** No specialist can take a subtask: none handles its task type, every one is excluded or unavailable. */
export class UnassignableSubtaskError extends RuntimeError {
  override name = 'UnassignableSubtaskError';
  constructor(
    readonly key: string,
    readonly taskType: string,
    why: string,
  ) {
    super(
      'unassignable_subtask',
      `Subtask "${key}" (${taskType}) cannot be assigned: ${why}. Register a specialist for ${taskType} in the fleet, or wait until one is available, then route again.`,
      503,
    );
  }
}

/** The accuracy that counts for a subtask: its task type's, else the specialist's overall, else unknown. */
export function accuracyFor(specialist: SpecialistStatus, taskType: string): number | null {
  return specialist.accuracy_by_task_type?.[taskType] ?? specialist.accuracy;
}
