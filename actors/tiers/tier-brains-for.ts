import type { ModelBackends } from '../models/model-backends.ts';
import { OFFLINE_SPECIALISTS, type FleetSpecialist } from './fleet/offline-specialists.ts';
import type { DispatcherBrain } from './planning/dispatcher.ts';
import type { ArchitectBrain } from './planning/plan.ts';
import { planningBrainsFor } from './planning/planning-brains-for.ts';

/** Every brain of the tiers: the Architect, the Dispatcher and the fleet's specialists by name. */
export interface TiersBrains {
  architect: ArchitectBrain;
  dispatcher: DispatcherBrain;
  specialists: Readonly<Record<string, FleetSpecialist>>;
}

/**
 * The tiers' brains as the model layer chooses them: offline by default (the rule-table
 * Architect, the router, and the offline fleet: `js-solver`, `test-designer`, `reviewer`); with
 * `ANTHROPIC_API_KEY`, Claude plans and routes, and the fleet also hosts `claude-solver` (whose
 * code still runs in the sandbox) for the Dispatcher to route `execute_code` to.
 *
 * @example
 * const brains = tierBrainsFor(services.models);
 */
export function tierBrainsFor(backends: ModelBackends): TiersBrains {
  const planning = planningBrainsFor(backends);
  const specialists: Record<string, FleetSpecialist> = { ...OFFLINE_SPECIALISTS };
  if (planning.solver) specialists['claude-solver'] = { taskTypes: ['execute_code'], run: planning.solver };
  return { architect: planning.architect, dispatcher: planning.dispatcher, specialists };
}
