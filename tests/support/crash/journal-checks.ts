import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** What {@link checkJournals} read. */
export interface JournalCheckStats {
  files: number;
  /** Complete lines (entries) over all files. */
  entries: number;
  /** Files whose last line was torn (no newline): allowed only after a kill. */
  tornTails: number;
  /** Files with routed envelopes (`data.envelope`) and the envelopes in them. */
  envelopeFiles: number;
  envelopes: number;
  /** The torn last lines found, by file (relative to the data dir). */
  torn: Map<string, string>;
}

async function ndjsonFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await ndjsonFiles(path)));
    else if (entry.isFile() && entry.name.endsWith('.ndjson')) files.push(path);
  }
  return files.sort();
}

/**
 * The journal-level invariants of a data dir whose server is not running (killed or stopped):
 * every `DATA_DIR/journal/**\/*.ndjson` file is lines of `{"seq":n,"data":...}` with seqs dense
 * from 1 (so no seq repeats), except a torn last line (bytes after the last newline, a write cut
 * by the kill) when `allowTornTail` is true, or when it is a map holding that file with that very
 * tail (a tail an earlier check found, in a partition no server touched since: the journal sets a
 * torn tail aside on the partition's first touch); in a file of routed envelopes (entries whose
 * `data` has an `envelope`), no `envelope.message_id` (spec 002: `envelope.id`) appears twice. Returns the problems found
 * (empty when none) and what was read.
 */
export async function checkJournals(
  dataDir: string,
  options: { allowTornTail: boolean | ReadonlyMap<string, string> },
): Promise<{ problems: string[]; stats: JournalCheckStats }> {
  const root = join(dataDir, 'journal');
  const problems: string[] = [];
  const stats: JournalCheckStats = {
    files: 0,
    entries: 0,
    tornTails: 0,
    envelopeFiles: 0,
    envelopes: 0,
    torn: new Map(),
  };
  const allowed = options.allowTornTail;
  for (const file of await ndjsonFiles(root)) {
    const name = relative(dataDir, file);
    stats.files += 1;
    const text = await readFile(file, 'utf8');
    const lines = text.split('\n');
    const last = lines.pop()!; // '' when the file ends with a newline (or is empty)
    if (last !== '') {
      stats.tornTails += 1;
      stats.torn.set(name, last);
      if (allowed === false || (allowed !== true && allowed.get(name) !== last))
        problems.push(`${name}: a torn last line (${last.length} chars with no newline) after a clean stop`);
    }
    const seen = new Map<string, number>();
    let hasEnvelopes = false;
    lines.forEach((line, index) => {
      const at = `${name}:${index + 1}`;
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        problems.push(`${at}: not JSON: ${line.slice(0, 120)}`);
        return;
      }
      if (typeof entry !== 'object' || entry === null || !('seq' in entry) || !('data' in entry)) {
        problems.push(`${at}: not {"seq","data"}: ${line.slice(0, 120)}`);
        return;
      }
      stats.entries += 1;
      const { seq, data } = entry as { seq: unknown; data: unknown };
      if (seq !== index + 1)
        problems.push(`${at}: seq ${JSON.stringify(seq)} where ${index + 1} was due (seqs dense from 1)`);
      const envelope = (data as { envelope?: unknown } | null)?.envelope;
      if (typeof envelope !== 'object' || envelope === null) return;
      hasEnvelopes = true;
      stats.envelopes += 1;
      // Spec 000/001 envelopes name themselves by `message_id`, spec 002's by `id`.
      const { message_id, id: specId } = envelope as { message_id?: unknown; id?: unknown };
      const id = message_id ?? specId;
      if (typeof id !== 'string') {
        problems.push(`${at}: a routed envelope without a string message_id (or id)`);
        return;
      }
      const first = seen.get(id);
      if (first !== undefined) problems.push(`${at}: envelope ${id} journaled again (first at line ${first})`);
      else seen.set(id, index + 1);
    });
    if (hasEnvelopes) stats.envelopeFiles += 1;
  }
  return { problems, stats };
}
