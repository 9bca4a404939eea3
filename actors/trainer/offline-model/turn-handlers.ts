import type { DataSourceName, DataSourceParamsMap } from '../../../protocol/trainer/data-source.ts';
import type { ToolName } from '../../../protocol/trainer/tools/tool-name.ts';
import { daysBackIn, historyWindowOf } from '../initializer/initializer-time-range.ts';
import type { ConversationView, TurnStep } from './conversation-view.ts';
import { adjustArguments, logArguments, swapArguments, targetIn } from './edit-arguments.ts';
import { QUESTIONS, type Intent } from './intent.ts';
import { planOf, type TurnFacts } from './turn-facts.ts';
import { buildWorkout } from './workout-builder.ts';

/** The next tool to call. */
export interface ToolDecision {
  name: ToolName;
  input: Record<string, unknown>;
}

/** A handler either needs another call, or is done and says what to tell the user. */
type HandlerOutcome = { call: ToolDecision } | { summary: string; artifactId?: string };

const call = (name: ToolName, input: object): HandlerOutcome => ({ call: { name, input: { ...input } } });
export const ask = (question: string, options: string[] = []): HandlerOutcome =>
  call('message_ask_user', options.length > 0 ? { question, options: options.slice(0, 10) } : { question });

const lastStep = (view: ConversationView, name: ToolName): TurnStep | undefined =>
  view.steps.findLast((step) => step.name === name);

/** The first line of a failed result without its XML wrapper. */
const why = (step: TurnStep) =>
  (step.result ?? '')
    .replace(/<\/?tool_(?:error|result)[^>]*>/g, '')
    .trim()
    .split('\n')[0]
    ?.slice(0, 300) ?? 'unknown error';

const exerciseOptions = (view: ConversationView) =>
  (view.workout?.exercises ?? []).map((exercise) => `${exercise.order}. ${exercise.exercise_name}`);

function workout(view: ConversationView, facts: TurnFacts): HandlerOutcome {
  const generated = lastStep(view, 'generate_workout');
  if (generated?.failed) return { summary: `I couldn't create the workout: ${why(generated)}` };
  if (!generated) {
    const payload = buildWorkout(planOf(view, facts));
    if (!payload)
      return {
        summary: "I couldn't find exercises that fit your equipment and preferences. Tell me what you have available?",
      };
    return call('generate_workout', { workout: payload });
  }
  const payload = generated.input['workout'] as { title?: string; exercises?: { exercise_name: string }[] } | undefined;
  const names = (payload?.exercises ?? []).map((exercise) => exercise.exercise_name);
  const where = facts.location ? ` for ${facts.location.name}` : '';
  const note = facts.equipmentAssumed
    ? ' No location is set, so I kept it to bodyweight; tell me where you train for more options.'
    : '';
  const summary = `Here's your ${payload?.title ?? 'workout'}${where}: ${names.length} exercises (${names.join(', ')}).${note}`;
  const artifactId = /art_[A-Za-z0-9_-]+/.exec(generated.result ?? '')?.[0];
  return artifactId ? { summary, artifactId } : { summary };
}

function location(
  intent: Extract<Intent, { kind: 'location' }>,
  view: ConversationView,
  facts: TurnFacts,
): HandlerOutcome {
  const switched = lastStep(view, 'set_current_location');
  if (switched) {
    if (switched.failed) return { summary: `I couldn't switch your location: ${why(switched)}` };
    const id = switched.input['location_id'];
    const name = facts.locations.find((known) => known.id === id)?.name ?? facts.location?.name ?? 'the new location';
    return { summary: `Switched your current location to ${name}.` };
  }
  if (facts.locations.length === 0) {
    if (!lastStep(view, 'fetch_data')) return call('fetch_data', { sources: ['all_locations'] });
    return { summary: "I couldn't find any saved locations. Add one in the app first." };
  }
  const phrase = (intent.phrase || view.userText).toLowerCase().trim();
  const matches = facts.locations.filter((known) => {
    const name = known.name.toLowerCase();
    return (
      phrase.includes(name) ||
      name.includes(phrase) ||
      name.split(/\s+/).some((word) => word.length > 2 && phrase.includes(word))
    );
  });
  // "I'm at the gym" with "Home Gym" current and "Downtown Gym" saved: the user moved, so the other one.
  const moved = matches.length > 1 ? matches.filter((known) => !known.current) : matches;
  const [only] = moved;
  if (moved.length !== 1 || only === undefined)
    return ask(
      QUESTIONS.location,
      facts.locations.map((known) => known.name),
    );
  if (only.current || only.name === facts.location?.name) return { summary: `You're already set to ${only.name}.` };
  return call('set_current_location', { location_id: only.id });
}

