import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { offlineNutritionBrains } from '../../../../actors/nutrition/offline-brains.ts';
import { makeEnvelope } from '../../../../actors/nutrition/envelope-factory.ts';
import type { PipelineEvent } from '../../../../machines/nutrition/pipeline.ts';
import { nutritionRunSpec } from '../../../../server/nutrition/restate-run-spec.ts';
import type { RunState } from '../../../../server/restate/restored-run.ts';
import { stepRun, type SteppedRun } from '../../../../server/restate/run-host-object.ts';
import { servedBrains } from '../../../../server/restate/served-brains.ts';
import { payload } from '../../../support/nutrition/nutrition-fakes.ts';

/*
 * A run object's handler is replayed after a crash, in another process or later in this one:
 * Restate compares what the replay sends and saves with what its journal holds, and a difference
 * (a timer keyed by an actor's process-wide session id, an envelope stamped with the wall clock)
 * leaves the invocation retried forever. Here every handler of whole pipeline runs is made twice
 * from the same state at the same handler time, in one process (XState's counters have moved on
 * in between) and an hour of wall clock apart, and must send and save the same.
 */
const spec = nutritionRunSpec({ pipelineTimeoutMs: 60_000 });
const brains = servedBrains(offlineNutritionBrains());
const RUN = '5f0c4d8e-3a1b-4c2d-9e8f-7a6b5c4d3e2f';
const T0 = Date.parse('2026-11-24T10:00:00Z');
const HOUR = 3_600_000;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

/** `stepRun` twice on the same input, the wall clock an hour on for the second: both must agree. */
async function replayed(
  saved: RunState | null,
  now: number,
  event?: PipelineEvent,
  answer?: { id: string; answer: unknown },
) {
  const once = () =>
    stepRun(
      spec,
      RUN,
      saved && structuredClone(saved),
      now,
      ({ run }) => event && run.send(event),
      (state) => {
        if (!answer) return;
        state.answers[answer.id] = answer.answer as never;
        state.sent = state.sent.filter((id) => id !== answer.id);
      },
    );
  const first = await once();
  vi.setSystemTime(Date.now() + HOUR);
  const again = await once();
  expect(sends(again)).toEqual(sends(first));
  expect(again.state).toEqual(first.state);
  return first;
}

function sends(stepped: SteppedRun) {
  return { calls: stepped.calls, ticks: stepped.ticks };
}

function start(intake: Record<string, unknown> = {}): PipelineEvent {
  const envelope = makeEnvelope({
    from: 'USER',
    to: 'INTAKE',
    dataType: 'intake_data',
    payload: { ...payload('intake_data'), ...intake },
    runId: RUN,
    idSeed: [RUN, 'intake'],
  });
  return { type: 'pipeline.start', envelope };
}

/** Answers every brain call in turn (each answer one replayed handler) until none is left. */
async function answerAll(stepped: SteppedRun, now: number, seen: (stepped: SteppedRun) => void = () => undefined) {
  const pending = [...stepped.calls];
  let handlers = 0;
  while (pending.length > 0) {
    const call = pending.shift()!;
    const answer = await brains[call.agent]!(call.input);
    now += 1_000;
    stepped = await replayed(stepped.state, now, undefined, { id: call.id, answer });
    pending.push(...stepped.calls);
    seen(stepped);
    handlers++;
  }
  return { stepped, now, handlers };
}

const envelopesOf = (stepped: SteppedRun) => stepped.step.routed as { from_agent: string; data_type: string }[];

describe('stepRun (one handler of a run object)', () => {
  it('sends and saves the same when replayed, at every handler of a pipeline run, and the run completes', async () => {
    const first = await replayed(null, T0, start());
    const supervisorDeadlines = new Set<number>();
    const keys = new Set<string>();
    const { stepped, handlers } = await answerAll(first, T0, (each) => {
      for (const [key, timer] of Object.entries(each.state.timers)) {
        keys.add(key);
        if (key.startsWith('supervisor.')) supervisorDeadlines.add(timer.deadline);
      }
    });
    expect(handlers).toBeGreaterThanOrEqual(6);
    expect(stepped.step.snapshot?.value).toBe('output_ready');
    // The supervisor's timer is saved under its stable id, not a session id, and keeps its first
    // deadline while each handler restores the supervisor (XState would arm it anew each time).
    expect([...supervisorDeadlines]).toHaveLength(1);
    expect([...keys].filter((key) => /^x:\d+\./.test(key))).toEqual([]);
  });

  it('replays the same through a red flag, the PHYSICIAN, a referral pause and its confirmation', async () => {
    let { stepped, now } = await answerAll(await replayed(null, T0, start({ menstrual_status: 'amenorrhea' })), T0);
    expect(stepped.step.snapshot?.value).toBe('paused_physician');
    now += HOUR;
    stepped = await replayed(stepped.state, now, { type: 'pipeline.confirm_referral' });
    ({ stepped } = await answerAll(stepped, now));
    expect(stepped.step.snapshot?.value).toBe('output_ready');
  });

  it("replays the same when the pipeline times out: the timer's handler stamps its error at the handler time", async () => {
    const first = await replayed(null, T0, start());
    const [intake] = first.calls;
    const answered = await replayed(first.state, T0 + 1_000, undefined, {
      id: intake!.id,
      answer: await brains[intake!.agent]!(intake!.input),
    });
    expect(answered.step.snapshot?.value).toBe('scientist_processing');
    const deadline = Object.values(answered.state.timers).find((timer) => timer.target === 'ORCHESTRATOR')!.deadline;
    // The SCIENTIST never answers; the timer's message comes at its deadline, an hour of wall clock later.
    const timedOut = await replayed(answered.state, deadline, undefined);
    expect(timedOut.step.snapshot?.value).toBe('error');
    const error = envelopesOf(timedOut).find((e) => e.data_type === 'pipeline_error') as unknown as {
      timestamp: string;
    };
    expect(error.timestamp).toBe(new Date(deadline).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  });
});
