import type { Route } from '../runtime/routing.ts';
import type { Tier } from './envelope.ts';

/** The tiers from the top down (spec 002's TierLevel 4 .. 1). */
export const TIER_ORDER = [
  'PROGRESS_MONITOR',
  'ABSTRACT_ARCHITECT',
  'ROUTING_DISPATCHER',
  'SPECIALIZED_FLEET',
] as const satisfies readonly Tier[];

/** The tier right below `tier` (the one it delegates to), or undefined for the fleet. */
export function tierBelow(tier: Tier): Tier | undefined {
  return TIER_ORDER[TIER_ORDER.indexOf(tier) + 1];
}

/** The tier right above `tier` (the one it reports to), or undefined for the Monitor. */
export function tierAbove(tier: Tier): Tier | undefined {
  const index = TIER_ORDER.indexOf(tier);
  return index > 0 ? TIER_ORDER[index - 1] : undefined;
}

/**
 * Spec 002's routing table (`from -> to : kind`): each tier delegates and cancels only to the tier
 * right below it, and reports outcomes only to the tier right above it (the escalation path runs
 * tier by tier, Fleet -> Dispatcher -> Architect -> Monitor).
 */
export const TIERS_ROUTES: readonly Route[] = TIER_ORDER.slice(0, -1).flatMap((upper, index) => {
  const lower = TIER_ORDER[index + 1]!;
  return [
    { from: upper, to: lower, data_type: 'delegation' },
    { from: upper, to: lower, data_type: 'cancellation' },
    { from: lower, to: upper, data_type: 'outcome' },
  ];
});
