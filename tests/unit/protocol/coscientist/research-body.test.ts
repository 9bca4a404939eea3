import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CreateResearchBodySchema, GuidanceBodySchema } from '../../../../protocol/coscientist/research-body.ts';

const example = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../../examples/${name}`, import.meta.url), 'utf8'));

describe('research bodies', () => {
  it("parse the README's examples, with defaults for what a goal leaves out", () => {
    expect(CreateResearchBodySchema.parse(example('coscientist-goal.json')).iterations).toBe(3);
    expect(GuidanceBodySchema.parse(example('coscientist-guidance.json')).text).toMatch(/protein-protein/);
    expect(CreateResearchBodySchema.parse({ goal: 'liver fibrosis' })).toMatchObject({
      iterations: 3,
      hypotheses_per_iteration: 4,
      preferences: [],
    });
  });

  it('name the field that is wrong', () => {
    const result = CreateResearchBodySchema.safeParse({ goal: 'x', domain: 'astrology', extra: 1 });
    expect(result.error!.issues.map((i) => i.path.join('.') || i.code).sort()).toEqual([
      'domain',
      'goal',
      'unrecognized_keys',
    ]);
  });
});
