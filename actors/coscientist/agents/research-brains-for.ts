import type { ModelBackends } from '../../models/model-backends.ts';
import type { AgentBrains } from './agent-context.ts';
import { OFFLINE_BRAINS } from './offline-brains.ts';

/** The co-scientist's brains as the model layer chooses them. */
export function researchBrainsFor(backends: ModelBackends): AgentBrains {
  return backends.choose<AgentBrains>({ offline: () => OFFLINE_BRAINS });
}
