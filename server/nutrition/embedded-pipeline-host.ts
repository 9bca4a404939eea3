import type { InspectionEvent } from 'xstate';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { Store } from '../../actors/runtime/store.ts';
import type { AgentBrainLogic } from '../../machines/runtime/agent.ts';
import { nutritionRunInput, nutritionSystem, type NutritionWorker } from '../../machines/nutrition/nutrition-system.ts';
import type { PipelineEvent } from '../../machines/nutrition/pipeline.ts';
import type { NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { RunHost, type RunHostOptions } from '../run-host/run-host.ts';
import { adoptLegacyRuns } from './legacy-runs.ts';
import type { PipelineHostOpener } from './pipeline-host.ts';
import { catchUpPipeline, rebuildPipeline } from './pipeline-rebuild.ts';
import { restsForUser } from './pipeline-resting.ts';

/** The pipelines in this process (`npm start`): where their journal is, their brains and timeouts. */
export interface EmbeddedPipelineOptions {
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
 * The embedded host of the nutrition pipelines: each run an ORCHESTRATOR with its agents, durable
 * (finished in `error`, resting while it waits for its user alone, rebuilt from its journal), one
 * spare run built ahead of time; the host continues every run that was not over. Runs stored
 * before the run host are adopted first.
 *
 * @example
 * const runs = await PipelineRuns.open(store, embeddedPipelineHost({ store, journal, brains }));
 */
export function embeddedPipelineHost(options: EmbeddedPipelineOptions): PipelineHostOpener {
  return async (onChange) => {
    await adoptLegacyRuns(options.store, options.journal);
    const host = await RunHost.open({
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
    return {
      host,
      messages: async (runId) =>
        (await options.journal.read(runId)).map((entry) => entry.data.envelope as NutritionEnvelope),
    };
  };
}
