import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MACHINES } from '../../../../machines/registry.ts';
import { machineExports } from '../../../../server/viz/machine-exports.ts';

const DOCS = new URL('../../../../docs/machines/', import.meta.url);
const read = (file: string) => readFile(new URL(file, DOCS), 'utf8').catch(() => '(missing)');

describe('docs/machines', () => {
  it.each(MACHINES.map((m) => [m.name, m] as const))(
    'holds the current diagram and Mermaid text of %s',
    async (name, entry) => {
      const exports = machineExports(entry);
      const stale = `docs/machines/${name} is stale: run npm run viz:export and commit the diff`;
      expect(await read(`${name}.mmd`), stale).toBe(exports.mermaid);
      expect(await read(`${name}.svg`), stale).toBe(await exports.svg());
    },
  );
});
