import type { AlgorithmFamily } from './algorithm-family.ts';
import type { Problem } from './specialist-result.ts';

/** A family that fits the problem, with its score and why. */
export interface FamilyMatch {
  family: AlgorithmFamily;
  score: number;
  evidence: string[];
}

/** Points for a function name that names the family, for one that hints at it, per keyword found (at most 4). */
export const NAME_POINTS = 3;
export const NAME_HINT_POINTS = 1.5;
export const KEYWORD_POINTS = 1;
const KEYWORD_CAP = 4;
/** A family is recognised from this score up: an exact name, or two keywords, or a name hint and a keyword. */
export const RECOGNITION_THRESHOLD = 2;

const normaliseName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const normaliseText = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

/** Why a family does not fit the test shapes, or null when every test case fits. */
function shapeMismatch(family: AlgorithmFamily, problem: Problem): string | null {
  const index = problem.test_cases.findIndex(
    (testCase) => testCase.input.length !== family.arity || !family.accepts(testCase),
  );
  if (index === -1) return null;
  const { input } = problem.test_cases[index]!;
  return input.length !== family.arity
    ? `test ${index} has ${input.length} arguments, ${family.id} takes ${family.arity}`
    : `test ${index} does not have ${family.id}'s input/expected types`;
}

/**
 * The families a problem may belong to, best first: each must fit every test case's shape (arity,
 * types of the inputs and of `expected`), then scores by its function name and by keywords of the
 * statement (and of `extraText`: objective, constraints). `problem_id` is never read. A family
 * scoring under RECOGNITION_THRESHOLD is left out; ties keep ALGORITHM_FAMILIES' order.
 *
 * @example recogniseProblem(problem, ALGORITHM_FAMILIES)[0]?.family.id // 'binary-search'
 */
export function recogniseProblem(
  problem: Problem,
  families: readonly AlgorithmFamily[],
  extraText = '',
): FamilyMatch[] {
  const name = normaliseName(problem.function_name);
  const text = normaliseText(`${problem.statement}\n${extraText}`);
  const matches: FamilyMatch[] = [];
  for (const family of families) {
    if (shapeMismatch(family, problem) !== null) continue;
    const evidence = [`test shapes fit (${problem.test_cases.length} cases, arity ${family.arity})`];
    let score = 0;
    if (family.names.includes(name)) {
      score += NAME_POINTS;
      evidence.push(`function name "${problem.function_name}" names it`);
    } else {
      const hint = family.nameHints.find((fragment) => name.includes(fragment));
      if (hint) {
        score += NAME_HINT_POINTS;
        evidence.push(`function name "${problem.function_name}" contains "${hint}"`);
      }
    }
    const found = family.keywords.filter((keyword) => text.includes(keyword));
    if (found.length > 0) {
      score += Math.min(found.length, KEYWORD_CAP) * KEYWORD_POINTS;
      evidence.push(`statement mentions ${found.map((k) => `"${k}"`).join(', ')}`);
    }
    if (score >= RECOGNITION_THRESHOLD) matches.push({ family, score, evidence });
  }
  return matches.sort((a, b) => b.score - a.score);
}

/** For logs: why each family was not recognised (shape, or too little evidence). */
export function explainRejections(problem: Problem, families: readonly AlgorithmFamily[], extraText = ''): string[] {
  const kept = new Set(recogniseProblem(problem, families, extraText).map((match) => match.family.id));
  return families
    .filter((family) => !kept.has(family.id))
    .map(
      (family) =>
        `${family.id}: ${shapeMismatch(family, problem) ?? 'shapes fit, but name and statement give too little evidence'}`,
    );
}
