import { z } from 'zod';

/**
 * A research goal's states: the phases of one iteration (spec 003's examples, the paper's
 * loop), `awaiting_scientist` (a failed task was escalated: the goal waits for guidance), and the
 * ends: `completed` after the last iteration, `stopped` after a stop (`stopping` lets the tasks
 * in flight finish or time out).
 */
export const ResearchStateSchema = z.enum([
  'generating',
  'reviewing',
  'tournament',
  'ranking',
  'evolving',
  'meta_reviewing',
  'awaiting_scientist',
  'stopping',
  'completed',
  'stopped',
]);
export type ResearchState = z.infer<typeof ResearchStateSchema>;

/** The phases that run tasks, in the order of an iteration. */
export const RESEARCH_PHASES = [
  'generating',
  'reviewing',
  'tournament',
  'ranking',
  'evolving',
  'meta_reviewing',
] as const satisfies readonly ResearchState[];
export type ResearchPhase = (typeof RESEARCH_PHASES)[number];

/** What moves a goal. */
export const ResearchEventTypeSchema = z.enum([
  'phase.done',
  'iteration.done',
  'research.done',
  'task.escalated',
  'scientist.answered',
  'research.stop',
  'tasks.drained',
]);
export type ResearchEventType = z.infer<typeof ResearchEventTypeSchema>;

/** One edge; `to: 'phase'` of `scientist.answered` means back to the phase that escalated. */
export interface ResearchTransition {
  readonly from: ResearchState;
  readonly event: ResearchEventType;
  readonly to: ResearchState;
}

const next: Record<Exclude<ResearchPhase, 'meta_reviewing'>, ResearchPhase> = {
  generating: 'reviewing',
  reviewing: 'tournament',
  tournament: 'ranking',
  ranking: 'evolving',
  evolving: 'meta_reviewing',
};

/** The research lifecycle, edge by edge; `machines/coscientist/research.ts` is checked against it both ways. */
export const RESEARCH_TRANSITIONS: readonly ResearchTransition[] = Object.freeze([
  ...Object.entries(next).map(([from, to]) => ({ from: from as ResearchState, event: 'phase.done' as const, to })),
  { from: 'meta_reviewing', event: 'iteration.done', to: 'generating' },
  { from: 'meta_reviewing', event: 'research.done', to: 'completed' },
  ...RESEARCH_PHASES.flatMap((phase) => [
    { from: phase, event: 'task.escalated' as const, to: 'awaiting_scientist' as const },
    { from: 'awaiting_scientist' as const, event: 'scientist.answered' as const, to: phase },
    { from: phase, event: 'research.stop' as const, to: 'stopping' as const },
  ]),
  { from: 'awaiting_scientist', event: 'research.stop', to: 'stopped' },
  { from: 'stopping', event: 'tasks.drained', to: 'stopped' },
]);
