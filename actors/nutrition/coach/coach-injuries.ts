import type { InjuryArea } from './training-exercise.ts';

/** What the COACH understood from the client's free-text injuries. */
export interface InjuryReading {
  /** Areas to protect: every exercise loading one of them is left out. */
  areas: InjuryArea[];
  /** Injuries that named no known area; they are echoed so a human can review them. */
  unrecognised: string[];
}

/**
 * Free-text words that point at each area. Matching is deliberately broad (a "back" injury
 * protects the lower back, a labrum protects both hip and shoulder): a wrongly excluded exercise
 * costs a substitution, a wrongly included one can cost an injury.
 */
const AREA_PATTERNS: ReadonlyArray<readonly [InjuryArea, RegExp]> = [
  [
    'knee',
    /\b(knees?|patell\w*|acl|mcl|pcl|lcl|menisc\w*|jumper'?s knee|runner'?s knee|it ?band|itb|quad(riceps)? tendon)/,
  ],
  [
    'lower_back',
    /\b(lower back|low back|lumbar|lumbago|sciatic\w*|disc|disk|herniat\w*|spondyl\w*|l[345](-s1)?|sacroiliac|si joint|spine|spinal)\b|(^|[^r] )back\b/,
  ],
  [
    'shoulder',
    /\b(shoulders?|rotator|cuff|impingement|labr(um|al)|ac joint|acromio\w*|delt(oid)?s?|frozen|bursitis|clavicle|collarbone)\b/,
  ],
  ['wrist', /\b(wrists?|carpal|tfcc|scaphoid|hand|hands|thumb)\b/],
  ['elbow', /\b(elbows?|tennis elbow|golfer'?s elbow|epicondyl\w*)\b/],
  ['hip', /\b(hips?|groin|adductor|labr(um|al)|hip flexor|femoroacetabular|fai|psoas|piriformis)\b/],
  ['ankle', /\b(ankles?|achilles|foot|feet|plantar|fasciitis|heel|shin splints?|toe|toes)\b/],
  ['neck', /\b(neck|cervical|upper back|trap|traps|whiplash)\b/],
];

/** Entries that report no injury at all, so they are neither matched nor flagged. */
const NO_INJURY = /^(none|no|n\/?a|nil|no injur(y|ies)|nothing)\.?$/;

/**
 * Maps free-text injuries ("old ACL tear (left knee)", "lower back pain") to the areas the
 * program must not load. Each entry may name several areas; unknown ones are reported back.
 */
export function readInjuries(injuries: readonly string[]): InjuryReading {
  const areas = new Set<InjuryArea>();
  const unrecognised: string[] = [];
  for (const injury of injuries) {
    const text = injury.toLowerCase().replace(/\s+/g, ' ').trim();
    if (text === '' || NO_INJURY.test(text)) continue;
    const matched = AREA_PATTERNS.filter(([, pattern]) => pattern.test(text)).map(([area]) => area);
    if (matched.length === 0) unrecognised.push(injury);
    for (const area of matched) areas.add(area);
  }
  return { areas: AREA_PATTERNS.map(([area]) => area).filter((area) => areas.has(area)), unrecognised };
}
