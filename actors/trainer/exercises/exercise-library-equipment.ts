import type { Equipment } from '../../../protocol/trainer/tools/equipment.ts';

/**
 * Patterns that recognise free-form equipment names as a location lists them ("Dumbbells
 * (free_weights)", "Power Rack", "TRX"). Checked in order, so specific names come before the
 * general ones they contain ("ez curl bar" before "bar", "leg press" before "press").
 */
const PATTERNS: readonly [RegExp, Equipment][] = [
  [/\bez\b.*\bbar\b|\bez ?curl\b/, 'ez_bar'],
  [/\btrap ?bar\b|\bhex ?bar\b/, 'barbell'],
  [/\bpull ?up\b|\bchin ?up\b/, 'pull_up_bar'],
  [/\bdip\b|\bparallel bars?\b/, 'dip_station'],
  [/\blat ?pull ?down\b/, 'lat_pulldown_machine'],
  [/\bleg ?press\b/, 'leg_press_machine'],
  [/\bleg ?curl\b|\bhamstring curl\b/, 'leg_curl_machine'],
  [/\bleg ?extension\b/, 'leg_extension_machine'],
  [/\babduct/, 'hip_abduction_machine'],
  [/\badduct/, 'hip_adduction_machine'],
  [/\bpec ?deck\b|\bchest fly machine\b/, 'pec_deck_machine'],
  [/\bhyperextension\b|\broman chair\b|\bback extension\b|\bghd\b/, 'hyperextension_bench'],
  [/\bcable|\bfunctional trainer\b|\bpulley\b/, 'cable_machine'],
  [/\bsquat (rack|stand)|\bpower rack\b|\bpower cage\b|\brack\b/, 'squat_rack'],
  [/\bbench\b/, 'bench'],
  [/\bdumb ?bell|\bdb\b/, 'dumbbell'],
  [/\bkettle ?bell|\bkb\b/, 'kettlebell'],
  [/\bbar ?bell|\bolympic bar\b/, 'barbell'],
  [/\bplates?\b/, 'weight_plate'],
  [/\bbands?\b|\bresistance\b|\bmini ?band\b/, 'resistance_band'],
  [/\btrx\b|\bsuspension\b|\brings?\b/, 'suspension_trainer'],
  [/\bmed(icine)? ?ball\b|\bslam ?ball\b|\bwall ?ball\b/, 'medicine_ball'],
  [/\bstability ball\b|\bswiss ball\b|\bexercise ball\b|\bphysio ball\b/, 'stability_ball'],
  [/\bab ?(wheel|roller)\b/, 'ab_wheel'],
  [/\bplyo\b|\bbox\b|\bstep ?(platform|box)?\b/, 'plyo_box'],
  [/\bjump ?rope\b|\bskipping rope\b|\bspeed rope\b/, 'jump_rope'],
  [/\btreadmill\b/, 'treadmill'],
  [/\bbike\b|\bcycle\b|\bcycling\b|\bspin\b/, 'stationary_bike'],
  [/\brow(er|ing)\b|\berg\b/, 'rowing_machine'],
  [/\belliptical\b|\bcross ?trainer\b/, 'elliptical'],
  [/\bmat\b/, 'mat'],
];

/** Maps a free-form equipment name onto the library's vocabulary; undefined when unknown. */
export function normalizeEquipmentName(name: string): Equipment | undefined {
  const text = name
    .toLowerCase()
    .replace(/[_\-/]+/g, ' ')
    .replace(/[^a-z0-9 ]+/g, ' ');
  return PATTERNS.find(([pattern]) => pattern.test(text))?.[1];
}

/** Maps every name it can, without duplicates; names it does not know are dropped. */
export function normalizeEquipmentList(names: readonly string[]): Equipment[] {
  const known = names.map(normalizeEquipmentName).filter((item): item is Equipment => item !== undefined);
  return [...new Set(known)];
}
