import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../../../actors/runtime/file-journal.ts';
import { createEventStore } from '../../../../../actors/trainer/events/event-store.ts';
import type { StoredSessionEvent } from '../../../../../protocol/trainer/session-event.ts';
import { createFakeStore } from '../../../../support/trainer/trainer-fakes.ts';
import { artifactData, llmResponseData } from '../../../../support/trainer/trainer-events.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('event store on the file journal', () => {
  it('keeps dense seqs under concurrent appends and reads everything back after reopening', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trainer-events-'));
    dirs.push(dir);
    const store = createFakeStore();
    const journal = await openFileJournal<StoredSessionEvent>(dir);
    const events = createEventStore({ store, journal });
    const a = await events.createSession('alice');
    const b = await events.createSession('alice');
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        events.appendEvent(i % 2 === 0 ? a.id : b.id, 'user_message', { message: `m${i}` }),
      ),
    );
    await events.appendEvent(a.id, 'artifact', artifactData('art_kept'));
    await events.appendEvent(a.id, 'llm_response', llmResponseData(100, 20, 50, 0.3));
    const before = await events.listEvents(a.id);
    expect(before.map((e) => e.sequence_number)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    await journal.close();

    const reopened = await openFileJournal<StoredSessionEvent>(dir);
    const again = createEventStore({ store, journal: reopened });
    expect(await again.listEvents(a.id)).toEqual(before);
    expect((await again.listEvents(b.id)).map((e) => e.sequence_number)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect((await again.getArtifact('alice', a.id, 'art_kept'))?.artifact_id).toBe('art_kept');
    expect((await again.appendEvent(a.id, 'user_message', { message: 'later' })).sequence_number).toBe(23);
    expect((await again.endSession(a.id, 'completed')).total_tokens).toBe(170);
    await reopened.close();
  });
});
