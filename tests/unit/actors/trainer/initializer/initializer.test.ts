import { describe, expect, it } from 'vitest';
import { createDataSources, type DataSourceRegistry } from '../../../../../actors/trainer/user-data/data-sources.ts';
import { initializeContext, knowledgeSelectorFor } from '../../../../../actors/trainer/initializer/initializer.ts';
import { openModelBackends } from '../../../../../actors/models/model-backends.ts';
import type { ModelSettings } from '../../../../../actors/models/model-settings.ts';
import {
  applyAppendOnlyRules,
  knowledgeStateOf,
  paramsOf,
  type KnowledgeState,
} from '../../../../../actors/trainer/initializer/initializer-knowledge.ts';
import {
  createRuleSelector,
  selectByRules,
  taskTypesOf,
} from '../../../../../actors/trainer/initializer/initializer-rules.ts';
import type { KnowledgeSelector } from '../../../../../actors/trainer/initializer/initializer-selector.ts';
import { createUserDataStore } from '../../../../../actors/trainer/user-data/user-data-store.ts';
import type { DataSourceName } from '../../../../../protocol/trainer/data-source.ts';
import type { SessionEvent } from '../../../../../protocol/trainer/session-event.ts';
import { createFakeStore } from '../../../../support/trainer/trainer-fakes.ts';
import { asEvents, knowledge, toolCall, toolResult, userMessage } from '../../../../support/trainer/trainer-events.ts';

const NOW = new Date('2025-03-20T12:00:00.000Z');
const none: KnowledgeState = { existing: [], stale: [] };

async function registry(): Promise<DataSourceRegistry> {
  const userData = createUserDataStore(createFakeStore());
  await userData.put('user-1', 'category_goals', {
    goals: [
      { category: 'strength', share: 0.6 },
      { category: 'endurance', share: 0.4 },
    ],
  });
  await userData.put('user-1', 'muscle_goals', { goals: [{ muscle: 'Chest', share: 0.5 }] });
  await userData.put('user-1', 'workout_history', {
    workouts: [
      {
        id: 'w1',
        completed_at: '2025-03-18T10:00:00.000Z',
        title: 'Push',
        exercises: [{ exercise_name: 'Push-Up', exercise_type: 'reps' }],
      },
      {
        id: 'w2',
        completed_at: '2025-02-25T10:00:00.000Z',
        title: 'Legs',
        exercises: [{ exercise_name: 'Squat', exercise_type: 'reps' }],
      },
    ],
  });
  return createDataSources({ userData, now: () => NOW });
}

const sourcesOf = (selection: { append_knowledge: { source: DataSourceName }[] }) =>
  selection.append_knowledge.map((entry) => entry.source).sort();

describe('rule selector (spec 001 §5.5 task-to-data map)', () => {
  it.each<[string, DataSourceName[], number | null]>([
    [
      'Give me a quick chest workout',
      ['active_preferences', 'category_goals', 'muscle_goals', 'workout_history'],
      null,
    ],
    ['Help me set new goals', ['category_goals', 'muscle_goals'], null],
    ['How has my progress been this month?', ['category_goals', 'workout_history'], 30],
    ['How many workouts did I do in the last 3 months?', ['category_goals', 'workout_history'], 90],
    ['What equipment do I have at my locations?', ['all_locations'], null],
    ['I hurt my knee, please avoid jumping', ['active_preferences'], null],
    ['Thanks!', [], null],
  ])('%s', (message, sources, days) => {
    const selection = selectByRules({ userMessage: message, knowledge: none });
    expect(sourcesOf(selection)).toEqual(sources);
    expect(selection.append_knowledge.every((entry) => entry.reason === 'not_in_context')).toBe(true);
    expect(selection.append_knowledge.find((entry) => entry.source === 'workout_history')?.days_back ?? null).toBe(
      days,
    );
  });

  it('adds the distribution for balance questions and names the tasks', () => {
    expect(taskTypesOf('hi')).toEqual(['general']);
    expect(taskTypesOf('Is my training balanced over the past month?')).toContain('statistics');
    const selection = selectByRules({ userMessage: 'Is my muscle balance ok over the last 2 weeks?', knowledge: none });
    expect(selection.append_knowledge).toContainEqual({
      source: 'exercise_distribution',
      reason: 'not_in_context',
      days_back: 14,
    });
    expect(selection.reasoning).toMatch(/statistics/);
  });
});

