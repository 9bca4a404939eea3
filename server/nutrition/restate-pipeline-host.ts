import type { Store } from '../../actors/runtime/store.ts';
import { nutritionSystem } from '../../machines/nutrition/nutrition-system.ts';
import type { NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import type { AdmissionLimits } from '../run-host/admission.ts';
import { RestateRunHost } from '../restate/restate-run-host.ts';
import type { PipelineHostOpener } from './pipeline-host.ts';
import { restsForUser } from './pipeline-resting.ts';

/** The pipelines on Restate (`npm run start:cluster`): its ingress, and this process's store and limits. */
export interface RestatePipelineOptions {
  ingressUrl: string;
  store: Store;
  admission?: Partial<AdmissionLimits>;
}

/** Over in `error`; at rest as well while it waits for its user alone. */
const finished = (snapshot: { value: unknown }) => snapshot.value === 'error';

/**
 * The nutrition pipelines as `nutrition-host` objects on Restate (served by the service processes
 * with `nutritionRestateServices`): this process keeps owners, listings and admission, tracks
 * each working run until it rests, and reads a run's journal from its object (`view`).
 *
 * @example
 * const runs = await PipelineRuns.open(store, restatePipelineHost({ ingressUrl, store }));
 */
export function restatePipelineHost(options: RestatePipelineOptions): PipelineHostOpener {
  return async (onChange) => {
    const host = await RestateRunHost.open({
      ingressUrl: options.ingressUrl,
      // Its name and addressing only: the statecharts run in the service processes.
      system: nutritionSystem({ brains: {} as never }),
      store: options.store,
      ...(options.admission ? { admission: options.admission } : {}),
      onChange,
      rests: (snapshot) => finished(snapshot) || restsForUser(snapshot),
      finished,
    });
    return { host, messages: async (runId) => (await host.messagesOf(runId)) as NutritionEnvelope[] };
  };
}
