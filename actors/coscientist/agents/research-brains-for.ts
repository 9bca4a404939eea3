import type { ModelBackends } from '../../models/model-backends.ts';
import type { AgentBrains } from './agent-context.ts';
import { claudeBrains } from './claude/claude-brains.ts';
import { OFFLINE_BRAINS } from './offline-brains.ts';

/**
 * The co-scientist's brains as the model layer chooses them: Claude for every agent when
 * `ANTHROPIC_API_KEY` is set (on `PRIMARY_MODEL`), else the offline knowledge-base agents. An
 * OpenAI key alone leaves them offline.
 *
 * @example
 * const brains = researchBrainsFor(services.models);
 */
export function researchBrainsFor(backends: ModelBackends): AgentBrains {
  return backends.choose<AgentBrains>({ offline: () => OFFLINE_BRAINS, anthropic: (access) => claudeBrains(access) });
}
