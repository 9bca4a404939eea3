import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { OutcomePayload, OutcomeStatus } from '../../protocol/tiers/payloads.ts';
import type { TaskRequest } from '../../protocol/tiers/task-request.ts'; // HTTP body schema (HTTP helper writes it)

export type TaskStatus = OutcomeStatus | 'working';
export interface DelegationView {
  message_id: string;
  source_tier: string;
  target_tier: string;
  specialist: string | null;
  status: 'pending' | 'working' | OutcomeStatus;
  children: DelegationView[];
}
export interface TaskView {
  task_id: string;
  status: TaskStatus;
  outcome: OutcomePayload | null;
  tree: DelegationView[];
  waiting_for_user: { question: string } | null;
  created_at: string;
}
export interface BeadsEntry {
  key: string;
  value: unknown;
  version: number;
  written_by: string;
}
export type TaskEvent =
  | { type: 'message'; data: TiersEnvelope }
  | { type: 'status'; data: { message_id: string; status: DelegationView['status'] } }
  | { type: 'settled'; data: { task_id: string; status: TaskStatus } };
export interface TiersService {
  submit(user: string, request: TaskRequest): Promise<{ task_id: string; status: TaskStatus }>;
  list(user: string): Promise<{ task_id: string; status: TaskStatus; created_at: string }[]>; // newest first
  get(user: string, taskId: string): Promise<TaskView | undefined>; // undefined -> 404 (also another user's)
  messages(user: string, taskId: string): Promise<TiersEnvelope[] | undefined>;
  beads(user: string, taskId: string, prefix?: string): Promise<BeadsEntry[] | undefined>;
  /** Past events first (replay), then live ones; ends after `settled` when `untilSettled`. */
  events(
    user: string,
    taskId: string,
    options: { untilSettled: boolean; signal: AbortSignal },
  ): AsyncIterable<TaskEvent> | undefined;
  cancel(
    user: string,
    taskId: string,
    cancellation: { reason: string; cascade: boolean },
  ): Promise<{ accepted: true } | { finished: TaskView } | undefined>;
  clarify(user: string, taskId: string, answer: string): Promise<'accepted' | 'not_waiting' | undefined>;
  /** POST /tiers/messages: a spec Message from an external Progress Monitor. Throws RuntimeError subclasses (code -> 4xx). */
  receive(user: string, envelope: unknown): Promise<{ task_id: string; message_id: string }>;
  close(): Promise<void>;
}
