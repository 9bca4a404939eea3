import { SetCurrentLocationParamsSchema } from '../../../protocol/trainer/tools/set-current-location.ts';
import type { UserLocation } from '../../../protocol/trainer/user-locations.ts';
import { formatEquipmentItem } from '../user-data/data-sources-format.ts';
import { toolFailure, type ToolFailure } from './tool-result.ts';
import { defineTool } from './trainer-tool.ts';

/** The location as set_current_location reports it (spec 001 §6.6). */
export interface LocationSummary {
  id: string;
  name: string;
  description: string | null;
  equipment_count: number;
  equipment_summary: string;
}

export interface SetCurrentLocationResult {
  location: LocationSummary;
}

/** "Dumbbells (free_weights): 5, 10, 15, 20kg; Pull-up Bar", or a note that the place has no equipment. */
function summarizeEquipment(location: UserLocation): string {
  if (location.equipment.length === 0) return 'No equipment (bodyweight only)';
  return location.equipment.map(formatEquipmentItem).join('; ');
}

/** Picks the target: by id (preferred), else by case-insensitive name; several name matches are an error. */
function resolveLocation(
  locations: readonly UserLocation[],
  args: { location_id?: string | undefined; location_name?: string | undefined },
): UserLocation | ToolFailure {
  const byId = args.location_id === undefined ? undefined : locations.find((l) => l.id === args.location_id);
  if (byId) return byId;
  const known = locations.map((l) => `"${l.name}" (${l.id})`).join(', ') || 'none';
  if (args.location_name === undefined) {
    return toolFailure('location_not_found', `No location with id ${args.location_id}. Known locations: ${known}.`, [
      { path: 'location_id', message: 'no such location' },
    ]);
  }
  const wanted = args.location_name.trim().toLowerCase();
  const matches = locations.filter((l) => l.name.trim().toLowerCase() === wanted);
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length === 0) {
    return toolFailure('location_not_found', `No location named "${args.location_name}". Known locations: ${known}.`, [
      { path: 'location_name', message: 'no such location' },
    ]);
  }
  return toolFailure(
    'ambiguous_location',
    `${matches.length} locations are named "${args.location_name}": ${matches.map((l) => l.id).join(', ')}. Pass location_id.`,
    [{ path: 'location_name', message: 'matches several locations' }],
  );
}

/**
 * Makes one location the user's current one (spec 001 §6.6): every `current_location` flag is
 * cleared first, then the target's is set, in one atomic update of the user's locations.
 */
export const setCurrentLocationTool = defineTool<typeof SetCurrentLocationParamsSchema, SetCurrentLocationResult>({
  name: 'set_current_location',
  description:
    "Switch the user's active workout location. Pass location_id (preferred) or location_name (matched " +
    'case-insensitively); at least one is required.',
  parameters: SetCurrentLocationParamsSchema,
  terminal: false,
  writesUserData: true,
  statusMessage: { start: 'Switching location...', done: 'Location updated' },
  async execute(args, ctx) {
    if (!ctx.userData) return toolFailure('data_unavailable', 'User locations are not available in this runtime.');
    const { locations } = await ctx.userData.get(ctx.userId, 'all_locations');
    const target = resolveLocation(locations, args);
    if ('success' in target) return target;
    const stored = await ctx.userData.update(ctx.userId, 'all_locations', (doc) => ({
      locations: doc.locations
        .map((location) => ({ ...location, current_location: false }))
        .map((location) => (location.id === target.id ? { ...location, current_location: true } : location)),
    }));
    const current = stored.locations.find((location) => location.id === target.id && location.current_location);
    if (!current) {
      return toolFailure('location_not_found', `Location ${target.id} disappeared while switching; try again.`);
    }
    return {
      success: true,
      location: {
        id: current.id,
        name: current.name,
        description: current.description ?? null,
        equipment_count: current.equipment.length,
        equipment_summary: summarizeEquipment(current),
      },
    };
  },
  formatResult: ({ location }) =>
    `Current location is now "${location.name}" (${location.id}). Equipment (${location.equipment_count}): ` +
    `${location.equipment_summary}`,
});
