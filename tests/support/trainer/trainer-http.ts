import type { SseEvent } from '../../../protocol/trainer/sse-event.ts';

type Call = (
  user: string,
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: any; response: Response }>;

/** A new user's data, set up through `PUT /users/me/<source>` alone. */
export const USER_SETUP = {
  user_profile: {
    display_name: 'Sam',
    sex: 'male',
    age: 28,
    height_cm: 180,
    weight_kg: 82,
    body_fat_pct: 15,
    experience_level: 'intermediate',
  },
  user_settings: { weight_unit: 'kg', distance_unit: 'km' },
  all_locations: {
    locations: [
      {
        id: 'loc-home',
        name: 'Home Gym',
        current_location: true,
        equipment: [
          { name: 'Dumbbells', type: 'free_weights', weights: [5, 10, 15, 20], weight_unit: 'kg' },
          { name: 'Pull-up Bar', type: 'bodyweight' },
          { name: 'Bench', type: 'accessories' },
        ],
      },
      {
        id: 'loc-gym',
        name: 'City Gym',
        equipment: [
          { name: 'Barbell', type: 'free_weights' },
          { name: 'Cable Machine', type: 'cables' },
        ],
      },
    ],
  },
  category_goals: {
    goals: [
      { category: 'strength', share: 0.6 },
      { category: 'hypertrophy', share: 0.4 },
    ],
  },
  muscle_goals: {
    goals: [
      { muscle: 'Chest', share: 0.3 },
      { muscle: 'Back', share: 0.3 },
      { muscle: 'Quadriceps', share: 0.4 },
    ],
  },
  active_preferences: { preferences: [{ id: 'pref-1', type: 'exercise', description: 'No burpees please' }] },
} as const;

/** Puts every document of {@link USER_SETUP} for `user`, failing loudly on any refusal. */
export async function setUpUser(call: Call, user: string): Promise<void> {
  for (const [source, body] of Object.entries(USER_SETUP)) {
    const put = await call(user, 'PUT', `/users/me/${source}`, body);
    if (put.status !== 200)
      throw new Error(`PUT /users/me/${source} answered ${put.status}: ${JSON.stringify(put.body)}`);
  }
}

/** The JSON events of an SSE body, one per `data:` line group, in order. */
export function parseSse(text: string): SseEvent[] {
  return text
    .split(/\n\n/)
    .map((block) =>
      block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    )
    .filter((data) => data.length > 0)
    .map((data) => JSON.parse(data) as SseEvent);
}

const TOOL_EVENT_TYPES = new Set(['status', 'knowledge', 'done', 'error']);

/** Whether an SSE event is a tool's `tool_start` (`data.status === 'running'`). */
export const isToolStart = (event: SseEvent) =>
  !TOOL_EVENT_TYPES.has(event.type) && 'data' in event && (event.data as { status?: unknown }).status === 'running';

/** Whether an SSE event is a tool's `tool_result` (it has `formatted`). */
export const isToolResult = (event: SseEvent) => !TOOL_EVENT_TYPES.has(event.type) && 'formatted' in event;

/**
 * What is wrong with the order of a turn's stream events (spec 001 §8.3), empty when nothing:
 * knowledge first; per tool an optional `status` start, its `tool_start`, its `tool_result`, an
 * optional `status` done or error, with nothing in between; `done` (or `error`) last and once.
 */
export function streamOrderProblems(events: readonly SseEvent[]): string[] {
  const problems: string[] = [];
  type Phase = 'knowledge' | 'between' | 'started' | 'resulted' | 'over';
  let phase = 'knowledge' as Phase;
  let tool: string | undefined;
  let announced: string | undefined;
  events.forEach((event, i) => {
    const at = `#${i} ${event.type}`;
    if (phase === 'over') problems.push(`${at} after the end of the stream`);
    if (event.type === 'knowledge') {
      if (phase !== 'knowledge') problems.push(`${at}: knowledge after the first tool`);
    } else if (event.type === 'done' || event.type === 'error') {
      if (phase === 'started') problems.push(`${at}: the stream ended while ${tool} was running`);
      phase = 'over';
    } else if (event.type === 'status') {
      const data = event.data as { tool: string; phase: string };
      if (data.phase === 'start') {
        if (phase === 'started') problems.push(`${at}: status start while ${tool} runs`);
        announced = data.tool;
        phase = 'between';
      } else {
        if (phase !== 'resulted' || data.tool !== tool)
          problems.push(`${at}: status ${data.phase} of ${data.tool} not right after its result`);
        phase = 'between';
      }
    } else if (isToolStart(event)) {
      if (phase === 'started') problems.push(`${at}: a tool started while ${tool} runs`);
      if (announced !== undefined && announced !== event.type)
        problems.push(`${at}: announced ${announced} but started ${event.type}`);
      tool = event.type;
      announced = undefined;
      phase = 'started';
    } else if (isToolResult(event)) {
      if (phase !== 'started' || event.type !== tool)
        problems.push(`${at}: result of ${event.type} without its tool_start just before`);
      phase = 'resulted';
    } else {
      problems.push(`${at}: not an event of §8.3`);
    }
  });
  if (phase !== 'over') problems.push('the stream has no done or error event at the end');
  return problems;
}