describe('append-only knowledge (spec 001 §5.4)', () => {
  it('reads loaded sources, their widest windows, and what changed after loading', () => {
    const events = asEvents([
      userMessage('hi'),
      knowledge('workout_history', '1 workout in the last 14 days, most recent first (limit 14):'),
      knowledge('category_goals', '- strength: 60%'),
      knowledge('workout_history', '2 workouts in the last 7 days, most recent first (limit 10):'),
      knowledge('current_workout_session', '1. Push-Up (reps): 3 x 10, rest 60s'),
      toolCall('c1', 'log_workout'),
      toolResult('c1', { success: true }, 'log_workout'),
    ]) as SessionEvent[];
    expect(knowledgeStateOf(events)).toEqual({
      existing: [
        { source: 'workout_history', days_back: 14 },
        { source: 'category_goals', days_back: null },
      ],
      stale: ['workout_history'],
    });
  });

  it('does not fetch again what is loaded with enough scope', () => {
    const state: KnowledgeState = {
      existing: [
        { source: 'category_goals', days_back: null },
        { source: 'workout_history', days_back: 30 },
      ],
      stale: [],
    };
    const selection = selectByRules({ userMessage: 'How did I do this week?', knowledge: state });
    expect(selection.append_knowledge).toEqual([]);
    expect(selection.use_existing.sort()).toEqual(['category_goals', 'workout_history']);
  });

  it('appends a wider window as expand_range, and a changed source as refresh_state', () => {
    const narrow: KnowledgeState = { existing: [{ source: 'workout_history', days_back: 14 }], stale: [] };
    const wider = selectByRules({ userMessage: 'Show my progress this month', knowledge: narrow });
    expect(wider.append_knowledge).toContainEqual({ source: 'workout_history', reason: 'expand_range', days_back: 30 });
    const changed: KnowledgeState = {
      existing: [{ source: 'workout_history', days_back: 30 }],
      stale: ['workout_history'],
    };
    const refreshed = selectByRules({ userMessage: 'Show my progress this week', knowledge: changed });
    expect(refreshed.append_knowledge).toContainEqual({
      source: 'workout_history',
      reason: 'refresh_state',
      days_back: 7,
    });
  });

  it('corrects a selector that breaks the rules', () => {
    const state: KnowledgeState = { existing: [{ source: 'muscle_goals', days_back: null }], stale: [] };
    const fixed = applyAppendOnlyRules(
      {
        reasoning: 'r',
        append_knowledge: [
          { source: 'muscle_goals', reason: 'not_in_context', days_back: null },
          { source: 'all_locations', reason: 'refresh_state', days_back: 12 },
          { source: 'all_locations', reason: 'not_in_context', days_back: null },
        ],
        use_existing: ['workout_history'],
      },
      state,
    );
    expect(fixed).toEqual({
      reasoning: 'r',
      append_knowledge: [{ source: 'all_locations', reason: 'not_in_context', days_back: null }],
      use_existing: ['muscle_goals'],
    });
    expect(paramsOf([{ source: 'workout_history', reason: 'expand_range', days_back: 90 }])).toEqual({
      workout_history: { days_back: 90, limit: 90 },
    });
  });
});

describe('initializeContext (spec 001 §5.2)', () => {
  it('fetches the selected sources and returns them as knowledge with display names', async () => {
    const result = await initializeContext({
      selector: createRuleSelector(),
      dataSources: await registry(),
      userId: 'user-1',
      userMessage: 'How has my progress been over the last 2 weeks?',
      events: asEvents([userMessage('How has my progress been over the last 2 weeks?')]) as SessionEvent[],
    });
    expect(result.selector).toBe('rules');
    expect(result.errors).toEqual([]);
    expect(result.sources).toEqual(['workout_history', 'category_goals']);
    expect(result.knowledge.map((k) => [k.source, k.displayName])).toEqual([
      ['workout_history', 'Workout History'],
      ['category_goals', 'Goals'],
    ]);
    const history = result.knowledge[0]?.data ?? '';
    expect(history).toContain('in the last 14 days');
    expect(history).toContain('Push');
    expect(history).not.toContain('Legs');
  });

  it('fetches in parallel: every fetch starts before any finishes', async () => {
    const base = await registry();
    const started: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const gated = Object.fromEntries(
      Object.entries(base).map(([name, source]) => [
        name,
        {
          ...source,
          async fetch(userId: string, params?: object) {
            started.push(name);
            if (started.length === 4) release();
            await gate;
            return (source.fetch as (u: string, p?: object) => Promise<unknown>)(userId, params);
          },
        },
      ]),
    ) as unknown as DataSourceRegistry;
    const result = await initializeContext({
      selector: createRuleSelector(),
      dataSources: gated,
      userId: 'user-1',
      userMessage: 'Give me a leg workout',
      events: [],
    });
    expect(started).toHaveLength(4);
    expect(result.knowledge).toHaveLength(4);
  });

  it('never fails the turn: a failed selection yields no knowledge and one error', async () => {
    const broken: KnowledgeSelector = { kind: 'openai', select: () => Promise.reject(new Error('socket hang up')) };
    const result = await initializeContext({
      selector: broken,
      dataSources: await registry(),
      userId: 'user-1',
      userMessage: 'hi',
      events: [],
    });
    expect(result).toMatchObject({ selector: 'openai', selection: undefined, sources: [], knowledge: [] });
    expect(result.errors).toEqual([expect.objectContaining({ message: 'socket hang up', context: 'context_init' })]);
  });

  it('keeps the sources that loaded when one fails', async () => {
    const base = await registry();
    const failing = {
      ...base,
      muscle_goals: { ...base.muscle_goals, fetch: () => Promise.reject(new Error('disk on fire')) },
    };
    const result = await initializeContext({
      selector: createRuleSelector(),
      dataSources: failing,
      userId: 'user-1',
      userMessage: 'Help me set new goals',
      events: [],
    });
    expect(result.knowledge.map((k) => k.source)).toEqual(['category_goals']);
    expect(result.errors).toEqual([
      { message: 'Could not load muscle_goals: disk on fire', stack: null, context: 'context_init:muscle_goals' },
    ]);
  });

  it('chooses OpenAI only with an OpenAI key, through the model layer', () => {
    const selectorFor = (settings: Partial<ModelSettings>) =>
      knowledgeSelectorFor(openModelBackends({ primaryModel: 'claude-haiku-4-5', ...settings })).kind;
    expect(selectorFor({})).toBe('rules');
    expect(selectorFor({ anthropicApiKey: 'sk-ant-test' })).toBe('rules');
    expect(selectorFor({ openaiApiKey: 'sk-test', openaiBaseUrl: 'http://127.0.0.1:9/v1' })).toBe('openai');
  });
});
