import type { NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import type { RunSnapshot } from '../run-host/hosted-run.ts';
import type { RunHosting } from '../run-host/run-hosting.ts';

/** The host of the nutrition pipelines, whichever runs them, and where a run's journal is read. */
export interface PipelineHost {
  host: RunHosting;
  /** Every envelope of the run's journal, in journal order (the supervisor checked each). */
  messages(runId: string): Promise<NutritionEnvelope[]>;
}

/** Told of each change of an owned run (its listing and its owner's clearance follow it). */
export type PipelineChange = (runId: string, userId: string, snapshot: RunSnapshot) => void;

/**
 * Opens the host of the pipelines: the embedded one (`embeddedPipelineHost`, `npm start`) or
 * the one on Restate (`restatePipelineHost`, `npm run start:cluster`).
 *
 * @example
 * const { host, messages } = await openHost((runId, userId, snapshot) => follow(userId, runId, snapshot));
 */
export type PipelineHostOpener = (onChange: PipelineChange) => Promise<PipelineHost>;
