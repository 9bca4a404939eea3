import {
  bandOf,
  claimBand,
  claimFromText,
  growthExponent,
  judgeClaim,
  slopeAgreement,
  type Timing,
} from './complexity-classifier.ts';
import type { FleetSandbox } from './fleet-sandbox.ts';
import { measureGrowth, REVIEW_PLAN, type ReviewPlan } from './growth-timing.ts';
import { MISSING_COMPLEXITY_BOUND } from '../planning/clarification-rules.ts';
import { cancelledResult } from './specialist-refusals.ts';
import { verifierTarget } from './verifier-target.ts';
import type { SpecialistArtifact, SpecialistRequest, SpecialistResult, Specialist } from './specialist-result.ts';

function analysis(claim: string | undefined, timings: Timing[], verdict: string): SpecialistArtifact {
  const exponent = timings.length >= 2 ? Math.round(growthExponent(timings) * 1000) / 1000 : null;
  const measured = exponent === null ? null : bandOf(exponent).label;
  return {
    artifact_type: 'complexity_review',
    content: JSON.stringify({ claimed: claim ?? null, measured, slope: exponent, verdict, timings }),
    metadata: { claimed: claim ?? null, measured, slope: exponent, verdict, sizes: timings.map((t) => t.n) },
  };
}

/**
 * The offline reviewer: checks a complexity claim (`claimed_complexity`, else one named in the
 * constraints) by timing the solution over doubling input sizes and reading the growth band of the
 * log-log slope (complexity-classifier.ts). A claim slower than measured by a band or more fails.
 * With no claim it asks (`needs_clarification`, `missing_complexity_bound`): the tier above answers.
 *
 * @example await createReviewer(realSandbox)({ problem, code, claimed_complexity: 'O(log n)', task_type: 'review_complexity', objective, constraints: [] });
 */
export function createReviewer(sandbox: FleetSandbox, plan: ReviewPlan = REVIEW_PLAN): Specialist {
  return async function reviewer(request: SpecialistRequest): Promise<SpecialistResult> {
    const { problem } = request;
    const log: string[] = [];
    const target = verifierTarget('reviewer', request, log);
    if ('refused' in target) return target.refused;
    const { code, match } = target;
    const claim = request.claimed_complexity ?? claimFromText(request.constraints);
    // Checking a claim is the reviewer's task; with none it asks the tier above, never guesses one.
    if (claim === undefined) {
      log.push('no complexity bound to check: asking');
      return {
        status: 'needs_clarification',
        summary: `No complexity bound to check ${problem.function_name} against.`,
        confidence: 0,
        artifacts: [],
        log,
        error_type: MISSING_COMPLEXITY_BOUND,
        error_detail: `Which time complexity must ${problem.function_name} meet? The delegation names none (no task_data.claimed_complexity, no O(...) in its constraints).`,
        recoverable: true,
      };
    }
    const band = claimBand(claim);
    if (band === null) {
      log.push(`claim ${claim} cannot be timed`);
      return {
        status: 'failed',
        summary: `The claim ${claim} is not one the reviewer can time.`,
        confidence: 0,
        artifacts: [],
        log,
        error_type: 'unsupported_claim',
        error_detail: `Claim "${claim}" is not a power of n with an optional log factor; state it as O(1), O(log n), O(n), O(n log n), O(n^2) or O(n^3).`,
        recoverable: false,
      };
    }
    log.push(`timing ${match.family.id} inputs; claim: ${claim}`);
    const solution = { code, functionName: problem.function_name, signal: request.signal };
    const { timings, stopped, aborted } = await measureGrowth(sandbox, match.family, solution, plan, log);
    if (aborted)
      return cancelledResult('reviewer', timings.length >= 2 ? [analysis(claim, timings, 'cancelled')] : [], log);
    if (timings.length < plan.minSizes) {
      return {
        status: 'failed',
        summary: `Too few timings to judge growth (${timings.length} of ${plan.minSizes} sizes).`,
        confidence: 0,
        artifacts: timings.length >= 2 ? [analysis(claim, timings, 'inconclusive')] : [],
        log,
        error_type: 'timing_failed',
        error_detail: `The solution could not be timed ${stopped ?? 'at enough sizes'}; fix the solution or shorten its inputs.`,
        recoverable: stopped?.includes('timeout') ?? false,
      };
    }
    const exponent = growthExponent(timings);
    const measured = bandOf(exponent);
    const confidence = slopeAgreement(timings);
    const verdict = judgeClaim(band, exponent);
    const slope = exponent.toFixed(2);
    log.push(`log-log slope ${slope}: ${measured.label}; verdict ${verdict}`);
    const artifacts = [analysis(claim, timings, verdict)];
    if (verdict === 'violated') {
      return {
        status: 'failed',
        summary: `Claimed ${claim}, but the time grows like ${measured.label} (log-log slope ${slope}).`,
        confidence,
        artifacts,
        log,
        error_type: 'complexity_claim_violated',
        error_detail: `Doubling n from ${timings[0]!.n} to ${timings[timings.length - 1]!.n} multiplied the time by about 2^${slope}: that is ${measured.label}, not ${claim}.`,
        recoverable: false,
      };
    }
    const note =
      verdict === 'holds' ? `the claim ${claim} holds` : `the claim ${claim} holds as an upper bound but is loose`;
    return {
      status: 'success',
      summary: `Time grows like ${measured.label} (slope ${slope}): ${note}.`,
      confidence,
      artifacts,
      log,
    };
  };
}
