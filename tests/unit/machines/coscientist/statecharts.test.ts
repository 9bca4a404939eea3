import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { researchMachine, researchSnapshotOf } from '../../../../machines/coscientist/research.ts';
import { taskMachine, taskSnapshotOf, taskStateAfter } from '../../../../machines/coscientist/task.ts';
import {
  RESEARCH_PHASES,
  RESEARCH_TRANSITIONS,
  ResearchEventTypeSchema,
  ResearchStateSchema,
} from '../../../../protocol/coscientist/research-transitions.ts';
import {
  TASK_TRANSITIONS,
  TaskEventTypeSchema,
  TaskStateSchema,
} from '../../../../protocol/coscientist/task-transitions.ts';

describe('taskMachine', () => {
  it('takes exactly the transitions of TASK_TRANSITIONS, from every state and for every event', () => {
    const table = new Map(TASK_TRANSITIONS.map((t) => [`${t.from}|${t.event}`, t.to]));
    for (const state of TaskStateSchema.options) {
      for (const event of TaskEventTypeSchema.options) {
        const expected = table.get(`${state}|${event}`);
        expect(taskStateAfter(state, event), `${state} on ${event}`).toBe(expected);
        expect(taskSnapshotOf(state).can({ type: event })).toBe(expected !== undefined);
      }
    }
    expect(initialTransition(taskMachine)[0].value).toBe('queued');
  });
});

describe('researchMachine', () => {
  const table = new Map<string, string[]>();
  for (const t of RESEARCH_TRANSITIONS)
    table.set(`${t.from}|${t.event}`, [...(table.get(`${t.from}|${t.event}`) ?? []), t.to]);

  it('takes exactly the table from every state but awaiting_scientist, for every event', () => {
    for (const state of ResearchStateSchema.options.filter((s) => s !== 'awaiting_scientist')) {
      for (const event of ResearchEventTypeSchema.options) {
        const snapshot = researchSnapshotOf(state, { escalatedFrom: undefined });
        const expected = table.get(`${state}|${event}`);
        expect(snapshot.can({ type: event }), `${state} on ${event}`).toBe(expected !== undefined);
        if (expected) expect(transition(researchMachine, snapshot, { type: event })[0].value).toBe(expected[0]);
      }
    }
  });

  it('goes back from awaiting_scientist to the phase that escalated, and to no other', () => {
    const answered = table.get('awaiting_scientist|scientist.answered')!;
    expect(new Set(answered)).toEqual(new Set(RESEARCH_PHASES));
    for (const phase of RESEARCH_PHASES) {
      const [waiting] = transition(researchMachine, researchSnapshotOf(phase, { escalatedFrom: undefined }), {
        type: 'task.escalated',
      });
      expect(waiting.value).toBe('awaiting_scientist');
      const [resumed] = transition(researchMachine, waiting, { type: 'scientist.answered' });
      expect(resumed.value).toBe(phase);
      expect(resumed.context.escalatedFrom).toBeUndefined();
    }
    const waiting = researchSnapshotOf('awaiting_scientist', { escalatedFrom: 'ranking' });
    for (const event of ResearchEventTypeSchema.options) {
      expect(waiting.can({ type: event }), event).toBe(table.has(`awaiting_scientist|${event}`));
    }
  });

  it('declares no edge outside the table', () => {
    const declared = new Set<string>();
    for (const [from, node] of Object.entries(researchMachine.config.states ?? {})) {
      for (const [event, t] of Object.entries((node as { on?: Record<string, unknown> }).on ?? {})) {
        for (const one of [t].flat() as { target: string }[]) declared.add(`${from}|${event}|${one.target}`);
      }
    }
    expect([...declared].sort()).toEqual(
      [...new Set(RESEARCH_TRANSITIONS.map((t) => `${t.from}|${t.event}|${t.to}`))].sort(),
    );
  });

  it('runs an iteration in phase order', () => {
    let [snapshot] = initialTransition(researchMachine);
    const seen = [snapshot.value];
    for (let i = 0; i < 5; i++) {
      [snapshot] = transition(researchMachine, snapshot, { type: 'phase.done' });
      seen.push(snapshot.value);
    }
    expect(seen).toEqual([...RESEARCH_PHASES]);
    expect(transition(researchMachine, snapshot, { type: 'research.done' })[0].value).toBe('completed');
  });
});
