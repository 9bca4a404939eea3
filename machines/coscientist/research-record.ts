import { z } from 'zod';
import { ResearchStateSchema } from '../../protocol/coscientist/research-transitions.ts';

/** The SUPERVISOR's own durable state of a goal (`supervisor/state` in its context memory). */
export const ResearchRecordSchema = z.strictObject({
  state: ResearchStateSchema,
  escalated_from: z.enum(['generating', 'reviewing', 'tournament', 'ranking', 'evolving', 'meta_reviewing']).optional(),
  iteration: z.int().min(1),
  /** Every task submitted, in order (the `/tasks` view and the consistency check read them). */
  tasks: z.array(z.string()),
  /** The tasks of the current phase. */
  phase_tasks: z.array(z.string()),
  /** The SUPERVISOR's retries per task since its last escalation. */
  retried: z.record(z.string(), z.int()),
  /** Timed-out tasks whose partial entries the SUPERVISOR promoted (they count as done). */
  accepted_partial: z.array(z.string()),
  /** What the scientist is asked while the goal waits (`awaiting_scientist`). */
  question: z.string().optional(),
  escalated_task: z.string().optional(),
  /** The last consistent memory: the Elo table's version and the matches then. */
  checkpoint: z.strictObject({ ranking_version: z.int(), match_ids: z.array(z.string()) }).optional(),
  rollbacks: z.int(),
  /** The Elo update task of this iteration, when a rollback replaced the first one. */
  apply_task: z.string().optional(),
  /** Consistency checks run (periodic: at each phase change). */
  checks: z.int(),
});
export type ResearchRecord = z.infer<typeof ResearchRecordSchema>;

/** A new goal's record. */
export function initialRecord(): ResearchRecord {
  return {
    state: 'generating',
    iteration: 1,
    tasks: [],
    phase_tasks: [],
    retried: {},
    accepted_partial: [],
    rollbacks: 0,
    checks: 0,
  };
}

/** The key of the record in context memory. */
export const RECORD_KEY = 'supervisor/state';
