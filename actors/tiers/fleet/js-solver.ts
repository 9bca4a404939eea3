import { ABORTED, untilAborted } from './abortable.ts';
import { ALGORITHM_FAMILIES } from './algorithm-families.ts';
import { renderTemplate, type AlgorithmFamily, type SolutionTemplate } from './algorithm-family.ts';
import { findContradiction } from './contradictory-tests.ts';
import { testConfidence } from './test-confidence.ts';
import type { FleetSandbox, TestRunReport } from './fleet-sandbox.ts';
import { explainRejections, recogniseProblem, type FamilyMatch } from './recognize-problem.ts';
import { cancelledResult, isJavaScript, unsupportedLanguage, unsupportedProblem } from './specialist-refusals.ts';
import type { SpecialistArtifact, SpecialistRequest, SpecialistResult, Specialist } from './specialist-result.ts';
import { preview } from './value-shapes.ts';

/** One candidate solution: a template of a recognised family. */
interface Candidate {
  family: AlgorithmFamily;
  template: SolutionTemplate;
}

interface Attempt extends Candidate {
  code: string;
  report: TestRunReport;
}

/** Verdicts that say the run itself broke (not the solution's answers): a retry may do better. */
const TRANSIENT_VERDICTS = new Set(['timeout', 'memory', 'crashed']);

/**
 * Families best first; within each, its templates rotated by `variant`, so racing attempts
 * (variants 0, 1, 2) try different templates of the same family first.
 */
export function orderCandidates(matches: readonly FamilyMatch[], variant: number): Candidate[] {
  return matches.flatMap(({ family }) => {
    const count = family.templates.length;
    const shift = ((variant % count) + count) % count;
    return family.templates.map((_, i) => ({ family, template: family.templates[(i + shift) % count]! }));
  });
}

function artifactsOf(attempt: Attempt, functionName: string): SpecialistArtifact[] {
  const { report, template, family, code } = attempt;
  const failing = report.cases.filter((c) => !c.passed).map((c) => c.index);
  return [
    {
      artifact_type: 'code',
      content: code,
      metadata: {
        language: 'javascript',
        lines: code.trimEnd().split('\n').length,
        complexity: template.complexity,
        family: family.id,
        template: template.name,
        function_name: functionName,
      },
    },
    {
      artifact_type: 'test_result',
      content: `${report.passed}/${report.total} tests passed`,
      metadata: {
        passed: report.passed,
        failed: report.failed,
        total: report.total,
        verdict: report.verdict,
        ...(report.detail ? { detail: report.detail } : {}),
        ...(failing.length > 0 ? { failing_cases: failing.slice(0, 20) } : {}),
      },
    },
  ];
}

function firstFailure(attempt: Attempt, request: SpecialistRequest): string {
  const { report } = attempt;
  if (report.verdict !== 'ok')
    return `the sandbox ended with ${report.verdict}${report.detail ? `: ${report.detail}` : ''}`;
  const failed = report.cases.find((c) => !c.passed);
  if (!failed) return 'no test case failed';
  const testCase = request.problem.test_cases[failed.index];
  const got = failed.error !== undefined ? `threw ${failed.error}` : `got ${preview(failed.actual)}`;
  return `test ${failed.index} (input ${preview(testCase?.input)}) expected ${preview(testCase?.expected)}, ${got}`;
}

/** None of the candidates passed every test: `partial` with the best when it passed some, else `failed`. */
function noTemplatePasses(
  best: Attempt,
  attempts: Attempt[],
  request: SpecialistRequest,
  log: string[],
): SpecialistResult {
  const { report } = best;
  const allBroke = attempts.every((a) => TRANSIENT_VERDICTS.has(a.report.verdict));
  const label = `${best.family.id}/${best.template.name}`;
  return {
    status: report.passed > 0 ? 'partial' : 'failed',
    summary: `No template passes every test; the best, ${label}, passes ${report.passed}/${report.total}.`,
    confidence: report.passed > 0 ? testConfidence(report.passed, report.total) : 0,
    artifacts: artifactsOf(best, request.problem.function_name),
    log,
    error_type: allBroke ? 'sandbox_error' : 'tests_failed',
    error_detail:
      `Tried ${attempts.length} template(s) of ${[...new Set(attempts.map((a) => a.family.id))].join(', ')}; ` +
      `with ${label}, ${firstFailure(best, request)}. Check that test case, or set ANTHROPIC_API_KEY for the Claude solver.`,
    // Deterministic templates give the same answers again; only a broken run is worth a retry.
    recoverable: allBroke,
  };
}

/**
 * The offline js-solver: recognises the problem's family (function name, statement, test shapes;
 * never `problem_id`), runs the family's templates in the sandbox against the tests and returns
 * the first that passes all, with the real counts.
 *
 * @example const result = await createJsSolver(realSandbox)({ problem, task_type: 'execute_code', objective, constraints: [] });
 */
export function createJsSolver(sandbox: FleetSandbox): Specialist {
  return async function jsSolver(request: SpecialistRequest): Promise<SpecialistResult> {
    const { problem, signal } = request;
    const log: string[] = [];
    if (!isJavaScript(problem.language)) return unsupportedLanguage('js-solver', problem.language, log);
    const contradiction = findContradiction(problem.test_cases);
    if (contradiction) {
      log.push(`test cases ${contradiction.first} and ${contradiction.second} contradict each other`);
      return {
        status: 'needs_clarification',
        summary: 'The test cases contradict each other: one input has two expected values.',
        confidence: 0,
        artifacts: [],
        log,
        error_type: 'ambiguous_request',
        error_detail: contradiction.question,
        recoverable: true,
      };
    }
    const extraText = [request.objective, ...request.constraints].join('\n');
    const matches = recogniseProblem(problem, ALGORITHM_FAMILIES, extraText);
    if (matches.length === 0) {
      log.push('no family recognised', ...explainRejections(problem, ALGORITHM_FAMILIES, extraText));
      return unsupportedProblem('js-solver', problem.function_name, log);
    }
    for (const match of matches)
      log.push(`recognised ${match.family.id} (score ${match.score}): ${match.evidence.join('; ')}`);
    const attempts: Attempt[] = [];
    let best: Attempt | undefined;
    for (const candidate of orderCandidates(matches, request.variant ?? 0)) {
      if (signal?.aborted) break;
      const code = renderTemplate(candidate.template, problem.function_name);
      const run = sandbox.runTests({
        code,
        functionName: problem.function_name,
        testCases: problem.test_cases,
        signal,
      });
      const report = await untilAborted(run, signal);
      if (report === ABORTED) break;
      const attempt: Attempt = { ...candidate, code, report };
      attempts.push(attempt);
      log.push(
        `ran ${candidate.family.id}/${candidate.template.name}: ${report.passed}/${report.total} passed (${report.verdict}, ${Math.round(report.durationMs)} ms)`,
      );
      if (report.verdict === 'ok' && report.failed === 0 && report.passed === report.total) {
        return {
          status: 'success',
          summary: `Solved as ${candidate.family.title} (${candidate.template.name}, ${candidate.template.complexity}): ${report.passed}/${report.total} tests passed.`,
          confidence: testConfidence(report.passed, report.total),
          artifacts: artifactsOf(attempt, problem.function_name),
          log,
        };
      }
      if (!best || report.passed > best.report.passed) best = attempt;
    }
    if (signal?.aborted) return cancelledResult('js-solver', best ? artifactsOf(best, problem.function_name) : [], log);
    return noTemplatePasses(best!, attempts, request, log);
  };
}
