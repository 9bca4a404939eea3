/**
 * The data dir of the start-up bench: a few real runs and sessions made by the real runtime (the
 * template), replicated under new ids and users into 10,000s of settled runs and idle sessions.
 *
 * How: `makeTemplate` opens the runtime in-process on an empty dir and, over HTTP, has one user
 * create a pipeline run that settles in `output_ready` (and rests: out of the index of unfinished
 * runs) and another user hold a trainer chat turn (its session ends `completed`: idle). Every file
 * it leaves (journal partitions, the run's record, listings, session documents, owner index,
 * user data) is then copied by `replicate`, copy k of a family (runs, sessions) with every UUID
 * in its path and bytes mapped to a UUID of its own (the last 12 hex digits XORed with k + 1,
 * the same mapping throughout one copy, so references between files still hold) and the
 * template user replaced by user `floor(k / perUser)`. A file named by a UUID (one per run or
 * session) is written once per copy; a file named by a user or by nothing (a collection that
 * holds several runs: `{"docs": {...}}`) gets the documents of every copy merged into it. The
 * bytes are otherwise the runtime's own, so the copies are in the real format, whatever it is,
 * as long as a file keyed by several runs is a `{"docs"}` collection or a journal partition
 * (`.ndjson`, whose lines are numbered again) (else `replicate` throws).
 * Derived message ids no longer match their derivation: only a rebuild from the journal would
 * notice, and a settled run with its snapshot is never rebuilt.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { signToken } from '../server/auth.ts';
import { openRuntime } from '../server/runtime.ts';
import { USER_SETUP } from '../tests/support/trainer/trainer-http.ts';
import { VALID_PAYLOADS } from '../tests/unit/protocol/nutrition/fixtures.ts';

const SECRET = 'startup-bench-secret-for-hs256-only';
const RUNNER = 'bench-template-runner';
const TRAINEE = 'bench-template-trainee';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** A template file cut at its UUIDs and its user id, to be joined again with a copy's own. */
interface TemplateFile {
  family: 'runs' | 'sessions';
  path: string[];
  bytes: string[];
  /** Named by a UUID: one file per copy (else documents of several copies merge into it). */
  perCopy: boolean;
}

