import type { Experiments, Stories } from '../../../protocol/org/deliverables.ts';

/** `growth`'s rule: a flag per story, off by default, and an A/B experiment on it measured by its first criterion. */
export function experimentsFor(stories: Stories): Experiments {
  return {
    flags: stories.stories.map((story) => ({ key: `${story.resource}.enabled`, story_id: story.id, default: false })),
    experiments: stories.stories.map((story) => ({
      id: `exp_${story.resource}`,
      flag: `${story.resource}.enabled`,
      hypothesis: `Offering "${story.title}" makes more users reach: ${story.so_that}`,
      metric: `${story.resource}_completion_rate`,
      variants: ['control', 'treatment'],
    })),
  };
}
