import type { Stories, TestPlan } from '../../../protocol/org/deliverables.ts';

/**
 * `sdte`'s rule: one case per acceptance criterion, tracing to it and its story, against the
 * story's create endpoint (`create_<resource>`, the contract's naming rule).
 */
export function testPlanFor(stories: Stories): TestPlan {
  const cases = stories.stories.flatMap((story) => {
    return story.acceptance_criteria.map((criterion) => ({
      id: `TC-${criterion.id}`,
      story_id: story.id,
      criterion_id: criterion.id,
      endpoint_id: `create_${story.resource}`,
      steps: [`Given a ${story.as_a}`, `When they ${story.i_want.toLowerCase()}`, `Then: ${criterion.text}`],
      expected: criterion.text,
    }));
  });
  const criteria = stories.stories.reduce((n, story) => n + story.acceptance_criteria.length, 0);
  return { cases, coverage: { criteria, covered: new Set(cases.map((c) => c.criterion_id)).size } };
}
