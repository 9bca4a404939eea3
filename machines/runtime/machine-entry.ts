import type { AnyStateMachine } from 'xstate';

/** One machine the visualizer draws: its URL name, what it is for, and where the code defines it. */
export interface MachineEntry {
  /** The name in `/viz/<name>` and `docs/machines/<name>.svg`: the machine's id. */
  name: string;
  title: string;
  summary: string;
  machine: AnyStateMachine;
  /** The module (from the repository root) and the export that is (or creates) the machine. */
  source: { file: string; exportName: string };
}

/**
 * Describes a machine for the visualizer.
 *
 * @example
 * machineEntry(pipelineMachine, { title: 'Nutrition pipeline', summary: '...', file: 'machines/nutrition/pipeline.ts', exportName: 'pipelineMachine' });
 */
export function machineEntry(
  machine: AnyStateMachine,
  about: { title: string; summary: string; file: string; exportName: string },
): MachineEntry {
  return {
    name: machine.id,
    title: about.title,
    summary: about.summary,
    machine,
    source: { file: about.file, exportName: about.exportName },
  };
}
