import type { CategoryGoal, MuscleGoal } from '../../../protocol/trainer/user-goals.ts';
import type { EquipmentItem, UserLocation } from '../../../protocol/trainer/user-locations.ts';
import type { Preference } from '../../../protocol/trainer/user-preferences.ts';
import type { UserProfile } from '../../../protocol/trainer/user-profile.ts';
import type { UserSettings } from '../../../protocol/trainer/user-settings.ts';

/** A number without float noise: 82, 82.5, 0.33. */
export function formatNumber(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** A share 0..1 as a whole percentage. */
export const formatShare = (share: number) => `${Math.round(share * 100)}%`;

/** The body stats lines of the user data XML (spec 001 §4.4), only those the user gave. */
export function formatBodyStats(profile: UserProfile): string[] {
  const lines: string[] = [];
  if (profile.sex !== undefined) lines.push(`Sex: ${profile.sex}`);
  if (profile.age !== undefined) lines.push(`Age: ${profile.age}`);
  if (profile.height_cm !== undefined) lines.push(`Height: ${formatNumber(profile.height_cm)}cm`);
  if (profile.weight_kg !== undefined) lines.push(`Weight: ${formatNumber(profile.weight_kg)}kg`);
  if (profile.body_fat_pct !== undefined) lines.push(`Body Fat: ${formatNumber(profile.body_fat_pct)}%`);
  return lines;
}

/** `user_profile`: name, body stats and experience. */
export function formatProfile(profile: UserProfile): string {
  const lines = formatBodyStats(profile);
  if (profile.display_name !== undefined) lines.unshift(`Name: ${profile.display_name}`);
  if (profile.experience_level !== undefined) lines.push(`Experience: ${profile.experience_level}`);
  return lines.length === 0 ? 'No profile data recorded.' : lines.join('\n');
}

/** `user_settings`: the unit preferences, as in the user data XML. */
export function formatSettings(settings: UserSettings): string {
  return [`Weight: ${settings.weight_unit}`, `Distance: ${settings.distance_unit}`].join('\n');
}

/** "Dumbbells (free_weights): 5, 10, 15, 20kg" or "Pull-up Bar". */
export function formatEquipmentItem(item: EquipmentItem): string {
  const type = item.type === undefined ? '' : ` (${item.type})`;
  const loads =
    item.weights === undefined ? '' : `: ${item.weights.map(formatNumber).join(', ')}${item.weight_unit ?? ''}`;
  return `${item.name}${type}${loads}`;
}

/** The equipment block of a location, indented under an `Equipment:` line. */
function formatEquipment(equipment: readonly EquipmentItem[], indent = ''): string[] {
  if (equipment.length === 0) return [`${indent}Equipment: none listed`];
  return [`${indent}Equipment:`, ...equipment.map((item) => `${indent}  - ${formatEquipmentItem(item)}`)];
}

/** The current location section of the user data XML (spec 001 §4.4). */
export function formatCurrentLocation(location: UserLocation): string {
  return [`Location: ${location.name}`, ...formatEquipment(location.equipment)].join('\n');
}

/** `all_locations`: every location with its id (for `set_current_location`) and equipment. */
export function formatLocations(locations: readonly UserLocation[]): string {
  if (locations.length === 0) return 'No locations saved.';
  return locations
    .flatMap((location) => [
      `- ${location.name} [id: ${location.id}]${location.current_location ? ' (current)' : ''}`,
      ...(location.description ? [`  ${location.description}`] : []),
      ...formatEquipment(location.equipment, '  '),
    ])
    .join('\n');
}

/** `category_goals`: "- strength: 40% (build a base)". */
export function formatCategoryGoals(goals: readonly CategoryGoal[]): string {
  if (goals.length === 0) return 'No category goals set.';
  return goals
    .map((goal) => `- ${goal.category}: ${formatShare(goal.share)}${goal.description ? ` (${goal.description})` : ''}`)
    .join('\n');
}

/** `muscle_goals`: "- Chest: 20%". */
export function formatMuscleGoals(goals: readonly MuscleGoal[]): string {
  if (goals.length === 0) return 'No muscle goals set.';
  return goals.map((goal) => `- ${goal.muscle}: ${formatShare(goal.share)}`).join('\n');
}

/** `active_preferences`: "- [injury] No jumping (until 2025-04-01)". */
export function formatPreferences(preferences: readonly Preference[]): string {
  if (preferences.length === 0) return 'No active preferences.';
  return preferences
    .map((p) => `- [${p.type}] ${p.description}${p.expires_at ? ` (until ${p.expires_at.slice(0, 10)})` : ''}`)
    .join('\n');
}
