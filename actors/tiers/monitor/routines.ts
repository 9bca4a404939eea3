import type { OutcomeStatus } from '../../../protocol/runtime/outcome-status.ts';

/** Spec 002's cached successful pattern (`history/routines/{name}`): which template of which family worked, and who ran it. */
export interface Routine {
  family: string;
  template: string;
  specialist: string;
  task_type: string;
  /** Successes of this family + template + specialist in a row (a different one starts again at 1). */
  successes: number;
  /** The confidence of the latest success. */
  confidence: number;
}

/** A specialist's outcome as the Monitor sees it: the `code` artifact's metadata names family and template. */
export interface RoutineOutcome {
  status: OutcomeStatus;
  specialist: string;
  task_type: string;
  confidence: number;
  artifacts: readonly { artifact_type: string; metadata: Record<string, unknown> }[];
}

/** A family as a Beads key segment: lower case, runs of anything else than [a-z0-9] become one `-`. */
export function routineName(family: string): string {
  return family
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The Beads key of a family's routine. */
export const routineKey = (family: string) => `history/routines/${routineName(family)}`;

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * The routine a successful outcome teaches: its `code` artifact's `family` and `template` with the
 * specialist, merged into what `history/routines/{name}` held (`existing`). Anything but `success`,
 * or a code artifact without a family and a template (a model-written solution), teaches nothing:
 * null. Pure.
 *
 * @example
 * const learned = routineFor(outcome, await beads.read(routineKey('binary-search')));
 * if (learned) await beads.write(learned.key, learned.routine);
 */
export function routineFor(
  outcome: RoutineOutcome,
  existing?: Routine,
): { key: string; name: string; routine: Routine } | null {
  if (outcome.status !== 'success') return null;
  const code = outcome.artifacts.find((a) => a.artifact_type === 'code');
  const family = text(code?.metadata['family']);
  const template = text(code?.metadata['template']);
  if (!family || !template) return null;
  const name = routineName(family);
  if (name === '') return null;
  const same =
    existing?.family === family && existing.template === template && existing.specialist === outcome.specialist;
  return {
    key: `history/routines/${name}`,
    name,
    routine: {
      family,
      template,
      specialist: outcome.specialist,
      task_type: outcome.task_type,
      successes: same ? existing.successes + 1 : 1,
      confidence: outcome.confidence,
    },
  };
}
