import type { ModelBackends } from '../models/model-backends.ts';
import type { OrgAgent } from '../../protocol/org/envelope.ts';
import { ORG_ROLES, orgBrain, type OrgBrainEnv } from './org-brains.ts';
import { claudeProducers } from './producers/claude-producers.ts';
import { OFFLINE_PRODUCERS, type OrgProducers } from './producers/org-producers.ts';

/** Every org agent's brain over the projects' workspaces, making deliverables with `env.produce`. */
export function orgBrains(env: OrgBrainEnv): Record<OrgAgent, ReturnType<typeof orgBrain>> {
  return Object.fromEntries(
    Object.entries(ORG_ROLES).map(([agent, role]) => [agent, orgBrain(agent as OrgAgent, role, env)]),
  ) as Record<OrgAgent, ReturnType<typeof orgBrain>>;
}

/**
 * How the org's agents make their deliverables, as the model layer chooses: Claude (forced tool
 * calls on `PRIMARY_MODEL`) when `ANTHROPIC_API_KEY` is set, else the offline rules. An OpenAI
 * key alone leaves them offline.
 *
 * @example
 * const brains = orgBrains({ workspaceOf, activity, produce: orgProducersFor(services.models) });
 */
export function orgProducersFor(backends: ModelBackends): OrgProducers {
  return backends.choose<OrgProducers>({
    offline: () => OFFLINE_PRODUCERS,
    anthropic: (access) => claudeProducers(access),
  });
}
