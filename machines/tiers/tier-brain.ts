import { fromPromise } from 'xstate';
import { outcomePayload } from '../../actors/tiers/tier-envelopes.ts';
import type { AgentBrainInput } from '../../protocol/runtime/agent-report.ts';
import type { DeliveredMessage } from '../../protocol/runtime/routing.ts';
import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { TaskContext, TierHandler } from './task-context.ts';
import { replyTo } from './tier-steps.ts';

/**
 * Where the tiers find a task's context, and the runtime's dedup service: `once` runs the work
 * of a message id once per receiver and caches its answer (`system/seen-messages/{tier}`), so a
 * duplicate gets the cached answer without running again, also after a restart.
 */
export interface TaskDirectory {
  contextOf(envelope: TiersEnvelope): Promise<TaskContext | undefined>;
  once(receiver: string, id: string, work: () => Promise<TiersEnvelope[]>): Promise<TiersEnvelope[]>;
  /** Called with what a tier sends, before the supervisor routes it (its journal partition is the task's). */
  sending(ctx: TaskContext, envelopes: readonly TiersEnvelope[]): void;
}

/**
 * The brain of a tier's worker (`agentMachine`): it finds the task of the delivered envelope,
 * runs `handler` once per message id, and returns the envelopes to route. A handler that throws
 * on a delegation answers it `failed` (recoverable: a retry may do better), so no delegation
 * waits for a watchdog because of a bug.
 *
 * @example
 * const architect = agentMachine.provide({ actors: { brain: tierBrain('ABSTRACT_ARCHITECT', architectTier, directory) } });
 */
export function tierBrain(receiver: string, handler: TierHandler, directory: TaskDirectory) {
  return fromPromise<TiersEnvelope[], AgentBrainInput>(async ({ input, signal }) => {
    const delivered = input.input as DeliveredMessage;
    const envelope = delivered.envelope as TiersEnvelope;
    const ctx = await directory.contextOf(envelope);
    if (!ctx) return [];
    // A delegation that ended before its target took it up (its watchdog ran out while it waited
    // behind other work or across a restart, or it was cancelled) is not worked on: nobody waits for it.
    const node = 'task_type' in envelope.payload ? ctx.tree.node(envelope.id) : undefined;
    if (node && node.status !== 'open') return [];
    const watchdog = (delivered.context as { watchdog?: boolean } | undefined)?.watchdog === true;
    const sends = await directory.once(receiver, envelope.id, async () => {
      try {
        return await handler({ envelope, watchdog, signal }, ctx);
      } catch (error) {
        if (signal.aborted || !('task_type' in envelope.payload)) throw error;
        const detail = error instanceof Error ? error.message : String(error);
        return [
          replyTo(
            ctx,
            envelope,
            outcomePayload({
              status: 'failed',
              summary: `${receiver} failed: ${detail}`,
              error_type: 'tier_error',
              error_detail: detail,
              recoverable: true,
            }),
          ),
        ];
      }
    });
    directory.sending(ctx, sends);
    return sends;
  });
}
