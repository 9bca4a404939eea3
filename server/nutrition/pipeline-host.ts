import type { InspectionEvent } from 'xstate';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { Store } from '../../actors/runtime/store.ts';
import type { AgentBrainLogic } from '../../machines/runtime/agent.ts';
import { nutritionRunInput, nutritionSystem, type NutritionWorker } from '../../machines/nutrition/nutrition-system.ts';
import type { PipelineEvent } from '../../machines/nutrition/pipeline.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { RunSnapshot } from '../run-host/hosted-run.ts';
import { RunHost, type RunHostOptions } from '../run-host/run-host.ts';
import type { RunHosting } from '../run-host/run-hosting.ts';
import { catchUpPipeline, rebuildPipeline } from './pipeline-rebuild.ts';
import { restsForUser } from './pipeline-resting.ts';

/** What `PipelineRuns.open` needs; all but `store` and `journal` configure the run host alone. */
export interface PipelineRunsOptions {
  store: Store;
  journal: Journal<RoutedRecord>;
  brains: Readonly<Record<NutritionWorker, AgentBrainLogic>>;
  clock?: ServiceClock;
  agentTimeoutMs?: number;
  pipelineTimeoutMs?: number;
  /** How many runs work at once (the run host's defaults where absent). */
  admission?: RunHostOptions['admission'];
  inspect?: (runId: string, event: InspectionEvent) => void;
}

/**
 * Opens the run host of the nutrition pipelines: each run an ORCHESTRATOR with its agents, durable
 * (finished in `error`, resting while it waits for its user alone, rebuilt from its journal), one
 * spare run built ahead of time; the host continues every run that was not over.
 *
 * @example
 * const host = await openPipelineHost(options, (runId, userId, snapshot) => follow(userId, runId, snapshot));
 */
export function openPipelineHost(
  options: PipelineRunsOptions,
  onChange: (runId: string, userId: string, snapshot: RunSnapshot) => void,
): Promise<RunHosting> {
  return RunHost.open({
    system: nutritionSystem({
      brains: options.brains,
      ...(options.agentTimeoutMs ? { agentTimeoutMs: options.agentTimeoutMs } : {}),
    }),
    journal: options.journal,
    store: options.store,
    runActor: 'ORCHESTRATOR',
    runInput: (runId, journaledIds) =>
      nutritionRunInput(runId, {
        ...(options.pipelineTimeoutMs ? { pipelineTimeoutMs: options.pipelineTimeoutMs } : {}),
        journaledIds,
      }),
    durable: {
      finished: (snapshot) => snapshot.value === 'error',
      // Waiting for the user's check-in or referral confirmation: no agent works, no timer runs.
      resting: restsForUser,
      resume: { type: 'pipeline.resume' } satisfies PipelineEvent,
      rebuild: rebuildPipeline,
      catchUp: catchUpPipeline,
    },
    spare: true,
    ...(options.admission ? { admission: options.admission } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.inspect ? { inspect: options.inspect } : {}),
    onChange,
  });
}
