import { aggregateOutcomes } from '../runtime/aggregate-outcomes.ts';
import { outcomePayload } from '../../actors/tiers/tier-envelopes.ts';
import type { OutcomePayload } from '../../protocol/tiers/payloads.ts';
import type { TaskGraph } from './dispatch-graph.ts';

/**
 * The Dispatcher's outcome once every subtask ended: a question from any subtask flows up as
 * `needs_clarification` (the Dispatcher did not answer it), with its `error_type`; otherwise spec 002's aggregate of the
 * subtasks' final outcomes (in the order they ended, each subtask counted once however many
 * attempts it took; blocked, timed-out and cancelled ones in the denominator), with the
 * successful subtasks' artifacts and an `aggregation_summary`.
 */
export function dispatchOutcome(graph: TaskGraph, elapsedMs: number): OutcomePayload {
  const ended = [...graph.subtasks].sort((a, b) => (a.settled_order ?? 0) - (b.settled_order ?? 0));
  const attempts = ended.reduce((sum, s) => sum + s.attempts.length, 0);
  const specialists = [...new Set(ended.filter((s) => s.attempts.length > 0).map((s) => s.specialist))];
  const tokensIn = graph.tokens.input + ended.reduce((sum, s) => sum + s.tokens.input, 0);
  const tokensOut = graph.tokens.output + ended.reduce((sum, s) => sum + s.tokens.output, 0);
  const resources = {
    parallel_tasks: ended.length,
    specialists_used: specialists,
    attempts,
    tokens_in: tokensIn,
    tokens_out: tokensOut,
  };
  const question = ended.find((s) => s.status === 'needs_clarification');
  if (question) {
    return outcomePayload({
      status: 'needs_clarification',
      summary: `Subtask ${question.key} needs clarification.`,
      result_refs: ['beads:routing/task-graph'],
      execution_time_ms: elapsedMs,
      resources_used: resources,
      // The asker's own question type, so the tier above can tell whether it may answer it.
      error_type: question.error_type ?? 'ambiguous_request',
      error_detail: question.error ?? 'The request is ambiguous.',
      recoverable: true,
    });
  }
  const aggregate = aggregateOutcomes(
    graph.strategy,
    ended.map((s) => ({
      message_id: s.attempts.at(-1) ?? s.key,
      status: s.status as OutcomePayload['status'],
      confidence: s.confidence,
      specialist: s.specialist,
    })),
  );
  const status = aggregate.aggregated_status;
  const failures = ended.filter((s) => s.status !== 'success');
  const cause = failures.find((s) => s.status !== 'blocked');
  const summaryJson = JSON.stringify({
    strategy: graph.strategy,
    succeeded: aggregate.succeeded,
    failed: aggregate.failed,
  });
  const artifacts = [
    {
      artifact_type: 'aggregation_summary',
      content_ref: null,
      inline_content: summaryJson,
      metadata: {
        child_outcomes: ended.map((s) => ({
          id: s.attempts.at(-1) ?? s.key,
          key: s.key,
          status: s.status,
          specialist: s.specialist,
        })),
      },
    },
    ...ended
      .filter((s) => s.status === 'success')
      .flatMap((s) => s.artifacts.map((a) => ({ ...a, metadata: { ...a.metadata, subtask: s.key } }))),
  ];
  const error =
    status === 'success'
      ? {}
      : status === 'failed' && cause?.error_type
        ? {
            // Nothing succeeded: the root cause's own error goes up (unsupported_problem, unsupported_language, ...).
            error_type: cause.error_type,
            error_detail: failures
              .map((s) => `${s.key} (${s.specialist}): ${s.status}${s.error ? `: ${s.error}` : ''}`)
              .join('; '),
            recoverable: cause.recoverable ?? false,
          }
        : {
            error_type: status === 'partial' ? 'partial_completion' : 'all_failed',
            error_detail: failures
              .map((s) => `${s.key} (${s.specialist}): ${s.status}${s.error ? `: ${s.error}` : ''}`)
              .join('; '),
            recoverable: status === 'partial',
          };
  return outcomePayload({
    status,
    summary: `${aggregate.succeeded}/${ended.length} subtasks succeeded (${graph.strategy}).`,
    result_refs: ['beads:routing/task-graph'],
    confidence: aggregate.aggregated_confidence,
    execution_time_ms: elapsedMs,
    resources_used: { ...resources, revise_strategy: aggregate.revise_strategy, escalate: aggregate.escalate },
    artifacts,
    ...error,
  });
}