type EditKind = 'swap' | 'remove' | 'adjust';
const EDIT_TOOLS: Record<EditKind, ToolName> = {
  swap: 'swap_exercise',
  remove: 'remove_exercise',
  adjust: 'adjust_exercise',
};

function edit(kind: EditKind, view: ConversationView, facts: TurnFacts): HandlerOutcome {
  const done = lastStep(view, EDIT_TOOLS[kind]);
  if (done?.failed) return { summary: `I couldn't ${kind} that exercise: ${why(done)}` };
  if (done) {
    const ref = String(done.input['exercise_id']);
    const swapped = (done.input['new_exercise'] as { exercise_name?: string } | undefined)?.exercise_name;
    if (kind === 'swap') return { summary: `Done: exercise ${ref} is now ${swapped ?? 'swapped'}.` };
    if (kind === 'remove')
      return { summary: `Done: removed exercise ${ref}; ${view.workout?.exercises.length ?? 0} exercises remain.` };
    return { summary: `Done: updated exercise ${ref} (${Object.keys(done.input['adjustments'] ?? {}).join(', ')}).` };
  }
  if (!view.workout) return ask(QUESTIONS.noWorkout, ['Yes, create a workout', 'No thanks']);
  const target = targetIn(view.userText, view.workout);
  if (!target) return ask(QUESTIONS[kind], exerciseOptions(view));
  if (kind === 'remove')
    return call('remove_exercise', {
      exercise_id: target.id ?? String(target.order),
      reason: 'Requested by the user.',
    });
  if (kind === 'adjust') {
    const args = adjustArguments(target, view.userText);
    return args ? call('adjust_exercise', args) : ask(QUESTIONS.adjust, exerciseOptions(view));
  }
  const args = swapArguments(target, view.userText, view.workout, facts);
  return args
    ? call('swap_exercise', args)
    : { summary: `I couldn't find an alternative to ${target.exercise_name} with your equipment.` };
}

function log(view: ConversationView): HandlerOutcome {
  const logged = lastStep(view, 'log_workout');
  if (logged?.failed) return { summary: `I couldn't log the workout: ${why(logged)}` };
  if (logged) return { summary: 'Logged your workout to your history. Great work!' };
  if (!view.workout) return { summary: "There's no active workout to log. Ask me for one when you're ready." };
  return call('log_workout', logArguments(view.workout, view.userText));
}

const SOURCE_TITLES: Record<DataSourceName, string> = {
  user_profile: 'Profile',
  category_goals: 'Goals',
  muscle_goals: 'Muscle goals',
  active_preferences: 'Preferences',
  workout_history: 'Workout history',
  exercise_distribution: 'Exercise distribution',
  user_settings: 'Settings',
  all_locations: 'Locations',
};

function data(sources: DataSourceName[], view: ConversationView): HandlerOutcome {
  const fetched = lastStep(view, 'fetch_data');
  if (fetched?.failed) return { summary: `I couldn't load your data: ${why(fetched)}` };
  const days = daysBackIn(view.userText);
  const missing = sources.filter((source) => {
    const text = view.knowledge.get(source);
    if (text === undefined) return true;
    if (source !== 'workout_history' || days === undefined) return false;
    const window = historyWindowOf(text);
    return window !== null && window < days;
  });
  if (missing.length > 0 && !fetched) {
    const params: DataSourceParamsMap = {};
    if (days !== undefined && missing.includes('workout_history'))
      params.workout_history = { days_back: days, limit: 50 };
    if (days !== undefined && missing.includes('exercise_distribution'))
      params.exercise_distribution = { days_back: days };
    return call('fetch_data', Object.keys(params).length > 0 ? { sources: missing, params } : { sources: missing });
  }
  const sections = sources.map(
    (source) => `${SOURCE_TITLES[source]}:\n${view.knowledge.get(source) ?? 'Not available.'}`,
  );
  return { summary: sections.join('\n\n') };
}

/** Runs the handler of one intent. */
export function handleIntent(intent: Intent, view: ConversationView, facts: TurnFacts): HandlerOutcome {
  switch (intent.kind) {
    case 'workout':
      return workout(view, facts);
    case 'location':
      return location(intent, view, facts);
    case 'swap':
    case 'remove':
    case 'adjust':
      return edit(intent.kind, view, facts);
    case 'log':
      return log(view);
    case 'data':
      return data(intent.sources, view);
    case 'greeting':
      return {
        summary:
          'Hi! I\'m your AI trainer. Ask me for a workout ("a 30-minute chest workout"), to swap, adjust or remove ' +
          'an exercise, to log a session, or to show your history and goals.',
      };
    case 'thanks':
      return { summary: "You're welcome! Tell me when you want your next workout." };
  }
}
