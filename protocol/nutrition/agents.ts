import { z } from 'zod';

/**
 * Every party that sends or receives a nutrition message (spec 000 §2). The seven agents of §2,
 * plus ORCHESTRATOR (sender of `pipeline_error`, §6) and USER (receiver of final output and
 * sender of `weekly_checkin`, §7.1).
 */
export const NutritionAgentSchema = z.enum([
  'INTAKE',
  'SCIENTIST',
  'NUTRITIONIST',
  'DIETITIAN',
  'CHEF',
  'COACH',
  'PHYSICIAN',
  'ORCHESTRATOR',
  'USER',
]);
export type NutritionAgent = z.infer<typeof NutritionAgentSchema>;

/** The agents that are pipeline stages and can be re-run or skipped (§10 re-execution map). */
export const PipelineStageAgentSchema = NutritionAgentSchema.extract([
  'SCIENTIST',
  'NUTRITIONIST',
  'DIETITIAN',
  'CHEF',
  'COACH',
]);
export type PipelineStageAgent = z.infer<typeof PipelineStageAgentSchema>;

/** The seven agents of §2 that do work (each a worker with a brain): all but ORCHESTRATOR and USER. */
export const NutritionWorkerSchema = NutritionAgentSchema.exclude(['ORCHESTRATOR', 'USER']);
export type NutritionWorker = z.infer<typeof NutritionWorkerSchema>;
