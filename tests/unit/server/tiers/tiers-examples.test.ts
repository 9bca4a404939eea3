import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { majorOf } from '../../../../protocol/runtime/version-rule.ts';
import { TIERS_VERSION_RULE, TiersEnvelopeSchema } from '../../../../protocol/tiers/envelope.ts';
import { DelegationPayloadSchema } from '../../../../protocol/tiers/payloads.ts';
import { ProblemSchema } from '../../../../protocol/tiers/problem.ts';
import {
  CancelRequestSchema,
  ClarificationRequestSchema,
  TaskRequestSchema,
} from '../../../../protocol/tiers/task-request.ts';

const example = async (name: string): Promise<unknown> =>
  JSON.parse(await readFile(new URL(`../../../../examples/${name}`, import.meta.url), 'utf8'));

const BODIES: [string, z.ZodType][] = [
  ['tiers-task.json', TaskRequestSchema],
  ['tiers-task-racing.json', TaskRequestSchema],
  ['tiers-task-ambiguous.json', TaskRequestSchema],
  ['tiers-task-unknown.json', TaskRequestSchema],
  ['tiers-cancel.json', CancelRequestSchema],
  ['tiers-clarification.json', ClarificationRequestSchema],
  ['tiers-message.json', TiersEnvelopeSchema],
];

describe("the README's tiers examples", () => {
  it.each(BODIES)('%s parses with the schema of its route', async (name, schema) => {
    const parsed = schema.safeParse(await example(name));
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it("tiers-message.json is a delegation to the Architect carrying a Problem in task_data.problem, of the version's major", async () => {
    const message = TiersEnvelopeSchema.parse(await example('tiers-message.json'));
    expect([message.source_tier, message.target_tier]).toEqual(['PROGRESS_MONITOR', 'ABSTRACT_ARCHITECT']);
    expect(majorOf(message.version)).toBe(TIERS_VERSION_RULE.major);
    const delegation = DelegationPayloadSchema.parse(message.payload);
    expect(ProblemSchema.parse(delegation.task_data['problem']).language).toBe('javascript');
  });

  it('tiers-message-v2.json is the same kind of message from another major (refused over HTTP)', async () => {
    const message = (await example('tiers-message-v2.json')) as { version: string; target_tier: string };
    expect(majorOf(message.version)).toBe(2);
    expect(majorOf(message.version)).not.toBe(TIERS_VERSION_RULE.major);
    expect(message.target_tier).toBe('ABSTRACT_ARCHITECT');
  });

  it('tiers-task-ambiguous.json holds one input with two expected values (the clarification case)', async () => {
    const { problem } = TaskRequestSchema.parse(await example('tiers-task-ambiguous.json'));
    const inputs = problem.test_cases.map((testCase) => JSON.stringify(testCase.input));
    expect(new Set(inputs).size).toBeLessThan(inputs.length);
  });
});
