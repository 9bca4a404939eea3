import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutcomeStatusSchema, type OutcomePayload } from '../../../protocol/tiers/payloads.ts';
import { outcomeArtifacts } from '../../../server/tiers/a2a-artifacts.ts';
import { tiersStateOf } from '../../../server/tiers/a2a-mapping.ts';

const TYPES = ['code', 'test_result', 'test_plan', 'complexity_review', 'aggregation_summary'];

/** An outcome artifact, inline or stored in Beads under a key of its own (`content` is what it holds). */
const artifactArb = fc.record({
  type: fc.constantFrom(...TYPES),
  subtask: fc.option(fc.constantFrom('solve', 'tests', 'review'), { nil: undefined }),
  content: fc.string({ maxLength: 40 }),
  stored: fc.boolean(),
});

type RawArtifact = typeof artifactArb extends fc.Arbitrary<infer T> ? T : never;

function outcomeOf(artifacts: RawArtifact[]): OutcomePayload {
  return {
    status: 'success',
    summary: 'done',
    result_refs: [],
    confidence: 1,
    execution_time_ms: 1,
    resources_used: {},
    surprise_flag: false,
    surprise_reason: null,
    error_type: null,
    error_detail: null,
    recoverable: null,
    artifacts: artifacts.map((a, i) => ({
      artifact_type: a.type,
      content_ref: a.stored ? `beads:execution/outputs/${i}` : null,
      inline_content: a.stored ? null : a.content,
      metadata: a.subtask === undefined ? {} : { subtask: a.subtask },
    })),
  };
}

describe("a tiers outcome's artifacts over A2A", () => {
  it('keeps every artifact in order, names each once, names its schema, and reads stored content back from Beads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(artifactArb, { maxLength: 8 }), async (raw) => {
        const beads = new Map(raw.map((a, i) => [`execution/outputs/${i}`, a.content]));
        const read = async (key: string) =>
          beads.has(key) ? [{ key, value: beads.get(key), version: 1, written_by: 'SPECIALIZED_FLEET' }] : [];
        const artifacts = await outcomeArtifacts(outcomeOf(raw), read);
        expect(artifacts.map((a) => (a.data as { content: string }).content)).toEqual(raw.map((a) => a.content));
        expect(artifacts.map((a) => a.schema)).toEqual(raw.map((a) => `tiers/${a.type}`));
        expect(new Set(artifacts.map((a) => a.name)).size).toBe(raw.length);
        // A type that comes once is named by its type alone.
        for (const [i, a] of raw.entries())
          if (raw.filter((b) => b.type === a.type).length === 1) expect(artifacts[i]!.name).toBe(a.type);
      }),
      { numRuns: 300 },
    );
  });

  it('reads success as completed, cancelled as canceled, a question to the user as input-required, a refusal as rejected, any other end as failed', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OutcomeStatusSchema.options, 'working' as const),
        fc.constantFrom(null, 'unsupported_problem', 'unsupported_language', 'tests_failed', 'timeout'),
        fc.boolean(),
        (status, errorType, waiting) => {
          const state = tiersStateOf({
            status,
            outcome: status === 'working' ? null : { ...outcomeOf([]), status, error_type: errorType },
            waiting_for_user: waiting ? { question: 'Which one?' } : null,
          });
          const expected =
            status === 'working' || status === 'throttled'
              ? 'working'
              : status === 'success'
                ? 'completed'
                : status === 'cancelled'
                  ? 'canceled'
                  : status === 'needs_clarification' && waiting
                    ? 'input-required'
                    : status === 'failed' &&
                        (errorType === 'unsupported_problem' || errorType === 'unsupported_language')
                      ? 'rejected'
                      : 'failed';
          expect(state).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
