import type { AnthropicAccess } from '../../models/model-backends.ts';
import { createAnthropicProvider } from '../../models/anthropic-provider.ts';
import { ModelError } from '../../models/model-error.ts';
import { getModelConfig } from '../../models/model-registry.ts';
import type { SandboxLimits } from '../sandbox/run-calls.ts';
import { runTests as sandboxRunTests, type RunTestsInput, type TestRunReport } from '../sandbox/run-tests.ts';
import { findContradiction } from '../fleet/contradictory-tests.ts';
import { isJavaScript } from '../fleet/specialist-refusals.ts';
import type { Specialist, SpecialistRequest } from '../fleet/specialist-result.ts';
import { callForcedTool, ModelAnswerError } from '../../models/forced-tool-call.ts';
import type { BrainTokens } from './plan.ts';
import { retryPrompt, SOLVER_SYSTEM, SolutionAnswerSchema, solverPrompt } from './solver-prompt.ts';
import {
  attemptResult,
  callFailure,
  clarification,
  failedResult,
  passedAll,
  spent,
  type ClaudeSolverResult,
  type SolverAttempt,
} from './solver-result.ts';

export type { ClaudeSolverResult } from './solver-result.ts';

export interface ClaudeSolverOptions extends AnthropicAccess {
  /** The sandbox's `runTests` by default (tests may wrap it to count runs). */
  runTests?: (input: RunTestsInput) => Promise<TestRunReport>;
  limits?: Partial<SandboxLimits>;
}

/** Claude writes at most this many solutions: the first, and one retry with the failures in the prompt. */
export const SOLVER_ATTEMPTS = 2;

const SUBMIT = {
  name: 'submit_solution',
  description: 'Submit the solution, or only a question when the problem is ambiguous.',
  schema: SolutionAnswerSchema,
};

/**
 * A solver specialist on Claude: a forced `submit_solution` call (the code, or only a question
 * when the tests contradict each other: `needs_clarification`, never a guess), whose code is run
 * against every test case in the sandbox; a failing answer is retried once with the failures in
 * the prompt, and the better attempt is reported. The `test_result` counts come from the sandbox,
 * never from the model. A non-JavaScript problem fails `unsupported_language` without a call; a
 * failed or refused model call is a failed result (its `error_type` the error's code), never a
 * throw. Reports the tokens of every call.
 *
 * @example
 * const solver = backends.choose({ offline: () => OFFLINE_SPECIALISTS['js-solver'].run, anthropic: (access) => claudeSolver(access) });
 */
export function claudeSolver(options: ClaudeSolverOptions): Specialist {
  getModelConfig(options.model);
  const provider = createAnthropicProvider({ client: options.client });
  const runTests = options.runTests ?? sandboxRunTests;

  return async function claudeSolve(request: SpecialistRequest): Promise<ClaudeSolverResult> {
    const log: string[] = [];
    const tokens: BrainTokens = { input: 0, output: 0 };
    const { problem, signal } = request;
    if (!isJavaScript(problem.language)) {
      log.push(`refused: language "${problem.language}" is not JavaScript`);
      return failedResult(log, tokens, {
        summary: `claude-solver runs JavaScript only; the problem asks for ${problem.language}.`,
        error_type: 'unsupported_language',
        error_detail: `The sandbox runs JavaScript only and "${problem.language}" was asked: resubmit with language "javascript".`,
        recoverable: false,
      });
    }
    // Contradictory tests are a real ambiguity, found without a paid call: ask, never guess.
    const contradiction = findContradiction(problem.test_cases);
    if (contradiction) {
      log.push(`test cases ${contradiction.first} and ${contradiction.second} contradict each other`);
      return clarification(contradiction.question, log, tokens);
    }
    let best: SolverAttempt | undefined;
    let attempts = 0;
    const done = () =>
      attemptResult(best!, { attempts, log, tokens, model: options.model, cancelled: signal?.aborted === true });
    while (attempts < SOLVER_ATTEMPTS && !(best && passedAll(best.report)) && !signal?.aborted) {
      let answer;
      try {
        const prompt = best ? retryPrompt(request, best.code, best.report) : solverPrompt(request);
        const call = await callForcedTool({
          provider,
          model: options.model,
          system: SOLVER_SYSTEM,
          prompt,
          tool: SUBMIT,
          signal,
        });
        spent(tokens, call.tokens);
        answer = call.value;
      } catch (error) {
        if (error instanceof ModelAnswerError) spent(tokens, error.tokens);
        if (!best) return callFailure(error, log, tokens);
        log.push(`retry got no usable answer: ${(error as Error).message}`);
        return done();
      }
      if (answer.question !== undefined) {
        log.push(`Claude asks: ${answer.question}`);
        return clarification(answer.question, log, tokens);
      }
      const code = answer.code!;
      const report = await runTests({
        code,
        functionName: problem.function_name,
        testCases: problem.test_cases,
        ...(options.limits ? { limits: options.limits } : {}),
        ...(signal ? { signal } : {}),
      });
      attempts++;
      log.push(
        `attempt ${attempts}: ${report.passed}/${report.total} passed, sandbox ${report.verdict}${report.detail ? ` (${report.detail})` : ''}`,
      );
      if (!best || report.passed >= best.report.passed) best = { code, complexity: answer.complexity, report };
    }
    if (!best)
      return callFailure(
        new ModelError('aborted', 'The request was cancelled before Claude was asked.', 'anthropic'),
        log,
        tokens,
      );
    return done();
  };
}