/** Makes the template in `dir` through the real runtime; returns its run and session ids. */
export async function makeTemplate(dir: string): Promise<{ runId: string; sessionId: string }> {
  const runtime = await openRuntime(
    { port: 0, dataDir: dir, jwtSecret: SECRET, primaryModel: 'claude-haiku-4-5' },
    { systems: { trainer: { consoleLog: false } } },
  );
  const call = async (user: string, method: string, path: string, body?: unknown) => {
    const response = await runtime.app.request(path, {
      method,
      headers: { authorization: `Bearer ${await signToken(user, SECRET)}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text) as any;
  };
  const runs = (runtime.systems.nutrition as unknown as { runs: { liveState(id: string): string | undefined } }).runs;
  try {
    const { pipeline_run_id: runId } = await call(RUNNER, 'POST', '/pipelines', VALID_PAYLOADS.intake_data);
    await call(RUNNER, 'GET', `/pipelines/${runId}/events?until=settled`);
    for (const [source, body] of Object.entries(USER_SETUP)) await call(TRAINEE, 'PUT', `/users/me/${source}`, body);
    const chat = await call(TRAINEE, 'POST', '/agent/chat', { message: 'Give me a quick chest workout' });
    // Settled is not enough: the run must have rested (left the index of unfinished runs).
    for (let waited = 0; runs.liveState(runId) !== undefined; waited += 10) {
      if (waited > 10_000) throw new Error('startup bench: the template run did not rest');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const state = (await call(RUNNER, 'GET', `/pipelines/${runId}`)).state;
    if (state !== 'output_ready' || chat.status !== 'completed')
      throw new Error(`startup bench: the template run is ${state} and the session ${chat.status}`);
    return { runId, sessionId: chat.sessionId };
  } finally {
    await runtime.close(); // a resting run's last writes land here
  }
}

/** The user whose run copy `k` is (`perUser` runs each). */
export const runnerOf = (k: number, perUser: number) => `bench-runner-${Math.floor(k / perUser)}`;
/** The user whose session copy `k` is (`perUser` sessions each). */
export const traineeOf = (k: number, perUser: number) => `bench-trainee-${Math.floor(k / perUser)}`;

/** The UUID `uuid` becomes in copy `k` of its family (sessions are numbered after the runs). */
export function copiedUuid(uuid: string, k: number): string {
  const last = (BigInt(`0x${uuid.slice(24)}`) ^ BigInt(k + 1)).toString(16).padStart(12, '0');
  return `${uuid.slice(0, 24)}${last}`;
}

/**
 * Writes `runs` copies of the template's run and `sessions` copies of its session into `target`
 * (`perUser` of each per user); returns how many files and bytes it wrote.
 */
export async function replicate(
  template: string,
  target: string,
  ids: { runId: string; sessionId: string },
  counts: { runs: number; sessions: number; perUser: number },
): Promise<{ files: number; bytes: number }> {
  const files: TemplateFile[] = [];
  const once: { path: string; bytes: string }[] = [];
  for (const path of await filesUnder(template)) {
    const bytes = await readFile(join(template, path), 'utf8');
    const whole = `${path}\n${bytes}`;
    const family = whole.includes(ids.runId) || whole.includes(RUNNER) ? 'runs' : 'sessions';
    if (
      !whole.includes(ids.runId) &&
      !whole.includes(ids.sessionId) &&
      !whole.includes(RUNNER) &&
      !whole.includes(TRAINEE)
    )
      once.push({ path, bytes }); // the index of unfinished runs, the spare run's empty partition
    else
      files.push({ family, path: cut(path, family), bytes: cut(bytes, family), perCopy: new RegExp(UUID).test(path) });
  }
  const merged = new Map<string, Merged>();
  const writes = new Writes(target);
  for (const { path, bytes } of once) await writes.add(path, bytes);
  for (const family of ['runs', 'sessions'] as const) {
    const count = family === 'runs' ? counts.runs : counts.sessions;
    for (let k = 0; k < count; k += 1) {
      const user = (family === 'runs' ? runnerOf : traineeOf)(k, counts.perUser);
      const copy = family === 'runs' ? k : counts.runs + k;
      for (const file of files.filter((f) => f.family === family)) {
        const path = join(
          ...file.path
            .map((part, i) => (i % 2 === 0 ? part : token(part, copy, user)))
            .join('')
            .split('/'),
        );
        const bytes = file.bytes.map((part, i) => (i % 2 === 0 ? part : token(part, copy, user))).join('');
        if (file.perCopy) await writes.add(path, bytes);
        else merged.set(path, merge(path, merged.get(path), bytes));
      }
    }
  }
  for (const [path, { text, docs, lines }] of merged) await writes.add(path, mergedText(text, docs, lines));
  await writes.done();
  return { files: writes.files, bytes: writes.bytes };
}

/** Cuts `text` into plain parts (even indexes) and the tokens a copy replaces (odd ones). */
function cut(text: string, family: 'runs' | 'sessions'): string[] {
  const user = family === 'runs' ? RUNNER : TRAINEE;
  return text.split(new RegExp(`(${UUID}|${user})`));
}

function token(part: string, copy: number, user: string): string {
  return part.length === 36 ? copiedUuid(part, copy) : user;
}

/**
 * A file that several copies write: the same bytes, a collection holding the documents of each,
 * or a journal partition they all append to (the trainer's partition of the hour): the lines of
 * each, numbered again from 1.
 */
interface Merged {
  text: string;
  docs?: Record<string, unknown>;
  lines?: string[];
}

/** A journal line's head: `{"seq":<n>,` (see `actors/runtime/journal-lines.ts`). */
const JOURNAL_SEQ = /^\{"seq":\d+,/;

function merge(path: string, before: Merged | undefined, next: string): Merged {
  if (before === undefined) return { text: next };
  if (before.docs === undefined && before.text === next) return before;
  if (path.endsWith('.ndjson')) {
    const linesOf = (text: string) => text.split('\n').filter((line) => line !== '');
    before.lines ??= linesOf(before.text);
    before.lines.push(...linesOf(next));
    return before;
  }
  const docsOf = (text: string) => {
    const docs = (JSON.parse(text) as { docs?: unknown }).docs;
    if (typeof docs !== 'object' || docs === null)
      throw new Error(
        `startup bench: ${path} is shared by several runs but is not a {"docs"} collection; update replicate()`,
      );
    return docs as Record<string, unknown>;
  };
  before.docs ??= docsOf(before.text);
  Object.assign(before.docs, docsOf(next));
  return before;
}

function mergedText(text: string, docs: Merged['docs'], lines: Merged['lines']): string {
  if (docs) return JSON.stringify({ docs }, null, 2);
  if (!lines) return text;
  return lines.map((line, i) => `${line.replace(JOURNAL_SEQ, `{"seq":${i + 1},`)}\n`).join('');
}

async function filesUnder(root: string, dir = root): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(root, path)));
    else if (entry.isFile()) found.push(relative(root, path));
  }
  return found;
}

/** File writes, a few at a time (no fsync: this is a fixture, not data to keep). */
class Writes {
  files = 0;
  bytes = 0;
  private readonly dirs = new Set<string>();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly root: string) {}

  async add(path: string, bytes: string): Promise<void> {
    const file = join(this.root, path);
    if (!this.dirs.has(dirname(file))) {
      await mkdir(dirname(file), { recursive: true });
      this.dirs.add(dirname(file));
    }
    if (this.pending.size >= 16) await Promise.race(this.pending);
    const write = writeFile(file, bytes).finally(() => this.pending.delete(write));
    this.pending.add(write);
    this.files += 1;
    this.bytes += Buffer.byteLength(bytes);
  }

  async done(): Promise<void> {
    await Promise.all(this.pending);
  }
}
