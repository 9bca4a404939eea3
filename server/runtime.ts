import { join } from 'node:path';
import type { InspectionEvent } from 'xstate';
import { openFileJournal } from '../actors/runtime/file-journal.ts';
import { openLowdbStore } from '../actors/runtime/lowdb-store.ts';
import Anthropic from '@anthropic-ai/sdk';
import { claudeNutritionBrains } from '../actors/nutrition/claude-brains.ts';
import { offlineNutritionBrains } from '../actors/nutrition/offline-brains.ts';
import type { RoutedRecord } from '../protocol/runtime/routing.ts';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import { PipelineRuns, type PipelineRunsOptions } from './nutrition/pipeline-runs.ts';
import { clearanceRoutes, pipelineRoutes } from './nutrition/pipeline-routes.ts';
import { openTrainer, type TrainerOverrides } from './trainer/open-trainer.ts';
import { vizRoutes } from './viz/viz-routes.ts';
import { inspectedRunSource } from './viz/inspected-run-source.ts';
import { pipelineRunSource } from './nutrition/pipeline-run-source.ts';
import { RunSources, type RunInspectors } from './viz/run-sources.ts';
import { agentLoopMachine } from '../machines/trainer/agent-loop.ts';

export interface RuntimeOverrides {
  /** The clock of every actor system (a `SimulatedClock` in tests). */
  clock?: PipelineRunsOptions['clock'];
  nutritionBrains?: PipelineRunsOptions['brains'];
  agentTimeoutMs?: number;
  pipelineTimeoutMs?: number;
  /** The personal trainer's model, initializer, loop limits and console log. */
  trainer?: TrainerOverrides;
}

/** Claude for the model-backed agents when a key is set; the offline brains otherwise. */
function nutritionBrains(config: Config) {
  if (!config.anthropicApiKey) return offlineNutritionBrains();
  const client = new Anthropic({ apiKey: config.anthropicApiKey, ...(config.anthropicBaseUrl ? { baseURL: config.anthropicBaseUrl } : {}) });
  return claudeNutritionBrains({ client, model: config.primaryModel });
}

/**
 * The composition root: opens the data under `DATA_DIR` (refusing to start on a corrupt file),
 * continues unfinished runs, and builds the HTTP app over them.
 */
export async function openRuntime(config: Config, overrides: RuntimeOverrides = {}) {
  const store = await openLowdbStore(join(config.dataDir, 'store'));
  const pipelineJournal = await openFileJournal<RoutedRecord>(join(config.dataDir, 'journal', 'pipelines'));
  const inspectors = new Set<(runId: string, event: InspectionEvent) => void>();
  const pipelines = await PipelineRuns.open({
    store,
    journal: pipelineJournal,
    brains: overrides.nutritionBrains ?? nutritionBrains(config),
    ...(overrides.clock ? { clock: overrides.clock } : {}),
    ...(overrides.agentTimeoutMs ? { agentTimeoutMs: overrides.agentTimeoutMs } : {}),
    ...(overrides.pipelineTimeoutMs ? { pipelineTimeoutMs: overrides.pipelineTimeoutMs } : {}),
    inspect: (runId, event) => inspectors.forEach((inspector) => inspector(runId, event)),
  });
  // Every inspection event of every trainer turn, by session id (the live view of the agent loop).
  const sessionInspectors: RunInspectors = new Set();
  const trainer = await openTrainer(config, store, {
    ...(overrides.clock ? { clock: overrides.clock } : {}),
    inspect: (sessionId, event) => sessionInspectors.forEach((inspector) => inspector(sessionId, event)),
    ...overrides.trainer,
  });
  // The visualizer's live view: each system registers where its runs are (sessions plug in here).
  const runSources = new RunSources()
    .register(pipelineRunSource(pipelines, inspectors))
    .register(
      inspectedRunSource({
        machine: agentLoopMachine,
        inspectors: sessionInspectors,
        owns: async (userId, sessionId) => (await trainer.events.getSession(userId, sessionId)) !== undefined,
      }),
    );
  const app = createApp({
    jwtSecret: config.jwtSecret,
    publicRoutes: { '/viz': vizRoutes({ jwtSecret: config.jwtSecret, runSources }) },
    protectedRoutes: { '/pipelines': pipelineRoutes(pipelines), '/clearance': clearanceRoutes(pipelines), ...trainer.routes },
  });
  return {
    app,
    pipelines,
    trainer,
    inspectors,
    runSources,
    async close() {
      await pipelines.close();
      await trainer.close();
      await pipelineJournal.close();
      await store.close();
    },
  };
}

export type Runtime = Awaited<ReturnType<typeof openRuntime>>;
