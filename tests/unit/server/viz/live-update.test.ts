import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, sendTo, setup, SimulatedClock, type InspectionEvent } from 'xstate';
import { agentMachine } from '../../../../machines/runtime/agent.ts';
import type { AgentBrainInput } from '../../../../protocol/runtime/agent-report.ts';
import { activeStateIds, liveUpdateOf, type LiveTransition } from '../../../../server/viz/live-update.ts';
import { machineGraph } from '../../../../server/viz/machine-graph.ts';
import { RecentTransitions } from '../../../../server/viz/recent-transitions.ts';

const agentGraph = machineGraph(agentMachine);

/** A parent that invokes an agent whose brain never answers, and forwards requests to it. */
function parentOf(brain = fromPromise<unknown, AgentBrainInput>(() => new Promise(() => {}))) {
  return setup({
    types: { events: {} as { type: 'agent.request'; requestId: string; input: unknown } | { type: 'agent.report' } },
    actors: { agent: agentMachine.provide({ actors: { brain } }) },
  }).createMachine({
    id: 'parent',
    invoke: { id: 'agent', src: 'agent', input: { name: 'TEST', timeoutMs: 1_000, maxAttempts: 2 } },
    on: { 'agent.request': { actions: sendTo('agent', ({ event }) => event) } },
  });
}

function watch() {
  const clock = new SimulatedClock();
  const events: InspectionEvent[] = [];
  const actor = createActor(parentOf(), { clock, inspect: (event) => events.push(event) }).start();
  return {
    clock,
    events,
    actor,
    updates: () => events.map((e) => liveUpdateOf(agentGraph, e)).filter((u): u is LiveTransition => u !== undefined),
  };
}

describe('activeStateIds', () => {
  it('lists the root and every active descendant of a state value', () => {
    expect(activeStateIds(agentGraph, 'idle')).toEqual(['agent', 'agent.idle']);
    expect(activeStateIds(agentGraph, { working: 'running' })).toEqual([
      'agent',
      'agent.working',
      'agent.working.running',
    ]);
  });
});

describe('liveUpdateOf', () => {
  it('turns the microsteps of a running agent into the ids the diagram draws, and nothing of its parent', () => {
    const { actor, updates } = watch();
    actor.send({ type: 'agent.request', requestId: 'r1', input: { n: 1 } });
    const seen = updates();
    const known = new Set(agentGraph.transitions.map((t) => t.id));
    for (const update of seen) for (const id of update.transitions) expect(known.has(id), id).toBe(true);
    expect(seen.map((u) => u.transitions)).toEqual([['agent:agent.request:0'], ['agent.idle:always:0']]);
    expect(seen[1]).toMatchObject({
      event: 'agent.request',
      edges: ['agent.idle->agent.working'],
      active: ['agent', 'agent.working', 'agent.working.running'],
    });
  });

  it('names delayed transitions by their delay, as drawn (a SimulatedClock drives the timeout)', () => {
    const { actor, clock, updates } = watch();
    actor.send({ type: 'agent.request', requestId: 'r1', input: {} });
    const before = updates().length;
    clock.increment(1_000);
    const retry = updates().slice(before);
    expect(retry.map((u) => u.transitions)).toEqual([['agent.working.running:after.agentTimeout:0']]);
    clock.increment(1_000);
    const last = updates().at(-1)!;
    expect(last.transitions).toEqual(['agent.working.running:after.agentTimeout:1']);
    expect(last.active).toEqual(['agent', 'agent.idle']);
  });

  it('ignores every other inspection event', () => {
    const { events } = watch();
    const others = events.filter((e) => e.type !== '@xstate.microstep');
    expect(others.length).toBeGreaterThan(0);
    for (const event of others) expect(liveUpdateOf(agentGraph, event)).toBeUndefined();
  });
});

describe('RecentTransitions', () => {
  it('keeps the last transitions of each run, oldest first, and forgets the runs that moved least recently', () => {
    const recent = new RecentTransitions(agentGraph, 2, 2);
    const runs = ['a', 'b', 'c'].map((id) => ({ id, ...watch() }));
    for (const run of runs) {
      run.actor.send({ type: 'agent.request', requestId: 'r', input: {} });
      run.clock.increment(1_000);
    }
    for (const run of runs.slice(0, 2)) for (const event of run.events) recent.record(run.id, event);
    expect(recent.of('a').map((u) => u.transitions[0])).toEqual([
      'agent.idle:always:0',
      'agent.working.running:after.agentTimeout:0',
    ]);
    for (const event of runs[2]!.events) recent.record('c', event);
    expect(recent.of('a')).toEqual([]);
    expect(recent.of('b')).toHaveLength(2);
    expect(recent.of('c')).toHaveLength(2);
  });
});
