import { CANCELLED_ERROR_TYPE, type SpecialistArtifact, type SpecialistResult } from './specialist-result.ts';

/** The results every specialist gives the same way: a language it cannot run, an unknown problem, a cancellation. */

const JAVASCRIPT = /^(javascript|js|node(\.?js)?)$/i;

/** True for the languages the sandbox runs. */
export const isJavaScript = (language: string): boolean => JAVASCRIPT.test(language.trim());

export function unsupportedLanguage(specialist: string, language: string, log: string[]): SpecialistResult {
  log.push(`refused: language "${language}" is not JavaScript`);
  return {
    status: 'failed',
    summary: `${specialist} works on JavaScript only; the problem asks for ${language}.`,
    confidence: 0,
    artifacts: [],
    log,
    error_type: 'unsupported_language',
    error_detail: `The offline ${specialist} writes and runs JavaScript only, and "${language}" was asked: resubmit the problem with language "javascript".`,
    recoverable: false,
  };
}

export function unsupportedProblem(specialist: string, functionName: string, log: string[]): SpecialistResult {
  return {
    status: 'failed',
    summary: `${specialist} does not recognise this problem among its algorithm families.`,
    confidence: 0,
    artifacts: [],
    log,
    error_type: 'unsupported_problem',
    error_detail:
      `No known family fits "${functionName}" (function name, statement keywords and test shapes; see the log). ` +
      'The offline fleet knows the families of the README table; set ANTHROPIC_API_KEY for the Claude solver, or restate the problem as one of them.',
    recoverable: false,
  };
}

/** Cut short by the request's signal: whatever was found so far, `partial` when there is some. */
export function cancelledResult(specialist: string, artifacts: SpecialistArtifact[], log: string[]): SpecialistResult {
  log.push('cancelled: the request was aborted');
  return {
    status: artifacts.length > 0 ? 'partial' : 'failed',
    summary: `${specialist} was cancelled${artifacts.length > 0 ? '; partial results attached' : ' before any result'}.`,
    confidence: 0,
    artifacts,
    log,
    error_type: CANCELLED_ERROR_TYPE,
    error_detail: 'The work was cancelled by the sender before it finished.',
    recoverable: false,
  };
}

export function missingCode(specialist: string, log: string[]): SpecialistResult {
  log.push('refused: no code to check');
  return {
    status: 'failed',
    summary: `${specialist} was given no solution to check.`,
    confidence: 0,
    artifacts: [],
    log,
    error_type: 'missing_code',
    error_detail: `The ${specialist} checks a solution: pass its source in \`code\` (the js-solver's code artifact).`,
    recoverable: false,
  };
}
