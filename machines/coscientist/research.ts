/**
 * The lifecycle of one research goal (issue 13), drawn from `RESEARCH_TRANSITIONS`: the phases of
 * an iteration, escalation to the scientist and back to the phase that escalated, and stopping.
 * The SUPERVISOR's loop sends it `phase.done`, `iteration.done`, `research.done`,
 * `task.escalated`, `scientist.answered`, `research.stop` and `tasks.drained`; it emits nothing.
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import {
  RESEARCH_PHASES,
  type ResearchEventType,
  type ResearchPhase,
  type ResearchState,
} from '../../protocol/coscientist/research-transitions.ts';

/** What the goal remembers: the phase that escalated, if it waits for the scientist. */
export interface ResearchContext {
  escalatedFrom: ResearchPhase | undefined;
}

type ResearchEvent = { type: ResearchEventType };

const phaseNode = (next: ResearchState | undefined, phase: ResearchPhase, description: string) => ({
  description,
  on: {
    ...(next ? { 'phase.done': { target: next } } : {}),
    'task.escalated': {
      target: 'awaiting_scientist',
      actions: { type: 'recordEscalation' as const, params: { phase } },
    },
    'research.stop': { target: 'stopping' },
  },
});

export const researchMachine = setup({
  types: { context: {} as ResearchContext, events: {} as ResearchEvent },
  actions: {
    recordEscalation: assign((_, params: { phase: ResearchPhase }) => ({ escalatedFrom: params.phase })),
    clearEscalation: assign({ escalatedFrom: undefined }),
  },
  guards: {
    escalatedFrom: ({ context }, params: { phase: ResearchPhase }) => context.escalatedFrom === params.phase,
  },
}).createMachine({
  id: 'research',
  initial: 'generating',
  context: { escalatedFrom: undefined },
  states: {
    generating: phaseNode(
      'reviewing',
      'generating',
      'GENERATION proposes hypotheses from the goal, guidance and feedback.',
    ),
    reviewing: phaseNode('tournament', 'reviewing', 'REFLECTION reviews every hypothesis not yet reviewed.'),
    tournament: phaseNode('ranking', 'tournament', 'RANKING asked for a tournament; its debates run in parallel.'),
    ranking: phaseNode('evolving', 'ranking', 'RANKING applies the debates to Elo; the SUPERVISOR checks consistency.'),
    evolving: phaseNode('meta_reviewing', 'evolving', 'EVOLUTION writes new hypotheses from the best ones.'),
    meta_reviewing: {
      ...phaseNode(undefined, 'meta_reviewing', 'META_REVIEW writes feedback per agent type and an overview.'),
      on: {
        ...phaseNode(undefined, 'meta_reviewing', '').on,
        'iteration.done': { target: 'generating' },
        'research.done': { target: 'completed' },
      },
    },
    awaiting_scientist: {
      description:
        'A failed task was escalated: its dependents are blocked until the scientist answers through guidance.',
      on: {
        'scientist.answered': RESEARCH_PHASES.map((phase) => ({
          guard: { type: 'escalatedFrom' as const, params: { phase } },
          target: phase,
          actions: 'clearEscalation' as const,
        })),
        'research.stop': { target: 'stopped' },
      },
    },
    stopping: {
      description: 'No new task starts; the tasks in flight finish or time out, their results kept.',
      on: { 'tasks.drained': { target: 'stopped' } },
    },
    completed: { type: 'final', description: 'Every iteration ran.' },
    stopped: { type: 'final', description: 'Stopped by the scientist; partial results kept.' },
  },
});

/** A goal's research snapshot, restored from its state and context (as the SUPERVISOR persists them). */
export function researchSnapshotOf(
  state: ResearchState,
  context: ResearchContext,
): SnapshotFrom<typeof researchMachine> {
  return researchMachine.resolveState({ value: state, context });
}
