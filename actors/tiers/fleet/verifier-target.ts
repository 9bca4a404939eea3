import { ALGORITHM_FAMILIES } from './algorithm-families.ts';
import { recogniseProblem, type FamilyMatch } from './recognize-problem.ts';
import { isJavaScript, missingCode, unsupportedLanguage, unsupportedProblem } from './specialist-refusals.ts';
import type { SpecialistRequest, SpecialistResult } from './specialist-result.ts';

/** What a verifier works on: the solution's code and the family its problem belongs to. */
export type VerifierTarget = { code: string; match: FamilyMatch } | { refused: SpecialistResult };

/**
 * The checks every verifier (test-designer, reviewer) makes before it runs anything: JavaScript,
 * a solution to check, and a known family (recognised as the solver does, never by problem_id).
 *
 * @example
 * const target = verifierTarget('reviewer', request, log);
 * if ('refused' in target) return target.refused;
 */
export function verifierTarget(specialist: string, request: SpecialistRequest, log: string[]): VerifierTarget {
  const { problem } = request;
  if (!isJavaScript(problem.language)) return { refused: unsupportedLanguage(specialist, problem.language, log) };
  if (!request.code) return { refused: missingCode(specialist, log) };
  const [match] = recogniseProblem(problem, ALGORITHM_FAMILIES, [request.objective, ...request.constraints].join('\n'));
  if (!match) return { refused: unsupportedProblem(specialist, problem.function_name, log) };
  return { code: request.code, match };
}
