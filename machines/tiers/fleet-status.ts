import {
  accuracyOfSpecialist,
  EMPTY_ROUTING_ACCURACY,
  type RoutingAccuracy,
} from '../../actors/tiers/monitor/routing-accuracy.ts';
import type { SpecialistStatus } from '../../actors/tiers/planning/dispatcher.ts';
import type { TaskContext } from './task-context.ts';

/** The fleet as the Dispatcher routes over it: each specialist, its load now and its past accuracy. */
export async function fleetStatus(ctx: TaskContext): Promise<SpecialistStatus[]> {
  const accuracy =
    ((await ctx.beads.get('system/routing-accuracy'))?.value as RoutingAccuracy | undefined) ?? EMPTY_ROUTING_ACCURACY;
  const load = new Map<string, number>();
  for (const node of ctx.tree.nodes()) {
    const specialist =
      node.status === 'open' ? (node.data as { specialist?: string } | undefined)?.specialist : undefined;
    if (specialist) load.set(specialist, (load.get(specialist) ?? 0) + 1);
  }
  return Object.entries(ctx.brains.specialists).map(([name, specialist]) => ({
    name,
    task_types: specialist.taskTypes,
    available: true,
    load: load.get(name) ?? 0,
    ...accuracyOfSpecialist(accuracy, name),
  }));
}
