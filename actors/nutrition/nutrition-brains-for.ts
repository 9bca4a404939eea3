import type { ModelBackends } from '../models/model-backends.ts';
import { claudeNutritionBrains, type ClaudeBrainOptions } from './claude-brains.ts';
import { offlineNutritionBrains } from './offline-brains.ts';

/**
 * The nutrition pipeline's brains, as the model layer chooses them: Claude for NUTRITIONIST,
 * DIETITIAN, CHEF, COACH and PHYSICIAN when `ANTHROPIC_API_KEY` is set (on `PRIMARY_MODEL`),
 * else the offline brains. The pipeline has no OpenAI brains, so an OpenAI key alone leaves it
 * offline.
 *
 * @example
 * const brains = nutritionBrainsFor(openModelBackends(config));
 */
export function nutritionBrainsFor(backends: ModelBackends, options: Pick<ClaudeBrainOptions, 'onModelCall'> = {}) {
  return backends.choose({
    offline: () => offlineNutritionBrains(),
    anthropic: ({ client, model }) => claudeNutritionBrains({ client, model, ...options }),
  });
}
