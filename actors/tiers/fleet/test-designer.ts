import { ABORTED, untilAborted } from './abortable.ts';
import type { EdgeCase } from './algorithm-family.ts';
import { readConstraintHints } from './constraint-hints.ts';
import type { CallResult, FleetSandbox } from './fleet-sandbox.ts';
import { cancelledResult } from './specialist-refusals.ts';
import { verifierTarget } from './verifier-target.ts';
import { testConfidence } from './test-confidence.ts';
import type { SpecialistArtifact, SpecialistRequest, SpecialistResult, Specialist } from './specialist-result.ts';
import { preview } from './value-shapes.ts';

/** One edge case as reported: what it probed, which property, and whether it held. */
export interface EdgeCaseReport {
  name: string;
  kind: EdgeCase['kind'];
  input: string;
  property: string;
  holds: boolean;
  violation?: string;
}

/** The property of a case over its results, or why the calls themselves failed. */
function checkCase(edge: EdgeCase, results: (CallResult | undefined)[]): string | null {
  const broken = results.findIndex((r) => !r || !r.ok);
  if (broken !== -1) {
    const call = edge.calls[broken];
    return `calling with ${preview(call)} ${results[broken] ? `threw ${results[broken]!.error}` : 'gave no result'}`;
  }
  return edge.check(results.map((r) => r!.value));
}

function testPlan(cases: EdgeCase[]): SpecialistArtifact {
  const plan = cases.map((c) => ({
    name: c.name,
    kind: c.kind,
    input: preview(c.calls[0], 120),
    property: c.property,
  }));
  return { artifact_type: 'test_plan', content: JSON.stringify(plan), metadata: { cases: cases.length } };
}

/**
 * The offline test-designer: derives edge cases from the constraints and the problem's family
 * (empty input, single element, not found, bounds, duplicates, negatives, a large input), runs
 * the given `code` on them in one sandbox run, and checks each answer by a property of the
 * problem (binary search: -1 iff the target is absent, else nums[result] === target), never by
 * an invented expected value. A violated property fails the result and names the case.
 *
 * @example await createTestDesigner(realSandbox)({ problem, code, task_type: 'design_tests', objective, constraints: ['Must handle empty arrays'] });
 */
export function createTestDesigner(sandbox: FleetSandbox): Specialist {
  return async function testDesigner(request: SpecialistRequest): Promise<SpecialistResult> {
    const { problem } = request;
    const log: string[] = [];
    const target = verifierTarget('test-designer', request, log);
    if ('refused' in target) return target.refused;
    const { code, match } = target;
    const hints = readConstraintHints([...request.constraints, problem.statement]);
    const cases = match.family.edgeCases(hints, problem.test_cases);
    log.push(
      `family ${match.family.id}; constraints read as ${JSON.stringify(hints)}`,
      `designed ${cases.length} edge cases: ${cases.map((c) => c.name).join(', ')}`,
    );
    if (request.signal?.aborted) return cancelledResult('test-designer', [testPlan(cases)], log);
    const calls = cases.flatMap((c) => c.calls);
    const run = sandbox.runCalls({
      code: code,
      functionName: problem.function_name,
      calls,
      signal: request.signal,
    });
    const report = await untilAborted(run, request.signal);
    if (report === ABORTED) return cancelledResult('test-designer', [testPlan(cases)], log);
    log.push(`ran ${calls.length} calls: ${report.verdict}${report.detail ? ` (${report.detail})` : ''}`);
    let offset = 0;
    const reports: EdgeCaseReport[] = cases.map((edge) => {
      const results = edge.calls.map((_, i) => report.results[offset + i]);
      offset += edge.calls.length;
      const violation = checkCase(edge, results);
      const input = preview(edge.calls[0], 120);
      const base = { name: edge.name, kind: edge.kind, input, property: edge.property };
      return violation === null ? { ...base, holds: true } : { ...base, holds: false, violation };
    });
    const held = reports.filter((r) => r.holds).length;
    const failedCases = reports.filter((r) => !r.holds);
    const artifact: SpecialistArtifact = {
      artifact_type: 'test_result',
      content: `${held}/${reports.length} edge cases hold\n${JSON.stringify(reports)}`,
      metadata: {
        passed: held,
        failed: failedCases.length,
        family: match.family.id,
        verdict: report.verdict,
        kinds: [...new Set(cases.map((c) => c.kind))],
      },
    };
    const first = failedCases[0];
    if (!first) {
      return {
        status: 'success',
        summary: `${held}/${reports.length} edge cases hold their ${match.family.title.toLowerCase()} properties.`,
        confidence: testConfidence(held, reports.length),
        artifacts: [artifact],
        log,
      };
    }
    const sandboxBroke = report.verdict !== 'ok';
    return {
      status: 'failed',
      summary: `${failedCases.length}/${reports.length} edge cases break the solution; first: ${first.name}.`,
      confidence: 0,
      artifacts: [artifact],
      log,
      error_type: sandboxBroke ? `solution_${report.verdict}` : 'property_violated',
      error_detail:
        `Edge case "${first.name}" (input ${first.input}): ${first.violation}. Property: ${first.property}.` +
        (sandboxBroke ? ` The run ended with ${report.verdict}${report.detail ? `: ${report.detail}` : ''}.` : ''),
      recoverable: false,
    };
  };
}
