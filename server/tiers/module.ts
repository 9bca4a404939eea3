import type { FleetSpecialist } from '../../actors/tiers/fleet/offline-specialists.ts';
import { tierBrainsFor } from '../../actors/tiers/tier-brains-for.ts';
import { MACHINES } from '../../machines/tiers/machines.ts';
import type { TierBrains } from '../../machines/tiers/task-context.ts';
import type { DelegationRecord } from '../../protocol/runtime/delegation-record.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { Tier } from '../../protocol/tiers/envelope.ts';
import { defineSystemModule, type SystemServices } from '../system-module.ts';
import type { RunHostOptions } from '../run-host/run-host.ts';
import { tiersA2a } from './a2a-mapping.ts';
import { DelegationRuns, delegationRunSource } from './delegation-runs.ts';
import { tiersObjects } from './restate-tiers-object.ts';
import { RestateTiersService } from './restate-tiers-service.ts';
import { TiersServiceImpl } from './tiers-service.ts';
import { tiersRoutes } from './tiers-routes.ts';
import { TIERS_ROUTE_DOCS } from './tiers-route-docs.ts';

/** What tests and benchmarks may swap in the tiers system. */
export interface TiersModuleOptions {
  /** The planning brains, instead of the ones the model layer chooses. */
  architect?: TierBrains['architect'];
  dispatcher?: TierBrains['dispatcher'];
  /** Specialists by name, over the fleet's (a gated or lying solver in the e2e tests). */
  specialists?: Readonly<Record<string, FleetSpecialist>>;
  /** Default timeouts by the tier delegated to (spec 002's are Fleet 30 s, Dispatcher 60 s, Architect 120 s). */
  timeouts?: Partial<Record<Tier, number>>;
  admission?: RunHostOptions['admission'];
  /** `npm run start:cluster`: the Restate ingress whose `tiers-host` objects are the tasks (the options above are the embedded host's). */
  restateIngressUrl?: string;
}

/**
 * Tiered delegation (spec 002): `/tiers`, one supervised run per task on the run host (journals
 * `DATA_DIR/journal/tiers`, `tiers-trees` and `tiers-beads`), the `delegation` machine drawn by
 * the visualizer with each delegation of a working task as a live run. With `ANTHROPIC_API_KEY` the Architect and the Dispatcher ask Claude and the fleet
 * gains `claude-solver`; offline otherwise. The fleet's specialists run every solution in the sandbox either way.
 * On `npm run start:cluster` each task is a `tiers-host` object on Restate, its calls made by `tiers-run`.
 */
export default defineSystemModule<TiersModuleOptions>({
  name: 'tiers',
  title: 'Tiered delegation',
  spec: '002_41aa6f9ab341b431.txt',
  configKeys: [
    {
      name: 'ANTHROPIC_API_KEY',
      meaning: 'ABSTRACT_ARCHITECT and ROUTING_DISPATCHER ask Claude (PRIMARY_MODEL); claude-solver joins the fleet',
    },
  ],
  machines: MACHINES,
  routeDocs: TIERS_ROUTE_DOCS,
  restate: {
    services: (models) => [...tiersObjects(models)],
    options: (ingressUrl) => ({ restateIngressUrl: ingressUrl }),
  },
  async open(services, options = {}) {
    const admission = { ...services.config.admission, ...options.admission };
    const service = options.restateIngressUrl
      ? await RestateTiersService.open({
          ingressUrl: options.restateIngressUrl,
          store: services.store,
          seen: await services.journal<unknown>('tiers-external'),
          admission,
          ...(services.clock ? { clock: services.clock } : {}),
        })
      : await openEmbedded(services, options, admission);
    // The visualizer's live view: each delegation a running `delegation` chart, driven by the task's events.
    const delegations = new DelegationRuns();
    service.hub.tap(delegations.hear);
    return {
      routes: { '/tiers': tiersRoutes(service) },
      runSources: [delegationRunSource(service, delegations)],
      a2a: tiersA2a(service),
      close: async () => {
        delegations.close();
        await service.close();
      },
    };
  },
});

/** The tiers in this process: every task's run, tree and Beads on the run host and its journals. */
async function openEmbedded(
  services: SystemServices,
  options: TiersModuleOptions,
  admission: RunHostOptions['admission'],
): Promise<TiersServiceImpl> {
  // With a key, Claude's solver joins the fleet beside the offline specialists (its code runs in the sandbox too).
  const brains = tierBrainsFor(services.models);
  return TiersServiceImpl.open({
    store: services.store,
    journal: await services.journal<RoutedRecord>('tiers'),
    trees: await services.journal<DelegationRecord>('tiers-trees'),
    beads: await services.journal<unknown>('tiers-beads'),
    brains: {
      architect: options.architect ?? brains.architect,
      dispatcher: options.dispatcher ?? brains.dispatcher,
      specialists: { ...brains.specialists, ...options.specialists },
    },
    ...(admission ? { admission } : {}),
    ...(services.clock ? { clock: services.clock } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
  });
}
