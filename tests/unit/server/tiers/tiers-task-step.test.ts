import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { offlineArchitect } from '../../../../actors/tiers/planning/offline-architect.ts';
import { offlineDispatcher } from '../../../../actors/tiers/planning/offline-dispatcher.ts';
import { realSandbox } from '../../../../actors/tiers/fleet/offline-specialists.ts';
import type { BrainCall } from '../../../../server/restate/run-object.ts';
import type { BrainAnswer } from '../../../../server/restate/served-brains.ts';
import { servedTierCalls, type TiersCall } from '../../../../server/tiers/restate-tiers-object.ts';
import {
  readTask,
  stepTiersTask,
  type SteppedTask,
  type TiersTaskState,
} from '../../../../server/tiers/tiers-task-step.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import type { TaskView } from '../../../../server/tiers/tiers-service-api.ts';
import type { TaskRequest } from '../../../../protocol/tiers/task-request.ts';

/*
 * A tiers task hosted the way its `tiers-host` object hosts it, with Restate played by this test:
 * each handler rebuilds the task from the state the one before saved, the calls it queued are
 * answered by the service side (`servedTierCalls`: the offline planning brains and the real
 * sandbox), each answer is the next handler, and a tick is a handler at its due time. Every
 * handler is made twice from the same state (a replay after a crash) and must send and save the
 * same.
 */
const USER = 'ada';
const TASK = 'task-1';
const T0 = Date.parse('2026-11-24T12:00:00Z');
/** The README's example task (the cluster tests' too). */
const EXAMPLE = JSON.parse(readFileSync('examples/tiers-task.json', 'utf8')) as TaskRequest;
const served = servedTierCalls({
  architect: offlineArchitect,
  dispatcher: offlineDispatcher,
  solver: null,
  sandbox: realSandbox,
});

type Act<T> = (service: TiersServiceImpl) => Promise<T>;

/** A handler made twice from the same saved state (the second a replay): both must answer the same. */
async function handler<T>(
  saved: TiersTaskState | null,
  now: number,
  act: Act<T>,
  take?: (state: TiersTaskState) => void,
): Promise<SteppedTask<T>> {
  const first = await stepTiersTask(TASK, saved, now, { hasModel: false }, act, take);
  const replay = await stepTiersTask(TASK, saved, now, { hasModel: false }, act, take);
  expect(replay).toEqual(first);
  return first;
}

interface Hosted {
  state: TiersTaskState;
  /** Every call sent, in order. */
  sent: BrainCall[];
  handlers: number;
}

/** Answers every call sent and not answered, one `answer` handler each, until none is left. */
async function answerAll(hosted: Hosted, now: number, drop: (call: BrainCall) => boolean = () => false) {
  const answered = new Set<string>();
  for (;;) {
    const next = hosted.sent.find((call) => !answered.has(call.id) && !drop(call));
    if (!next) return;
    answered.add(next.id);
    const answer = (await served[next.agent as TiersCall]!(next.input)) as BrainAnswer;
    const step = await handler(
      hosted.state,
      now,
      async () => null,
      (state) => {
        state.answers[next.id] = answer;
        state.sent = state.sent.filter((id) => id !== next.id);
      },
    );
    hosted.state = step.state;
    hosted.sent.push(...step.calls);
    hosted.handlers++;
  }
}

async function view(state: TiersTaskState): Promise<TaskView> {
  return (await readTask(TASK, state, { read: 'view', user: USER })) as TaskView;
}

