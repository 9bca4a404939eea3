import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, sendTo, setup, type InspectionEvent } from 'xstate';
import { agentMachine } from '../../../../machines/runtime/agent.ts';
import type { AgentBrainInput } from '../../../../protocol/runtime/agent-report.ts';
import { initialValue, inspectedRunSource } from '../../../../server/viz/inspected-run-source.ts';
import { machineGraph } from '../../../../server/viz/machine-graph.ts';
import type { RunInspectors } from '../../../../server/viz/run-sources.ts';

const parent = setup({
  types: { events: {} as { type: 'agent.request'; requestId: string; input: unknown } | { type: 'agent.report' } },
  actors: {
    agent: agentMachine.provide({
      actors: { brain: fromPromise<unknown, AgentBrainInput>(() => new Promise(() => {})) },
    }),
  },
}).createMachine({
  invoke: { id: 'agent', src: 'agent', input: { name: 'TEST' } },
  on: { 'agent.request': { actions: sendTo('agent', ({ event }) => event) } },
});

describe('inspectedRunSource', () => {
  it('shows a run to its owner only, from the initial state, following its inspection events', async () => {
    const inspectors: RunInspectors = new Set();
    const owners: Record<string, string> = { r1: 'alice', r2: 'bob' };
    const source = inspectedRunSource({ machine: agentMachine, inspectors, owns: (user, run) => owners[run] === user });
    expect(source.machine).toBe('agent');
    expect(await source.open('bob', 'r1')).toBeUndefined();
    expect(await source.open('alice', 'nope')).toBeUndefined();
    const view = (await source.open('alice', 'r1'))!;
    expect(view.value()).toBe('idle');

    const heard: InspectionEvent[] = [];
    const stop = view.subscribe((event) => heard.push(event));
    const runs = Object.keys(owners).map((runId) =>
      createActor(parent, { inspect: (event) => inspectors.forEach((f) => f(runId, event)) }).start(),
    );
    expect(heard.length).toBeGreaterThan(0); // r1 starting
    heard.length = 0;
    runs[1]!.send({ type: 'agent.request', requestId: 'b', input: {} });
    expect(heard).toEqual([]);
    expect(view.value()).toBe('idle');
    runs[0]!.send({ type: 'agent.request', requestId: 'a', input: {} });
    expect(heard.length).toBeGreaterThan(0);
    expect(view.value()).toEqual({ working: 'running' });
    expect(view.recent!().map((u) => u.transitions[0])).toEqual(['agent:agent.request:0', 'agent.idle:always:0']);
    stop();
    const count = heard.length;
    runs[0]!.send({ type: 'agent.request', requestId: 'a2', input: {} });
    expect(heard).toHaveLength(count);
  });

  it('starts every compound state in its initial child and every region of a parallel state', () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'p',
      states: {
        p: {
          type: 'parallel',
          states: {
            a: { initial: 'a1', states: { a1: {} } },
            b: { initial: 'b1', states: { b1: { initial: 'x', states: { x: {} } } } },
          },
        },
      },
    });
    expect(initialValue(machineGraph(machine))).toEqual({ p: { a: 'a1', b: { b1: 'x' } } });
    expect(initialValue(machineGraph(agentMachine))).toBe('idle');
  });
});
