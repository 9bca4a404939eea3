/**
 * Every statechart of the repository: the visualizer's exports (`npm run viz:export`) and their
 * tests read the list from here. It is collected, not written: each folder of `machines/` lists
 * its own in `machines.ts` (export `MACHINES`), so adding a system adds a folder and edits
 * nothing here. Systems come first (by folder name), the runtime's machines last.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { MachineEntry } from './runtime/machine-entry.ts';

export type { MachineEntry } from './runtime/machine-entry.ts';

const MACHINES_DIR = new URL('./', import.meta.url);

async function collect(): Promise<MachineEntry[]> {
  const folders = (await readdir(MACHINES_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && existsSync(new URL(`./${entry.name}/machines.ts`, MACHINES_DIR)))
    .map((entry) => entry.name)
    .sort((a, b) => Number(a === 'runtime') - Number(b === 'runtime') || a.localeCompare(b));
  const lists = await Promise.all(
    folders.map(async (folder) => {
      const module = (await import(new URL(`./${folder}/machines.ts`, MACHINES_DIR).href)) as {
        MACHINES?: readonly MachineEntry[];
      };
      if (!module.MACHINES)
        throw new Error(`machines/${folder}/machines.ts must export MACHINES, the list of its statecharts.`);
      return module.MACHINES;
    }),
  );
  return lists.flat();
}

/** Every machine in `machines/`, in the order the visualizer lists them. */
export const MACHINES: readonly MachineEntry[] = await collect();

/** The registered machine called `name`, if any. */
export function machineEntry(name: string): MachineEntry | undefined {
  return MACHINES.find((candidate) => candidate.name === name);
}
