import type { ModelBackends } from '../../models/model-backends.ts';
import type { Specialist } from '../fleet/specialist-result.ts';
import { claudeArchitect } from './claude-architect.ts';
import { claudeDispatcher } from './claude-dispatcher.ts';
import { claudeSolver } from './claude-solver.ts';
import type { DispatcherBrain } from './dispatcher.ts';
import { offlineArchitect } from './offline-architect.ts';
import { offlineDispatcher } from './offline-dispatcher.ts';
import type { ArchitectBrain } from './plan.ts';

/** The brains of the tiers that plan, and the Claude solver when there is one. */
export interface PlanningBrains {
  architect: ArchitectBrain;
  dispatcher: DispatcherBrain;
  /** `claudeSolver` with a key (the fleet hosts it beside the offline specialists, as `claude-solver`); null offline. */
  solver: Specialist | null;
  /** `offline` or `anthropic`: what `resources_used` may name. */
  kind: 'offline' | 'anthropic';
}

/**
 * The planning brains as the model layer chooses them: Claude for the Architect, the Dispatcher
 * and a solver when `ANTHROPIC_API_KEY` is set (on `PRIMARY_MODEL`), else the offline rule table
 * and router and no model solver. An OpenAI key alone leaves them offline.
 *
 * @example
 * const { architect, dispatcher, solver } = planningBrainsFor(services.models);
 */
export function planningBrainsFor(backends: ModelBackends): PlanningBrains {
  return backends.choose<PlanningBrains>({
    offline: () => ({ architect: offlineArchitect, dispatcher: offlineDispatcher, solver: null, kind: 'offline' }),
    anthropic: (access) => ({
      architect: claudeArchitect(access),
      dispatcher: claudeDispatcher(access),
      solver: claudeSolver(access),
      kind: 'anthropic',
    }),
  });
}
