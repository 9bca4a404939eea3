import type { ApiContract, Stories, UiPlan } from '../../../protocol/org/deliverables.ts';

/** `frontend`'s rule: one screen per story, calling the contract's endpoints for it. */
export function uiPlanFor(stories: Stories, contract: ApiContract, contractVersion: number): UiPlan {
  return {
    contract_version: contractVersion,
    screens: stories.stories.map((story) => ({
      id: `screen_${story.resource}`,
      story_id: story.id,
      calls: contract.endpoints.filter((e) => e.story_ids.includes(story.id)).map((e) => e.id),
    })),
  };
}
