import './with-resolvers.ts';
import * as restate from '@restatedev/restate-sdk';
import type { EventObject } from 'xstate';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { isRoutedRecord } from '../../protocol/runtime/ack-record.ts';
import { journaledCall, type BrainCall, type RestateBrain } from './run-object.ts';
import { restoreRun, type RestateRunSpec, type RunState } from './restored-run.ts';
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
    work: (run: ReturnType<typeof restoreRun>) => void,
    take: (state: RunState) => void = () => undefined,
  ): Promise<RunStep> => {
    const state: RunState = {
      journal: [],
      timers: {},
      answers: {},
      sent: [],
      ...((await ctx.get<RunState>('run')) ?? {}),
    };
    take(state);
    const now = await ctx.date.now();
    const restored = restoreRun(spec, ctx.key, state, now);
    try {
      work(restored);
      await restored.settle();
      const failure = restored.failure();
      if (failure) throw new restate.TerminalError(`Run ${ctx.key} failed: ${String(failure)}`);
      for (const call of restored.calls.toSend()) {
        ctx.genericSend({
          service: brainsName,
          method: 'call',
          parameter: { run: ctx.key, ...call },
          inputSerde: json,
        });
        state.sent.push(call.id);
      }
      const timers = restored.timers.deadlines();
      for (const [key, timer] of Object.entries(timers))
        if (state.timers[key]?.deadline !== timer.deadline)
          ctx.genericSend({
            service: hostName,
            method: 'tick',
            key: ctx.key,
            parameter: { key, deadline: timer.deadline },
            inputSerde: json,
            delay: Math.max(0, timer.deadline - now),
          });
      const snapshot = restored.run.actor.getPersistedSnapshot();
      ctx.set<RunState>('run', { ...state, snapshot, journal: restored.journal.entries(), timers });
      const { value, context, status } = restored.run.snapshot();
      const routed = restored.journal
        .appended()
        .filter((entry) => isRoutedRecord(entry.data))
        .map((entry) => (entry.data as RoutedRecord).envelope);
      return { snapshot: { value, context, status }, routed } satisfies RunStep;
    } finally {
      restored.run.stop();
    }
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
        const answer = await journaledCall(ctx, call, brain);
        ctx.genericSend({
          service: hostName,
          method: 'answer',
          key: call.run,
          parameter: { id: call.id, answer },
          inputSerde: json,
        });
      },
    },
  });
  return [host, brainService] as const;
}
