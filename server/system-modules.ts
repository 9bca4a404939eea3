import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { SystemModule } from './system-module.ts';

const SERVER_DIR = new URL('./', import.meta.url);

/**
 * The system modules of this repository: the default export of every `server/<folder>/module.ts`,
 * ordered by spec then name. Collected rather than listed, so that adding a system adds folders
 * and edits no runtime file.
 */
export async function loadSystemModules(): Promise<SystemModule<any>[]> {
  const folders = (await readdir(SERVER_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && existsSync(new URL(`./${entry.name}/module.ts`, SERVER_DIR)))
    .map((entry) => entry.name);
  const modules = await Promise.all(
    folders.map(async (folder) => {
      const { default: module } = (await import(new URL(`./${folder}/module.ts`, SERVER_DIR).href)) as {
        default?: SystemModule<any>;
      };
      if (!module || typeof module.open !== 'function' || module.name !== folder) {
        throw new Error(
          `server/${folder}/module.ts must export default a system module named "${folder}" (see server/system-module.ts).`,
        );
      }
      return module;
    }),
  );
  return modules.sort((a, b) => (a.spec ?? '~').localeCompare(b.spec ?? '~') || a.name.localeCompare(b.name));
}
