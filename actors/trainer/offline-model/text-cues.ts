import type { Equipment } from '../../../protocol/trainer/tools/equipment.ts';
import type { ExerciseType } from '../../../protocol/trainer/tools/exercise.ts';
import type { Muscle } from '../../../protocol/trainer/tools/muscle.ts';
import { normalizeEquipmentName } from '../exercises/exercise-library-equipment.ts';

/** Muscles trained in a full-body session. */
export const FULL_BODY: readonly Muscle[] = ['Quadriceps', 'Chest', 'Back', 'Glutes', 'Shoulders', 'Hamstrings', 'Abs'];
export const LEGS: readonly Muscle[] = ['Quadriceps', 'Hamstrings', 'Glutes', 'Calves'];

/** Checked in order; a matched phrase is blanked so "lower back" does not also read as "back". */
const MUSCLE_CUES: readonly [RegExp, readonly Muscle[]][] = [
  [/\blower[- ]?back\b|\berectors?\b/g, ['Lower Back']],
  [/\bupper[- ]?body\b/g, ['Chest', 'Back', 'Shoulders', 'Biceps', 'Triceps']],
  [/\bfull[- ]?body\b|\btotal[- ]?body\b|\bwhole[- ]?body\b/g, FULL_BODY],
  [/\blower[- ]?body\b|\blegs?\b/g, LEGS],
  [/\bpush\b(?![- ]?ups?)/g, ['Chest', 'Shoulders', 'Triceps']],
  [/\bpull\b(?![- ]?ups?)/g, ['Back', 'Biceps', 'Trapezius']],
  [/\barms?\b/g, ['Biceps', 'Triceps', 'Forearms']],
  [/\bchest\b|\bpecs?\b|\bpectorals?\b/g, ['Chest']],
  [/\bback\b|\blats?\b/g, ['Back']],
  [/\bshoulders?\b|\bdelts?\b|\bdeltoids?\b/g, ['Shoulders']],
  [/\bbiceps?\b|\bbis\b/g, ['Biceps']],
  [/\btriceps?\b|\btris\b/g, ['Triceps']],
  [/\babs\b|\babdominals?\b|\bcore\b|\bsix[- ]?pack\b/g, ['Abs']],
  [/\bquads?\b|\bquadriceps\b/g, ['Quadriceps']],
  [/\bhamstrings?\b|\bhammies\b/g, ['Hamstrings']],
  [/\bglutes?\b|\bbutt\b|\bbooty\b/g, ['Glutes']],
  [/\bcalf\b|\bcalves\b/g, ['Calves']],
  [/\btraps?\b|\btrapezius\b/g, ['Trapezius']],
  [/\babductors?\b|\bouter thighs?\b/g, ['Abductors']],
  [/\badductors?\b|\binner thighs?\b/g, ['Adductors']],
  [/\bforearms?\b|\bgrip\b/g, ['Forearms']],
  [/\bneck\b/g, ['Neck']],
];

/** The muscles a message names, in the order it names them, without duplicates. */
export function musclesIn(text: string): Muscle[] {
  let rest = text.toLowerCase();
  const found: { at: number; muscles: readonly Muscle[] }[] = [];
  for (const [pattern, muscles] of MUSCLE_CUES) {
    rest = rest.replace(pattern, (match, at: number) => {
      found.push({ at, muscles });
      return ' '.repeat(match.length);
    });
  }
  const ordered = found.sort((a, b) => a.at - b.at).flatMap((entry) => entry.muscles);
  return [...new Set(ordered)];
}

const GOAL_CUES: readonly [RegExp, string][] = [
  [/\bstrength\b|\bstrong(er)?\b|\bheavy\b|\bpower ?lifting\b/, 'strength'],
  [
    /\bhypertroph|\bmuscle (growth|size|mass|gain)\b|\bbulk|\bbuild(ing)? muscle\b|\bgain muscle\b|\bsize\b|\btone\b/,
    'hypertrophy',
  ],
  [/\bendurance\b|\bstamina\b/, 'endurance'],
  [
    /\bcardio\b|\bconditioning\b|\bhiit\b|\bfat[- ]?loss\b|\bweight[- ]?loss\b|\blose weight\b|\bburn\b|\bsweat/,
    'cardio',
  ],
  [/\bmobility\b|\bstretch|\bflexib|\byoga\b/, 'mobility'],
  [/\bpower\b|\bexplosive\b|\bathletic|\bjump higher\b/, 'power'],
  [/\bstability\b|\bbalance\b/, 'stability'],
  [/\brecovery\b|\brecover\b|\brest day\b|\bsore\b/, 'recovery'],
];

