/**
 * `npm run check-store`: reads and checks every file of the store under `DATA_DIR/store` (a
 * server does not, so that its start-up does not grow with history), and names the first damaged
 * one. Writes nothing; run it with the server stopped or running.
 */
import { join } from 'node:path';
import { checkDataDir } from '../actors/runtime/check-data-dir.ts';
import { dataDirOf } from './config.ts';

const dir = join(dataDirOf(), 'store');
try {
  const checked = await checkDataDir(dir);
  console.log(`Checked ${checked.length} store files in ${dir}: none is damaged.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
