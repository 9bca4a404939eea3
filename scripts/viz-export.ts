/**
 * `npm run viz:export`: writes every registered machine's diagram (`.svg`) and Mermaid text
 * (`.mmd`) into `docs/machines/`, so that a change to a machine shows up as a diff in review.
 * Files of machines that are no longer registered are removed.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MACHINES } from '../machines/registry.ts';
import { machineExports } from '../server/viz/machine-exports.ts';

const OUT_DIR = fileURLToPath(new URL('../docs/machines/', import.meta.url));

await mkdir(OUT_DIR, { recursive: true });
const written = new Set<string>();
for (const entry of MACHINES) {
  const exports = machineExports(entry);
  for (const [file, body] of [
    [`${entry.name}.svg`, await exports.svg()],
    [`${entry.name}.mmd`, exports.mermaid],
  ] as const) {
    await writeFile(join(OUT_DIR, file), body);
    written.add(file);
  }
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  console.log(
    `${entry.name}: ${count(exports.graph.states.length - 1, 'state')}, ${count(exports.graph.transitions.length, 'transition')}`,
  );
}
for (const file of await readdir(OUT_DIR)) {
  if (/\.(svg|mmd)$/.test(file) && !written.has(file)) {
    await rm(join(OUT_DIR, file));
    console.log(`removed ${file} (no such machine any more)`);
  }
}
console.log(`wrote ${written.size} files to docs/machines/`);
