import { ModelError } from '../../models/model-error.ts';
import type { TestRunReport } from '../sandbox/run-tests.ts';
import { CANCELLED_ERROR_TYPE, type SpecialistResult } from '../fleet/specialist-result.ts';
import { testConfidence } from '../fleet/test-confidence.ts';
import { ModelAnswerError } from '../../models/forced-tool-call.ts';
import type { BrainTokens } from './plan.ts';

/** A specialist result with the model tokens it cost (the core adds them to `resources_used`). */
export type ClaudeSolverResult = SpecialistResult & { tokens: BrainTokens };

/** One solution Claude wrote and the sandbox ran. */
export interface SolverAttempt {
  code: string;
  complexity: string | undefined;
  report: TestRunReport;
}

const NAME = 'claude-solver';

/** Confidence from the evidence, as the offline solver's: `testConfidence`, 0 when none passed. */
export const confidenceOf = (report: TestRunReport): number =>
  report.passed === 0 ? 0 : testConfidence(report.passed, report.total);

export const passedAll = (report: TestRunReport): boolean => report.verdict === 'ok' && report.failed === 0;

/** A failed result without artifacts. */
export function failedResult(
  log: string[],
  tokens: BrainTokens,
  fields: Pick<SpecialistResult, 'summary' | 'error_type' | 'error_detail' | 'recoverable'>,
): ClaudeSolverResult {
  return { status: 'failed', confidence: 0, artifacts: [], log, tokens, ...fields };
}

/** `needs_clarification` with the question (`ambiguous_request`): the problem is asked about, never guessed. */
export function clarification(question: string, log: string[], tokens: BrainTokens): ClaudeSolverResult {
  return {
    status: 'needs_clarification',
    summary: 'claude-solver found the problem ambiguous and asks before writing code.',
    confidence: 0,
    artifacts: [],
    log,
    tokens,
    error_type: 'ambiguous_request',
    error_detail: question,
    recoverable: true,
  };
}

/** Adds what a call cost to `tokens`: a refused answer was paid for too. */
export function spent(tokens: BrainTokens, cost: BrainTokens | undefined): void {
  if (!cost) return;
  tokens.input += cost.input;
  tokens.output += cost.output;
}

/** What a failed model call becomes: a failed result naming the cause (aborted: cancelled). Anything else is rethrown. */
export function callFailure(error: unknown, log: string[], tokens: BrainTokens): ClaudeSolverResult {
  if (!(error instanceof ModelAnswerError || error instanceof ModelError)) throw error;
  const aborted = error instanceof ModelError && error.kind === 'aborted';
  log.push(`model call failed: ${error.message}`);
  return failedResult(log, tokens, {
    summary: aborted ? `${NAME} was cancelled before any result.` : `${NAME} got no usable answer from Claude.`,
    error_type: aborted ? CANCELLED_ERROR_TYPE : error.code,
    error_detail: error.message,
    recoverable: !aborted && (error instanceof ModelAnswerError || error.retryable),
  });
}

/** The result of the best attempt: `code` and `test_result` artifacts, status and confidence from the sandbox's counts. */
export function attemptResult(
  attempt: SolverAttempt,
  context: { attempts: number; log: string[]; tokens: BrainTokens; model: string; cancelled: boolean },
): ClaudeSolverResult {
  const { code, complexity, report } = attempt;
  const { attempts, log, tokens, model, cancelled } = context;
  const solved = passedAll(report);
  const counts = `${report.passed}/${report.total} tests passed`;
  const base: ClaudeSolverResult = {
    status: solved ? 'success' : report.passed > 0 ? 'partial' : 'failed',
    summary: `${NAME} (Claude, ${attempts} attempt${attempts === 1 ? '' : 's'}): ${counts}${report.verdict === 'ok' ? '' : `, sandbox ${report.verdict}`}.`,
    confidence: confidenceOf(report),
    artifacts: [
      {
        artifact_type: 'code',
        content: code,
        metadata: {
          language: 'javascript',
          lines: code.trimEnd().split('\n').length,
          complexity: complexity ?? null,
          author: 'claude',
          model,
        },
      },
      {
        artifact_type: 'test_result',
        content: counts,
        metadata: { passed: report.passed, failed: report.failed, verdict: report.verdict },
      },
    ],
    log,
    tokens,
  };
  if (solved) return base;
  if (cancelled) {
    return {
      ...base,
      status: 'partial',
      error_type: CANCELLED_ERROR_TYPE,
      error_detail: 'The work was cancelled by the sender before it finished; the last attempt is attached.',
      recoverable: false,
    };
  }
  return {
    ...base,
    error_type: report.verdict === 'ok' ? 'tests_failed' : `sandbox_${report.verdict}`,
    error_detail: `After ${attempts} attempt${attempts === 1 ? '' : 's'}: ${counts}${report.detail ? ` (${report.detail})` : ''}.`,
    recoverable: true,
  };
}