describe('a tiers task on its Restate object (stepTiersTask)', () => {
  it('solves the running example across handlers, each call made once, each handler the same when replayed', async () => {
    const submitted = await handler(null, T0, (service) => service.submit(USER, EXAMPLE, TASK));
    expect(submitted.answer).toEqual({ task_id: TASK, status: 'working' });
    expect(submitted.calls.map((call) => call.agent)).toEqual(['architect']);
    const hosted: Hosted = { state: submitted.state, sent: [...submitted.calls], handlers: 1 };
    await answerAll(hosted, T0 + 1_000);
    const done = await view(hosted.state);
    expect(done.status).toBe('success');
    const agents = hosted.sent.map((call) => call.agent);
    const count = (agent: string) => agents.filter((made) => made === agent).length;
    expect([count('architect'), count('dispatcher'), count('sandbox.runTests')]).toEqual([1, 1, 1]);
    expect(count('sandbox.runCalls')).toBeGreaterThanOrEqual(2);
    expect(new Set(hosted.sent.map((call) => call.id)).size).toBe(hosted.sent.length);
    const artifacts = done.outcome!.artifacts as { artifact_type: string; metadata: Record<string, unknown> }[];
    expect(artifacts.find((a) => a.artifact_type === 'test_result')!.metadata).toMatchObject({ failed: 0 });
    // Settled: nothing left to send, no timer left.
    expect(hosted.state.sent).toEqual([]);
    expect(hosted.state.deadlines).toEqual([]);
  }, 60_000);

  it("ends a delegation nobody answers at its watchdog's deadline, a tick of the object to itself", async () => {
    const submitted = await handler(null, T0, (service) => service.submit(USER, EXAMPLE, TASK));
    // The Architect's delegation is watched for 120 s (spec 002's default): one tick then.
    expect(submitted.ticks).toEqual([{ deadline: T0 + 120_000, delayMs: 120_000 }]);
    expect(submitted.state.deadlines).toEqual([T0 + 120_000]);
    // A handler before the deadline (another tick, say) changes nothing.
    const early = await handler(submitted.state, T0 + 60_000, async () => null);
    expect(early.calls).toEqual([]);
    expect(early.ticks).toEqual([]);
    expect((await view(early.state)).tree[0]!.status).toBe('working');
    const due = await handler(early.state, T0 + 120_000, async () => null);
    const [timedOut, retry] = (await view(due.state)).tree;
    expect([timedOut!.status, retry!.status]).toEqual(['timeout', 'working']);
    // The Monitor retried at once as a new message: a new Architect call under a new key, watched 120 s.
    expect(due.calls.map((call) => call.agent)).toEqual(['architect']);
    expect(due.calls[0]!.id).not.toBe(submitted.calls[0]!.id);
    expect(due.calls[0]!.id.startsWith(`${retry!.message_id}/`)).toBe(true);
    expect(due.ticks).toEqual([{ deadline: T0 + 240_000, delayMs: 120_000 }]);
    // The retry answered, the task is solved; the first call's late answer changes nothing.
    const hosted: Hosted = { state: due.state, sent: [...due.calls], handlers: 0 };
    await answerAll(hosted, T0 + 130_000);
    expect((await view(hosted.state)).status).toBe('success');
    const late = (await served.architect!(submitted.calls[0]!.input)) as BrainAnswer;
    const after = await handler(
      hosted.state,
      T0 + 131_000,
      async () => null,
      (state) => {
        state.answers[submitted.calls[0]!.id] = late;
      },
    );
    expect(after.calls).toEqual([]);
    expect(await view(after.state)).toEqual(await view(hosted.state));
  }, 60_000);

  it("retries a specialist that timed out after the Dispatcher's backoff, a deadline the replay draws again the same", async () => {
    const submitted = await handler(null, T0, (service) => service.submit(USER, EXAMPLE, TASK));
    const hosted: Hosted = { state: submitted.state, sent: [...submitted.calls], handlers: 1 };
    // The plan and the routing answered; the solver's sandbox never answers: its delegation times out.
    const sandbox = (call: BrainCall) => call.agent.startsWith('sandbox.');
    await answerAll(hosted, T0 + 1_000, sandbox);
    const fleet = hosted.state.deadlines.filter((deadline) => deadline < T0 + 60_000);
    expect(fleet).toHaveLength(1);
    const timedOut = await handler(hosted.state, fleet[0]!, async () => null);
    // The retry waits out its backoff: a due time between now and the Dispatcher's deadline, a tick for it.
    const [retryAt] = timedOut.ticks
      .map((tick) => tick.deadline)
      .filter((at) => at > fleet[0]! && at < fleet[0]! + 30_000);
    expect(retryAt).toBeDefined();
    expect(timedOut.calls).toEqual([]);
    // At that time the retry goes out: the solver is asked again, its sandbox call under a new key.
    const retried = await handler(timedOut.state, retryAt!, async () => null);
    expect(retried.calls.map((call) => call.agent)).toEqual(['sandbox.runTests']);
    expect(hosted.sent.map((call) => call.id)).not.toContain(retried.calls[0]!.id);
  }, 60_000);
});
