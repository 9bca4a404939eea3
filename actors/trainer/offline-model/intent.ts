import type { DataSourceName } from '../../../protocol/trainer/data-source.ts';
import { musclesIn } from './text-cues.ts';

/** What the user wants this turn, in the order to do it. */
export type Intent =
  | { kind: 'location'; phrase: string }
  | { kind: 'log' }
  | { kind: 'swap' }
  | { kind: 'remove' }
  | { kind: 'adjust' }
  | { kind: 'data'; sources: DataSourceName[] }
  | { kind: 'workout' }
  | { kind: 'greeting' }
  | { kind: 'thanks' };

/** Questions the policy asks; an answer to one continues the intent that asked it. */
export const QUESTIONS = {
  swap: 'Which exercise should I swap?',
  remove: 'Which exercise should I remove?',
  adjust: 'Which exercise should I adjust, and how (sets, reps, rest, minutes, harder or easier)?',
  location: 'Which location are you at?',
  noWorkout: "You don't have an active workout yet. Shall I create one?",
  unclear: 'What would you like to do?',
} as const;

const LOCATION =
  /\b(?:i'?m|i am|we'?re|currently|today i'?m|working out|training)\s+(?:now\s+)?(?:at|in)\s+(?:the\s+|my\s+)?([a-z0-9' -]{2,40}?)(?=[,.!?;]|\s+(?:and|so|today|now|right|,)\b|$)|\b(?:switch|change|set|move)\s+(?:my\s+)?(?:current\s+)?location\s+(?:to\s+)?(?:the\s+|my\s+)?([a-z0-9' -]{2,40}?)(?=[,.!?;]|\s+and\b|$)/;

const DATA_VERB =
  /\b(show|see|view|display|list|check|what(?:'s| is| are| were| was)?|how (?:many|much|often|am i|did i|have i)|tell me|review|summar)/;
const DATA_NOUNS: readonly [RegExp, DataSourceName[]][] = [
  [
    /\bhistory\b|\bpast workouts\b|\blast workouts?\b|\blogged\b|\bdid i\b|\bworkouts? (?:i|have i) done\b/,
    ['workout_history'],
  ],
  [/\bprogress\b|\bstats\b|\bstatistics\b|\btrend/, ['workout_history', 'exercise_distribution']],
  [/\bdistribution\b|\bbalance\b|\bwhich muscles\b|\bmuscle split\b|\bneglect/, ['exercise_distribution']],
  [/\bprofile\b|\bbody stats\b|\bmy (?:weight|height|age)\b/, ['user_profile']],
  [/\bgoals?\b/, ['category_goals', 'muscle_goals']],
  [/\bpreferences?\b|\binjur/, ['active_preferences']],
  [/\bsettings\b|\bunits?\b/, ['user_settings']],
  [/\blocations?\b|\bgyms\b|\bequipment\b/, ['all_locations']],
];

const WORKOUT =
  /\bwork ?out\b|\broutine\b|\bsession\b|\bexercises?\b|\btrain(ing)?\b|\bprogram\b|\bcircuit\b|\bhiit\b|\btabata\b|\bcardio\b|\bstretch|\bmobility\b|\bwarm[- ]?up\b|\bleg day\b|\bwhat should i (?:do|train)\b|\bsuggest\b|\brecommend\b|\bplan\b/;

/** The data sources a message asks to see, or none. */
function dataSourcesIn(lower: string): DataSourceName[] {
  if (!DATA_VERB.test(lower)) return [];
  return [...new Set(DATA_NOUNS.filter(([pattern]) => pattern.test(lower)).flatMap(([, sources]) => sources))];
}

const PLACE_WORDS =
  /\b(gym|home|house|garage|basement|office|work|hotel|park|studio|club|outside|outdoors|apartment|flat|cabin|beach|track|pool|center|centre)\b/;

/**
 * The location phrase of "I'm at the gym" / "switch location to home", or undefined. "I'm in the
 * mood for legs" is no place: a phrase counts when it names a place word or a known location,
 * or when the user said "location" outright.
 */
export function locationPhraseIn(lower: string, knownNames: readonly string[] = []): string | undefined {
  const match = LOCATION.exec(lower);
  if (match?.[2] !== undefined) return match[2].trim();
  const phrase = match?.[1]?.trim();
  if (phrase === undefined) return undefined;
  const known = knownNames.some((name) => phrase.includes(name.toLowerCase()) || name.toLowerCase().includes(phrase));
  return known || PLACE_WORDS.test(phrase) ? phrase : undefined;
}

/**
 * Classifies the user's words: a location change first (it may come with a request), then one
 * of log, swap, remove, adjust, data, workout, or small talk. Empty when nothing is clear.
 */
export function intentsOf(text: string, knownLocations: readonly string[] = []): Intent[] {
  const lower = text.toLowerCase();
  const intents: Intent[] = [];
  const phrase = locationPhraseIn(lower, knownLocations);
  if (phrase !== undefined) intents.push({ kind: 'location', phrase });
  const sources = dataSourcesIn(lower);
  const main: Intent | undefined =
    /\blog\b|\blogged\b|\brecord (?:my|the|this)\b|\b(?:finished|completed|done with) (?:my |the |this )?(?:work ?out|session)\b|\bi (?:finished|completed|did) it\b/.test(
      lower,
    ) && !/\bshow\b|\bsee\b/.test(lower)
      ? { kind: 'log' }
      : /\b(swap|replace|substitute|switch out|alternative|instead of)\b/.test(lower)
        ? { kind: 'swap' }
        : /\b(remove|drop|delete|take out|get rid of|cut out|skip)\b/.test(lower) && !/\bskipped\b/.test(lower)
          ? { kind: 'remove' }
          : /\b(adjust|modify|tweak|more|fewer|less|increase|decrease|harder|easier|longer|shorter|\d+\s*(?:sets?|reps?|rounds?))\b/.test(
                lower,
              ) && !WORKOUT.test(lower.replace(/\bexercises?\b/g, ''))
            ? { kind: 'adjust' }
            : sources.length > 0
              ? { kind: 'data', sources }
              : WORKOUT.test(lower) || musclesIn(lower).length > 0
                ? { kind: 'workout' }
                : undefined;
  if (main) intents.push(main);
  if (intents.length === 0) {
    if (/^\s*(hi|hello|hey|yo|good (morning|afternoon|evening))\b/.test(lower)) intents.push({ kind: 'greeting' });
    else if (/\b(thanks|thank you|cheers|great|awesome|perfect|nice)\b/.test(lower)) intents.push({ kind: 'thanks' });
  }
  return intents;
}

/** The intent that asked `question`, so that an answer ("2", "the squat") continues it. */
export function intentAsking(question: string): Intent | undefined {
  if (question === QUESTIONS.swap) return { kind: 'swap' };
  if (question === QUESTIONS.remove) return { kind: 'remove' };
  if (question === QUESTIONS.adjust) return { kind: 'adjust' };
  if (question === QUESTIONS.location) return { kind: 'location', phrase: '' };
  return undefined;
}
