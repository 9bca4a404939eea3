import type { MailboxRequest } from './agent-mailbox.ts';
import type { MailboxPriority } from './mailbox-priority.ts';

/** How a parent configures an agent; the defaults follow §9 (30 s) and §6.1 (one retry). */
export interface AgentInput {
  name: string;
  timeoutMs?: number;
  maxAttempts?: number;
  /** Requests that may wait behind the current one; default 64. Beyond, `throttled`. */
  maxQueued?: number;
  /** The `retryAfterMs` of a `throttled` report; default 1 s. */
  retryAfterMs?: number;
  /** How many ids of requests that ran are remembered, so a redelivery is not run again; default 256. */
  doneMemory?: number;
  /**
   * Where a request's input keeps its priority (`envelope.priority`) and its scale: queued
   * requests are taken most urgent first, in arrival order within one priority (spec 004).
   * Without it the mailbox is FIFO.
   */
  priority?: MailboxPriority;
}

/** A request in the agent's mailbox, with its priority once read (see `insertByPriority`). */
export type PendingRequest = MailboxRequest & { priority?: number };

/** The agent worker's context: its configuration, its mailbox and the request in hand. */
export interface AgentContext {
  name: string;
  timeoutMs: number;
  maxAttempts: number;
  maxQueued: number;
  retryAfterMs: number;
  doneMemory: number;
  priority: MailboxPriority | undefined;
  /** Requests not started yet, most urgent then oldest first; never more than `maxQueued`. */
  queue: PendingRequest[];
  /** The request the brain works on; set exactly while in `working`. */
  current: PendingRequest | null;
  /** Brain runs started for `current`. */
  attempts: number;
  /** Ids of requests that ran to a report, newest last, at most `doneMemory`. */
  done: string[];
}

const DEFAULT_AGENT_TIMEOUT_MS = 30_000;
const DEFAULT_AGENT_MAX_ATTEMPTS = 2;
const DEFAULT_MAX_QUEUED = 64;
const DEFAULT_RETRY_AFTER_MS = 1_000;
const DEFAULT_DONE_MEMORY = 256;

/**
 * A new agent's context: `input` with its defaults filled in, an empty mailbox, nothing in hand.
 *
 * @example
 * agentContext({ name: 'SCIENTIST', timeoutMs: 5_000 }); // maxAttempts 2, maxQueued 64, ...
 */
export function agentContext(input: AgentInput): AgentContext {
  return {
    name: input.name,
    timeoutMs: input.timeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
    maxAttempts: input.maxAttempts ?? DEFAULT_AGENT_MAX_ATTEMPTS,
    maxQueued: Math.max(0, input.maxQueued ?? DEFAULT_MAX_QUEUED),
    retryAfterMs: input.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS,
    doneMemory: Math.max(1, input.doneMemory ?? DEFAULT_DONE_MEMORY),
    priority: input.priority,
    queue: [],
    current: null,
    attempts: 0,
    done: [],
  };
}
