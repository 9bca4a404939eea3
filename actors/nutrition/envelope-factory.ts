import { derivedUuid } from '../runtime/derived-id.ts';
import type { NutritionAgent } from '../../protocol/nutrition/agents.ts';
import type { EnvelopeOf } from '../../protocol/nutrition/envelope.ts';
import type { NutritionDataType } from '../../protocol/nutrition/nutrition-data-type.ts';

/** What makes one envelope: its route, its payload, its run and the seed its id derives from. */
interface EnvelopeSpec<D extends NutritionDataType> {
  from: NutritionAgent;
  to: NutritionAgent;
  dataType: D;
  payload: EnvelopeOf<D>['payload'];
  runId: string;
  /** Parts the message id is derived from: the same parts give the same id (redelivery). */
  idSeed: readonly (string | number)[];
  /** Creation time; when absent, the time `stampedAt` gives, else now. */
  at?: Date;
}

let stamp: Date | undefined;

/**
 * Makes what `make` makes with every envelope built meanwhile (without its own `at`) stamped
 * `at`: a statechart's step stamps its envelopes with its run's clock, not the wall clock, so
 * that a step replayed (a Restate handler after a crash) builds the same envelopes. `make` runs
 * synchronously; nothing else can build an envelope meanwhile.
 */
export function stampedAt<T>(at: Date, make: () => T): T {
  const outer = stamp;
  stamp = at;
  try {
    return make();
  } finally {
    stamp = outer;
  }
}

/** The base run id of a (re-)run id: `<uuid>_v3` -> `<uuid>`. The journal partitions by it. */
export function baseRunId(runId: string): string {
  return runId.replace(/_v\d+$/, '');
}

/** The run id of a run's `version`: the first run has no suffix, re-runs `_v2`, `_v3`, ... (§10 rule 3). */
export function versionedRunId(runId: string, version: number): string {
  return version <= 1 ? baseRunId(runId) : `${baseRunId(runId)}_v${version}`;
}

/** Builds a §2 envelope. */
export function makeEnvelope<D extends NutritionDataType>(spec: EnvelopeSpec<D>): EnvelopeOf<D> {
  return {
    message_id: derivedUuid(...spec.idSeed),
    from_agent: spec.from,
    to_agent: spec.to,
    data_type: spec.dataType,
    payload: spec.payload,
    pipeline_run_id: spec.runId,
    timestamp: (spec.at ?? stamp ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    version: '1.0',
  } as EnvelopeOf<D>;
}