/** The goal categories a text names (a message, or a user's goal names), library spelling. */
export function goalsIn(text: string): string[] {
  const lower = text.toLowerCase();
  return GOAL_CUES.filter(([pattern]) => pattern.test(lower)).map(([, goal]) => goal);
}

/** Exercise types a message asks for: HIIT wants intervals, a run a duration, a stretch a hold. */
export function typesIn(text: string): ExerciseType[] {
  const lower = text.toLowerCase();
  const types = new Set<ExerciseType>();
  if (/\bhiit\b|\binterval|\btabata\b|\bsprints?\b|\bemom\b/.test(lower)) types.add('intervals');
  if (/\bcardio\b|\brun(ning)?\b|\bjog|\bbike\b|\bcycling\b|\browing\b|\bwalk/.test(lower)) types.add('duration');
  if (/\bstretch|\bmobility\b|\bisometric|\bplanks?\b|\bholds?\b|\byoga\b/.test(lower)) types.add('hold');
  return [...types];
}

/**
 * Equipment the message limits the workout to: [] for "bodyweight"/"no equipment", the named
 * items after "with"/"using"/"only have", or undefined when it says nothing about equipment.
 */
export function equipmentIn(text: string): Equipment[] | undefined {
  const lower = text.toLowerCase();
  if (/\bbody ?weight\b|\bno equipment\b|\bwithout (any )?equipment\b|\bnothing but\b|\bno weights\b/.test(lower))
    return [];
  const clause = /\b(?:with|using|only (?:have|got)|i (?:have|got))\b(.*)/.exec(lower)?.[1];
  if (clause === undefined) return undefined;
  const words = clause.split(/[^a-z0-9-]+/).filter(Boolean);
  const found = new Set<Equipment>();
  for (let size = 3; size >= 1; size -= 1) {
    for (let i = 0; i + size <= words.length; i += 1) {
      const item = normalizeEquipmentName(words.slice(i, i + size).join(' '));
      if (item !== undefined) found.add(item);
    }
  }
  return found.size > 0 ? [...found] : undefined;
}

/** The session length a message asks for, in minutes. */
export function minutesIn(text: string): number | undefined {
  const lower = text.toLowerCase();
  const minutes = /\b(\d{1,3})[- ]?(?:min|mins|minutes?)\b/.exec(lower);
  if (minutes) return Number(minutes[1]);
  if (/\bhalf an hour\b/.test(lower)) return 30;
  if (/\b(an|one) hour\b/.test(lower)) return 60;
  return undefined;
}

/** Whether the message asks for a short session. */
export const isQuick = (text: string) => /\b(quick|short|fast|brief|express|mini)\b/i.test(text);

const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
};

/** An exercise position a message names: "exercise 2", "#3", "the second one", "the last". */
export function positionIn(text: string, count: number): number | undefined {
  const lower = text.toLowerCase();
  const numbered =
    /(?:\b(?:exercise|number|no\.?|move)\s*#?|#)(\d{1,2})\b/.exec(lower) ?? /^\s*(\d{1,2})\b/.exec(lower);
  if (numbered) return Number(numbered[1]);
  if (/\blast (one|exercise|move)\b|\bthe last\b/.test(lower)) return count;
  const ordinal = /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\b/.exec(lower);
  return ordinal ? ORDINALS[ordinal[1] as string] : undefined;
}

/** Lowercase words of a name or message, without filler, for fuzzy matching of names. */
function significantWords(text: string): string[] {
  const filler = new Set([
    'the',
    'and',
    'with',
    'for',
    'of',
    'to',
    'my',
    'me',
    'it',
    'one',
    'please',
    'instead',
    'exercise',
  ]);
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !filler.has(word));
}

/** Words match when equal or when one is the other plus a plural ending ("press", "presses"). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 3 && long.startsWith(short) && long.length - short.length <= 2;
}

/** How many significant words of `name` appear in `text`. */
export function nameOverlap(name: string, text: string): number {
  const words = significantWords(text);
  return significantWords(name).filter((word) => words.some((other) => sameWord(word, other))).length;
}
