import { describe, expect, it } from 'vitest';
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
 * Restate compares what the replay sends with what its journal holds, and a difference (a timer
 * keyed by an actor's process-wide session id, say) leaves the invocation retried forever.
 * Here every handler of a whole pipeline run is made twice from the same state, in one process
 * (so XState's counters have moved on between the two), and must send and save the same.
 */
const spec = nutritionRunSpec();
const brains = servedBrains(offlineNutritionBrains());
const RUN = '5f0c4d8e-3a1b-4c2d-9e8f-7a6b5c4d3e2f';
const T0 = Date.parse('2026-11-24T10:00:00Z');

/** `stepRun` twice on the same input: both must agree; the first is the one kept. */
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
  const again = await once();
  expect(sends(again)).toEqual(sends(first));
  expect(again.state).toEqual(first.state);
  return first;
}

function sends(stepped: SteppedRun) {
  return { calls: stepped.calls, ticks: stepped.ticks };
}

describe('stepRun (one handler of a run object)', () => {
  it('sends and saves the same when replayed, at every handler of a pipeline run, and the run completes', async () => {
    const envelope = makeEnvelope({
      from: 'USER',
      to: 'INTAKE',
      dataType: 'intake_data',
      payload: payload('intake_data'),
      runId: RUN,
      idSeed: [RUN, 'intake'],
    });
    let now = T0;
    let stepped = await replayed(null, now, { type: 'pipeline.start', envelope });
    const pending = [...stepped.calls];
    const timerKeys = new Set(Object.keys(stepped.state.timers));
    const supervisorDeadlines = new Set<number>();
    let handlers = 1;
    while (pending.length > 0) {
      const call = pending.shift()!;
      const answer = await brains[call.agent]!(call.input);
      now += 1_000;
      stepped = await replayed(stepped.state, now, undefined, { id: call.id, answer });
      pending.push(...stepped.calls);
      for (const [key, timer] of Object.entries(stepped.state.timers)) {
        timerKeys.add(key);
        if (key.startsWith('supervisor.')) supervisorDeadlines.add(timer.deadline);
      }
      handlers++;
    }
    expect(handlers).toBeGreaterThan(6);
    expect(stepped.step.snapshot?.value).toBe('output_ready');
    // The supervisor's timer is saved under its stable id, not a session id, and keeps its first
    // deadline while each handler restores the supervisor (XState would arm it anew each time).
    expect([...supervisorDeadlines]).toHaveLength(1);
    expect([...timerKeys].filter((key) => /^x:\d+\./.test(key))).toEqual([]);
  });
});
