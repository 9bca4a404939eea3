/**
 * A child for the store's kill -9 test: opens the lowdb store in `argv[2]` and reads collection
 * `argv[3]`, which moves it from the layout before one file per document; prints `moving` as it
 * starts and `moved <count>` once done.
 */
import { openLowdbStore } from '../../../actors/runtime/lowdb-store.ts';

const [dir, name] = process.argv.slice(2);
if (!dir || !name) throw new Error('Usage: move-collection.ts <store dir> <collection>');
const store = await openLowdbStore(dir);
process.stdout.write('moving\n');
const docs = await store.collection(name).list();
await store.close();
process.stdout.write(`moved ${docs.length}\n`);
