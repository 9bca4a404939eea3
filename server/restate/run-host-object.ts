import './with-resolvers.ts';
import * as restate from '@restatedev/restate-sdk';
import type { EventObject } from 'xstate';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { isRoutedRecord } from '../../protocol/runtime/ack-record.ts';
import { answerTo, journaledCall, type BrainCall, type RestateBrain } from './run-object.ts';
import { restoreRun, type RestateRunSpec, type RestoredRun, type RunState } from './restored-run.ts';
import type { BrainAnswer } from './served-brains.ts';

/** What a handler of a run object answers: the run actor's snapshot and the envelopes it routed meanwhile. */
export interface RunStep {
  snapshot: { value: unknown; context: unknown; status: string } | undefined;
  routed: unknown[];
}

const json = restate.serde.json;

/**
 * A system's runs hosted on Restate: the virtual object `<name>-host`, one per run keyed by its
 * journal partition, whose state is the run (its run actor's snapshot, its journal, its timers'
 * deadlines and its brains' answers), and the service `<name>-brains`, which makes each brain
 * call as one `ctx.run` and hands the answer back to the run. Every exclusive handler restores
 * the run, hands it what came (`deliver`: an event, sent at the ingress under its envelope's id
 * as idempotency key; `answer`: a brain's answer; `tick`: a timer due), lets it run until
 * nothing waits for the journal, sends the brain calls it made, saves it, and arms one delayed
 * message to itself per timer deadline. `view` (shared) reads the state.
 *
 * @example
 * serveRestateEndpoint(runHostServices(spec, servedBrains(brains)), 9080);
 */
export function runHostServices(spec: RestateRunSpec, brains: Readonly<Record<string, RestateBrain>>) {
  const hostName = `${spec.name}-host`;
  const brainsName = `${spec.name}-brains`;

  /** One exclusive step of a run: `take` changes its state first (an answer), `work` acts on the restored run. */
  const step = async (
    ctx: restate.ObjectContext,
    work: (run: RestoredRun) => void,
    take: (state: RunState) => void = () => undefined,
  ): Promise<RunStep> => {
    const saved = await ctx.get<RunState>('run');
    const done = await stepRun(spec, ctx.key, saved, await ctx.date.now(), work, take);
    for (const call of done.calls)
      ctx.genericSend({
        service: brainsName,
        method: 'call',
        parameter: { run: ctx.key, ...call },
        inputSerde: json,
      });
    for (const tick of done.ticks)
      ctx.genericSend({
        service: hostName,
        method: 'tick',
        key: ctx.key,
        parameter: { key: tick.key, deadline: tick.deadline },
        inputSerde: json,
        delay: tick.delayMs,
      });
    ctx.set<RunState>('run', done.state);
    return done.step;
  };

  const host = restate.object({
    name: hostName,
    handlers: {
      deliver: (ctx: restate.ObjectContext, event: EventObject) => step(ctx, ({ run }) => run.send(event)),
      answer: (ctx: restate.ObjectContext, reply: { id: string; answer: BrainAnswer }) =>
        step(
          ctx,
          () => undefined,
          (state) => {
            state.answers[reply.id] = reply.answer;
            state.sent = state.sent.filter((id) => id !== reply.id);
          },
        ),
      tick: async (ctx: restate.ObjectContext, due: { key: string; deadline: number }): Promise<RunStep> => {
        // A timer cancelled or armed again since this message was sent: nothing is due, the run is not restored.
        const timer = (await ctx.get<RunState>('run'))?.timers[due.key];
        if (timer?.deadline !== due.deadline) return { snapshot: undefined, routed: [] };
        return step(ctx, () => undefined);
      },
      // A read leaves nothing to keep: its invocation is dropped once answered (the API reads runs often).
      view: restate.handlers.object.shared({ journalRetention: 0 }, async (ctx: restate.ObjectSharedContext) => {
        const state = await ctx.get<RunState>('run');
        if (!state) return null;
        const routed = state.journal.filter((entry) => isRoutedRecord(entry.data));
        return { snapshot: state.snapshot ?? null, messages: routed.map((e) => (e.data as RoutedRecord).envelope) };
      }),
    },
  });

  const brainService = restate.service({
    name: brainsName,
    handlers: {
      call: async (ctx: restate.Context, call: BrainCall & { run: string }) => {
        const brain = brains[call.agent];
        if (!brain) throw new restate.TerminalError(`${spec.name} has no brain for ${call.agent}.`);
        answerTo(ctx, hostName, call.run, call.id, await journaledCall(ctx, call, brain));
      },
    },
  });
  return [host, brainService] as const;
}

/** What one handler of a run object does, as data: the brain calls and timer messages to send, the state to save, the answer. */
export interface SteppedRun {
  calls: BrainCall[];
  ticks: { key: string; deadline: number; delayMs: number }[];
  state: RunState;
  step: RunStep;
}

/**
 * One exclusive step of a run object without its context: the run restored from `saved` at
 * `now`, `take` applied to its state first (an answer), `work` done on it, then let run until
 * nothing waits for the journal. A handler is replayed after a crash (in another process, or
 * this one later): for the same `saved`, `now` and work, this answers the same sends and the
 * same state, or Restate finds the replay's journal mismatched and retries it forever.
 * A run that fails throws a `TerminalError` (its invocation fails for good).
 *
 * @example
 * const { calls, ticks, state } = await stepRun(spec, runId, saved, now, ({ run }) => run.send(event));
 */
export async function stepRun(
  spec: RestateRunSpec,
  key: string,
  saved: RunState | null,
  now: number,
  work: (run: RestoredRun) => void,
  take: (state: RunState) => void = () => undefined,
): Promise<SteppedRun> {
  const state: RunState = { journal: [], timers: {}, answers: {}, sent: [], ...(saved ?? {}) };
  take(state);
  const restored = restoreRun(spec, key, state, now);
  try {
    work(restored);
    await restored.settle();
    const failure = restored.failure() ?? restored.timers.refusal();
    if (failure) throw new restate.TerminalError(`Run ${key} failed: ${String(failure)}`);
    const calls = restored.calls.toSend();
    const timers = restored.timers.deadlines();
    const ticks = Object.entries(timers)
      .filter(([name, timer]) => state.timers[name]?.deadline !== timer.deadline)
      .map(([name, { deadline }]) => ({ key: name, deadline, delayMs: Math.max(0, deadline - now) }));
    const snapshot = restored.run.actor.getPersistedSnapshot();
    const { value, context, status } = restored.run.snapshot();
    const routed = restored.journal
      .appended()
      .filter((entry) => isRoutedRecord(entry.data))
      .map((entry) => (entry.data as RoutedRecord).envelope);
    return {
      calls,
      ticks,
      state: {
        ...state,
        sent: [...state.sent, ...calls.map((call) => call.id)],
        snapshot,
        journal: restored.journal.entries(),
        timers,
      },
      step: { snapshot: { value, context, status }, routed },
    };
  } finally {
    restored.run.stop();
  }
}
