import type { UserLocation } from '../../../protocol/trainer/user-locations.ts';
import type { UserProfile } from '../../../protocol/trainer/user-profile.ts';
import type { UserSettings } from '../../../protocol/trainer/user-settings.ts';
import { formatBodyStats, formatCurrentLocation, formatSettings } from './data-sources-format.ts';
import type { DataSourceRegistry } from './data-sources.ts';

/** The stable prefix sources (spec 001 §9.3), as fetched. */
interface UserDataSnapshot {
  profile: UserProfile;
  settings: UserSettings;
  locations: readonly UserLocation[];
}

const section = (tag: string, body: string) => `<${tag}>\n${body}\n</${tag}>`;

/**
 * Renders the user data XML of spec 001 §4.4: unit preferences always (they have defaults), body
 * stats when the user gave any, the current location when one is set.
 */
export function renderUserDataXml(snapshot: UserDataSnapshot): string {
  const sections = [section('unit_preferences', formatSettings(snapshot.settings))];
  const stats = formatBodyStats(snapshot.profile);
  if (stats.length > 0) sections.push(section('body_stats', stats.join('\n')));
  const current = snapshot.locations.find((location) => location.current_location);
  if (current !== undefined) sections.push(section('current_location', formatCurrentLocation(current)));
  return `<user_data>\n${sections.join('\n\n')}\n</user_data>`;
}

/** The XML last rendered from each (frozen) profile, with the settings and locations it was rendered with. */
const rendered = new WeakMap<object, { settings: object; locations: object; xml: string }>();

/**
 * Fetches `user_profile`, `user_settings` and `all_locations` afresh and renders the XML. The
 * same frozen documents (the user data store hands out the ones it holds until they change)
 * give the XML rendered from them before.
 */
export async function fetchUserDataXml(registry: DataSourceRegistry, userId: string): Promise<string> {
  const [profile, settings, locations] = await Promise.all([
    registry.user_profile.fetch(userId),
    registry.user_settings.fetch(userId),
    registry.all_locations.fetch(userId),
  ]);
  const frozen = [profile, settings, locations].every((doc) => Object.isFrozen(doc));
  const known = frozen ? rendered.get(profile) : undefined;
  if (known !== undefined && known.settings === settings && known.locations === locations) return known.xml;
  const xml = renderUserDataXml({ profile, settings, locations });
  if (frozen) rendered.set(profile, { settings, locations, xml });
  return xml;
}
