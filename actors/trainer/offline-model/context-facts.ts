import type { Equipment } from '../../../protocol/trainer/tools/equipment.ts';
import { MUSCLES, type Muscle } from '../../../protocol/trainer/tools/muscle.ts';
import { normalizeEquipmentList } from '../exercises/exercise-library-equipment.ts';
import { musclesIn } from './text-cues.ts';

/** The user's current location as the user data XML shows it (spec 001 §4.4). */
export interface CurrentLocation {
  name: string;
  /** The equipment in the library's vocabulary; [] for none listed (bodyweight). */
  equipment: Equipment[];
  /** The equipment as the user named it. */
  equipmentNames: string[];
}

/** Reads `<current_location>` of the user data XML; undefined when no location is current. */
export function currentLocationOf(userDataXml: string): CurrentLocation | undefined {
  const body = /<current_location>\n?([\s\S]*?)<\/current_location>/.exec(userDataXml)?.[1];
  if (body === undefined) return undefined;
  const name = /^Location: (.+)$/m.exec(body)?.[1]?.trim() ?? 'your location';
  const equipmentNames = [...body.matchAll(/^\s+- (.+)$/gm)].map(([, line = '']) =>
    line.replace(/\s*[(:].*$/, '').trim(),
  );
  return { name, equipment: normalizeEquipmentList(equipmentNames), equipmentNames };
}

/** One saved location as `all_locations` lists it. */
export interface KnownLocation {
  id: string;
  name: string;
  current: boolean;
}

/** Reads the `all_locations` knowledge: "- Home Gym [id: loc-1] (current)". */
export function locationsOf(text: string): KnownLocation[] {
  return [...text.matchAll(/^- (.+?) \[id: ([^\]]+)\]( \(current\))?$/gm)].map(([, name = '', id = '', current]) => ({
    id,
    name,
    current: current !== undefined,
  }));
}

/** Reads `category_goals` ("- strength: 40% (...)"), the largest share first. */
export function categoryGoalsOf(text: string): string[] {
  return [...text.matchAll(/^- ([^:\n]+): (\d+)%/gm)]
    .map(([, category = '', share = '0']) => ({ category: category.trim(), share: Number(share) }))
    .sort((a, b) => b.share - a.share)
    .map((goal) => goal.category);
}

/** Reads `muscle_goals` ("- Chest: 20%"), the largest share first. */
export function muscleGoalsOf(text: string): Muscle[] {
  return [...text.matchAll(/^- ([A-Za-z ]+): (\d+)%/gm)]
    .map(([, muscle = '', share = '0']) => ({ muscle: muscle.trim(), share: Number(share) }))
    .filter((goal): goal is { muscle: Muscle; share: number } => (MUSCLES as readonly string[]).includes(goal.muscle))
    .sort((a, b) => b.share - a.share)
    .map((goal) => goal.muscle);
}

/** What the user's preferences rule out: words of exercise names, and injured muscles. */
export interface Avoidances {
  words: string[];
  muscles: Muscle[];
}

/** Reads `active_preferences` ("- [injury] Sore shoulder", "- [exercise] No burpees"). */
export function avoidancesOf(text: string): Avoidances {
  const words = new Set<string>();
  const muscles = new Set<Muscle>();
  for (const [, type = '', description = ''] of text.matchAll(/^- \[(\w+)\] (.+)$/gm)) {
    const lower = description.toLowerCase();
    const ruledOut =
      /\b(?:no|avoid|avoiding|without|skip|hate|dislike|don'?t like|can'?t do)\s+([a-z][a-z -]{2,40})/.exec(lower)?.[1];
    for (const word of ruledOut?.split(/[^a-z]+/) ?? []) if (word.length > 3) words.add(word.replace(/s$/, ''));
    if (type === 'injury') for (const muscle of musclesIn(lower)) muscles.add(muscle);
  }
  return { words: [...words], muscles: [...muscles] };
}

/** Exercise names of the `workout_history` knowledge ("  - Push-Up (reps): ..."), most recent first. */
export function recentExercisesOf(text: string): string[] {
  return [...text.matchAll(/^ {2}- (.+?) \((?:reps|hold|duration|intervals)\)/gm)].map(([, name = '']) => name);
}
