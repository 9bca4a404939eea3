import type { MachineEntry } from '../../machines/registry.ts';
import { machineGraph, type MachineGraph } from './machine-graph.ts';
import { renderSvg } from './render-svg.ts';
import { toMermaid } from './to-mermaid.ts';

/** One registered machine's graph and its three exports. */
export interface MachineExports {
  entry: MachineEntry;
  graph: MachineGraph;
  /** `{ states, transitions }` with the machine's id and root. */
  json: MachineGraph;
  mermaid: string;
  svg: () => Promise<string>;
}

// Machines do not change while the process runs: each is walked and laid out once.
const cache = new WeakMap<MachineEntry, MachineExports>();

/**
 * The graph and exports of a registered machine, computed on first use.
 *
 * @example
 * const { mermaid } = machineExports(machineEntry('pipeline')!);
 */
export function machineExports(entry: MachineEntry): MachineExports {
  const cached = cache.get(entry);
  if (cached) return cached;
  const graph = machineGraph(entry.machine);
  let svg: Promise<string> | undefined;
  const exports: MachineExports = {
    entry,
    graph,
    json: graph,
    mermaid: toMermaid(graph),
    svg: () => (svg ??= renderSvg(graph)),
  };
  cache.set(entry, exports);
  return exports;
}
