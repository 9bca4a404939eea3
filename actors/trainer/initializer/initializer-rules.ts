import type { DataSourceName } from '../../../protocol/trainer/data-source.ts';
import type { KnowledgeSelection } from '../../../protocol/trainer/initializer-response.ts';
import { applyAppendOnlyRules } from './initializer-knowledge.ts';
import type { KnowledgeSelector, SelectionInput } from './initializer-selector.ts';
import { daysBackIn } from './initializer-time-range.ts';
import { musclesIn } from '../offline-model/text-cues.ts';

/** The task types of spec 001 §5.5. */
type TaskType = 'workout_generation' | 'goal_setting' | 'statistics' | 'location' | 'preferences' | 'general';

/** The sources each task needs (spec 001 §5.5, "Task-to-Data Mapping"). */
const TASK_SOURCES: Record<TaskType, readonly DataSourceName[]> = {
  workout_generation: ['category_goals', 'muscle_goals', 'active_preferences', 'workout_history'],
  goal_setting: ['category_goals', 'muscle_goals'],
  statistics: ['workout_history', 'category_goals'],
  location: ['all_locations'],
  preferences: ['active_preferences'],
  general: [],
};

/** The window of a statistics question that names none (the spec's example: "this month"). */
const DEFAULT_STATS_DAYS = 30;

const CUES: readonly [TaskType, RegExp][] = [
  [
    'workout_generation',
    /\bwork ?outs?\b(?! history)|\broutine\b|\bsession\b|\bexercises?\b|\btrain(ing)?\b|\bprogram\b|\bcircuit\b|\bhiit\b|\bcardio\b|\bstretch|\bleg day\b|\bwhat should i (?:do|train)\b|\bswap\b|\breplace\b|\balternative\b/,
  ],
  [
    'goal_setting',
    /\bgoals?\b|\btarget(s|ing)?\b|\baim(ing)?\b|\bwant to (?:get|be|lose|gain|build|improve)\b|\bfocus on\b/,
  ],
  [
    'statistics',
    /\bprogress\b|\bstats?\b|\bstatistics\b|\bhistory\b|\bhow (?:many|much|often)\b|\btrend|\bimprov|\bvolume\b|\bdistribution\b|\bbalance\b|\bconsisten|\blast (?:week|month|year)\b|\bthis (?:week|month|year)\b|\bpast (?:week|month|year)\b/,
  ],
  [
    'location',
    /\blocations?\b|\bgyms?\b|\bhome\b|\bequipment\b|\bi'?m (?:at|in)\b|\bswitch (?:to|location)\b|\btravel|\bhotel\b/,
  ],
  ['preferences', /\bprefer|\bpreferences?\b|\binjur|\bhurt|\bpain\b|\bavoid|\bdon'?t like\b|\bhate\b|\bsore\b/],
];

/** The task types a message asks for; `general` when none. */
export function taskTypesOf(message: string): TaskType[] {
  const lower = message.toLowerCase();
  let tasks = CUES.filter(([, pattern]) => pattern.test(lower)).map(([task]) => task);
  // "How many workouts did I do?" is about statistics; it asks for a workout only with a verb that makes one.
  const makes = /\b(give|build|create|make|plan|suggest|recommend|generate|design|want|need|show me)\b/.test(lower);
  if (tasks.includes('statistics') && !makes) tasks = tasks.filter((task) => task !== 'workout_generation');
  if (!tasks.includes('workout_generation') && !tasks.includes('statistics') && musclesIn(lower).length > 0) {
    tasks.unshift('workout_generation');
  }
  return tasks.length > 0 ? tasks : ['general'];
}

/**
 * Selects sources by the task-to-data map of spec 001 §5.5 and the append-only rules of §5.4,
 * without a model: statistics fetch history over the window the message names (30 days when
 * it names none), a distribution when it asks about balance, and changed sources are refreshed.
 */
export function selectByRules(input: SelectionInput): ReturnType<typeof applyAppendOnlyRules> {
  const tasks = taskTypesOf(input.userMessage);
  const lower = input.userMessage.toLowerCase();
  const askedDays = daysBackIn(lower);
  const statsDays = askedDays ?? DEFAULT_STATS_DAYS;
  const sources = new Set(tasks.flatMap((task) => TASK_SOURCES[task]));
  if (
    tasks.includes('statistics') &&
    /\bdistribution\b|\bbalance\b|\bwhich muscles\b|\bneglect|\bsplit\b/.test(lower)
  ) {
    sources.add('exercise_distribution');
  }
  const daysOf = (source: DataSourceName): number | null => {
    if (source === 'exercise_distribution') return statsDays;
    if (source !== 'workout_history') return null;
    return tasks.includes('statistics') ? statsDays : (askedDays ?? null);
  };
  const append: KnowledgeSelection[] = [...sources].map((source) => ({
    source,
    reason: 'not_in_context',
    days_back: daysOf(source),
  }));
  const reasoning =
    tasks[0] === 'general'
      ? 'General conversation: no extra data needed.'
      : `Task: ${tasks.join(', ').replaceAll('_', ' ')} (spec task-to-data map).`;
  return applyAppendOnlyRules({ reasoning, append_knowledge: append, use_existing: [] }, input.knowledge);
}

/** The deterministic selector, used without `OPENAI_API_KEY`. */
export function createRuleSelector(): KnowledgeSelector {
  return {
    kind: 'rules',
    async select(input) {
      return { response: selectByRules(input) };
    },
  };
}
