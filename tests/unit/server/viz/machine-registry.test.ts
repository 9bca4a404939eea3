import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StateMachine } from 'xstate';
import { MACHINES, machineEntry } from '../../../../machines/registry.ts';

const MACHINES_DIR = fileURLToPath(new URL('../../../../machines/', import.meta.url));

/** Every export of every module in machines/ that is a machine, or a `create…Machine` factory. */
async function exportedMachines() {
  const found: { file: string; exportName: string; value: unknown }[] = [];
  for (const name of (await readdir(MACHINES_DIR, { recursive: true })).filter((f) => f.endsWith('.ts')).sort()) {
    const module = (await import(`${MACHINES_DIR}${name}`)) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(module)) {
      const factory = typeof value === 'function' && /^create\w*Machine$/.test(exportName);
      if (value instanceof StateMachine || factory) found.push({ file: `machines/${name}`, exportName, value });
    }
  }
  return found;
}

describe('machine registry', () => {
  it('lists every machine that machines/ exports', async () => {
    const exported = await exportedMachines();
    expect(exported.length).toBeGreaterThanOrEqual(3);
    for (const { file, exportName, value } of exported) {
      const entry = MACHINES.find((m) => m.source.file === file && m.source.exportName === exportName);
      expect(entry, `${exportName} from ${file} is missing in machines/registry.ts`).toBeDefined();
      if (value instanceof StateMachine) expect(entry!.machine).toBe(value);
    }
  });

  it('names real exports, each machine once, under its own id', async () => {
    for (const entry of MACHINES) {
      const module = (await import(`${MACHINES_DIR}${entry.source.file.replace('machines/', '')}`)) as Record<
        string,
        unknown
      >;
      expect(module[entry.source.exportName], `${entry.source.exportName} in ${entry.source.file}`).toBeDefined();
      expect(entry.name).toBe(entry.machine.id);
      expect(machineEntry(entry.name)).toBe(entry);
    }
    expect(new Set(MACHINES.map((m) => m.name)).size).toBe(MACHINES.length);
  });
});
