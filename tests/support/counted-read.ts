import type { ReadStream } from 'node:fs';
import { readJournalFile, type ReadJournalFile } from '../../actors/runtime/journal-file-scan.ts';

/** Real reads of journal files, counted: every open, the files opened, and the most open at once. */
export function countedRead() {
  const counts = { opens: 0, open: 0, mostOpen: 0, files: [] as string[] };
  const openRead: ReadJournalFile = (file) => {
    const stream = readJournalFile(file);
    counts.opens += 1;
    counts.open += 1;
    counts.mostOpen = Math.max(counts.mostOpen, counts.open);
    counts.files.push(file);
    (stream as unknown as ReadStream).once('close', () => (counts.open -= 1));
    return stream;
  };
  return { openRead, counts };
}
