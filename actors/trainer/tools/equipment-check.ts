import type { Equipment } from '../../../protocol/trainer/tools/equipment.ts';
import type { UserLocation } from '../../../protocol/trainer/user-locations.ts';
import { alternativesFor, getLibraryExercise, isDoableWith } from '../exercises/exercise-library.ts';
import { normalizeEquipmentList } from '../exercises/exercise-library-equipment.ts';
import type { ToolContext } from './tool-context.ts';

/** The current location and its equipment in the library's vocabulary (names it cannot map are left out). */
export function currentLocationEquipment(
  locations: readonly UserLocation[],
): { location: UserLocation; equipment: Equipment[] } | undefined {
  const location = locations.find((candidate) => candidate.current_location);
  return location
    ? { location, equipment: normalizeEquipmentList(location.equipment.map((item) => item.name)) }
    : undefined;
}

/**
 * Warnings for exercises the library knows that need equipment the current location does not
 * list, with alternatives that fit. Advisory only: a lookup failure or an unknown exercise
 * gives no warning, and the tool call still succeeds.
 */
export async function equipmentWarnings(ctx: ToolContext, exerciseNames: readonly string[]): Promise<string[]> {
  if (!ctx.userData) return [];
  let current: ReturnType<typeof currentLocationEquipment>;
  try {
    current = currentLocationEquipment((await ctx.userData.get(ctx.userId, 'all_locations')).locations);
  } catch {
    return [];
  }
  if (!current) return [];
  const { location, equipment } = current;
  return exerciseNames.flatMap((name) => {
    const entry = getLibraryExercise(name);
    if (!entry || isDoableWith(entry, equipment)) return [];
    const missing = entry.equipment.filter((item) => !equipment.includes(item));
    const options = alternativesFor(entry.id, equipment)
      .slice(0, 3)
      .map((alternative) => alternative.name);
    const hint = options.length > 0 ? ` Alternatives there: ${options.join(', ')}.` : '';
    return [`"${name}" needs ${missing.join(', ')}, which ${location.name} does not list.${hint}`];
  });
}
