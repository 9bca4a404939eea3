import type { Equipment } from '../../../protocol/trainer/tools/equipment.ts';
import type { Muscle } from '../../../protocol/trainer/tools/muscle.ts';
import {
  avoidancesOf,
  categoryGoalsOf,
  currentLocationOf,
  locationsOf,
  muscleGoalsOf,
  recentExercisesOf,
  type Avoidances,
  type CurrentLocation,
  type KnownLocation,
} from './context-facts.ts';
import type { ConversationView } from './conversation-view.ts';
import { equipmentIn, FULL_BODY, goalsIn, isQuick, minutesIn, musclesIn, typesIn } from './text-cues.ts';
import type { WorkoutPlan } from './workout-builder.ts';

/** What the context says about the user, gathered once per call. */
export interface TurnFacts {
  location: CurrentLocation | undefined;
  locations: KnownLocation[];
  /** The user's goals: named in the message first, then `category_goals`. */
  goals: string[];
  muscleGoals: Muscle[];
  avoid: Avoidances;
  recent: string[];
  /** The equipment to plan with: named in the message, else the current location's, else none. */
  equipment: Equipment[];
  /** True when no location is current and the message named no equipment (bodyweight assumed). */
  equipmentAssumed: boolean;
}

/** The goals the user stated, then their category goals mapped onto library goal names. */
function goalsOf(view: ConversationView): string[] {
  const stated = goalsIn(view.userText);
  const categories = categoryGoalsOf(view.knowledge.get('category_goals') ?? '').flatMap((category) => {
    const mapped = goalsIn(category.replaceAll('_', ' '));
    return mapped.length > 0 ? mapped : [category.toLowerCase()];
  });
  return [...new Set([...stated, ...categories])];
}

/** Reads the user data block, the knowledge and the message into facts. */
export function gatherFacts(view: ConversationView): TurnFacts {
  const location = currentLocationOf(view.userDataXml);
  const named = equipmentIn(view.userText);
  return {
    location,
    locations: locationsOf(view.knowledge.get('all_locations') ?? ''),
    goals: goalsOf(view),
    muscleGoals: muscleGoalsOf(view.knowledge.get('muscle_goals') ?? ''),
    avoid: avoidancesOf(view.knowledge.get('active_preferences') ?? ''),
    recent: recentExercisesOf(view.knowledge.get('workout_history') ?? ''),
    equipment: named ?? location?.equipment ?? [],
    equipmentAssumed: named === undefined && location === undefined,
  };
}

/**
 * The plan of a requested workout: the muscles the message names (else the user's top muscle
 * goals, else full body), the goals (else strength and hypertrophy), the equipment at hand.
 */
export function planOf(view: ConversationView, facts: TurnFacts): WorkoutPlan {
  const named = musclesIn(view.userText);
  const muscles =
    named.length > 0 ? named : facts.muscleGoals.length > 0 ? facts.muscleGoals.slice(0, 3) : [...FULL_BODY];
  return {
    muscles,
    goals: facts.goals.length > 0 ? facts.goals : ['strength', 'hypertrophy'],
    types: typesIn(view.userText),
    equipment: facts.equipment,
    minutes: minutesIn(view.userText),
    quick: isQuick(view.userText),
    avoid: facts.avoid,
    recent: facts.recent,
    locationName: facts.location?.name ?? (facts.equipmentAssumed ? 'anywhere' : 'your session'),
  };
}
