import type { InspectionEvent } from 'xstate';
import { pipelineMachine } from '../../machines/nutrition/pipeline.ts';
import { NotFoundError } from '../../protocol/runtime/runtime-error.ts';
import type { PipelineRuns } from './pipeline-runs.ts';
import { machineGraph } from '../viz/machine-graph.ts';
import { RecentTransitions } from '../viz/recent-transitions.ts';
import type { RunInspectors, RunSource } from '../viz/run-sources.ts';

/**
 * The nutrition pipelines as a run source: a run is the user's when `runs.view` finds it for
 * them, its state is the orchestrator's, and its events come from the runtime's inspectors
 * (which it also listens to from the start, to keep each run's recent transitions).
 */
export function pipelineRunSource(runs: Pick<PipelineRuns, 'view'>, inspectors: RunInspectors): RunSource {
  const recent = new RecentTransitions(machineGraph(pipelineMachine));
  inspectors.add((runId, event) => recent.record(runId, event));
  const stateOf = (userId: string, runId: string) => {
    try {
      return runs.view(userId, runId).state;
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  };
  return {
    machine: 'pipeline',
    open(userId, runId) {
      if (stateOf(userId, runId) === undefined) return undefined;
      return {
        value: () => stateOf(userId, runId) ?? 'error',
        subscribe(listener) {
          const inspector = (id: string, event: InspectionEvent) => {
            if (id === runId) listener(event);
          };
          inspectors.add(inspector);
          return () => inspectors.delete(inspector);
        },
        recent: () => recent.of(runId),
      };
    },
  };
}
