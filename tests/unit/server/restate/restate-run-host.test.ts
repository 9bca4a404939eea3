import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../../actors/runtime/memory-store.ts';
import { nutritionSystem } from '../../../../machines/nutrition/nutrition-system.ts';
import { DEFAULT_INGRESS_RETRY } from '../../../../server/restate/ingress-post.ts';
import type { RunView } from '../../../../server/restate/remote-run.ts';
import { RestateRunHost } from '../../../../server/restate/restate-run-host.ts';
import { RunStore } from '../../../../server/run-host/run-store.ts';
import { FakeIngress } from '../../../support/restate/fake-ingress.ts';

/*
 * RestateRunHost keeps a RemoteRun only for runs that work or that a caller holds: a run only
 * read (snapshotOf, messagesOf) is not kept, a run that rests is let go once nobody holds it,
 * and its working slot is given back; a run working when the process stopped is tracked again.
 */
let ingress: FakeIngress;
const system = nutritionSystem({ brains: {} as never });
const view = (value: string, messages: unknown[] = []): RunView => ({
  snapshot: { value, context: {}, status: 'active' } as never,
  messages,
});

beforeAll(async () => {
  ingress = await FakeIngress.start();
});
afterAll(() => ingress.close());
beforeEach(() => {
  ingress.views.clear();
  ingress.after = () => undefined;
});

function host(store = createMemoryStore(), maxWorking = 2) {
  return RestateRunHost.open({
    ingressUrl: ingress.url,
    system,
    store,
    admission: { maxWorking, maxPerOwner: maxWorking },
    rests: (snapshot) => snapshot.value === 'output_ready' || snapshot.value === 'error',
    finished: (snapshot) => snapshot.value === 'error',
    retry: { ...DEFAULT_INGRESS_RETRY, attempts: 2, sleep: async () => undefined },
  });
}

/** `n` runs of `owner` recorded in `store` (as `commit` records them), each with a view at the ingress. */
async function recorded(store: ReturnType<typeof createMemoryStore>, n: number, owner = 'ada') {
  const runs = new RunStore(store, 'nutrition');
  const ids = Array.from({ length: n }, (_, i) => `run-${owner}-${i}`);
  for (const id of ids) {
    await runs.update(id, { partition: id, owner, created_at: new Date().toISOString() });
    ingress.views.set(id, view('output_ready', [{ message_id: `${id}-intake` }]));
  }
  return ids;
}

describe('RestateRunHost keeps only the runs that work or are held', () => {
  it('keeps no run that was only read through snapshotOf and messagesOf', async () => {
    const store = createMemoryStore();
    const ids = await recorded(store, 40);
    const runs = await host(store);
    for (const id of ids) {
      expect((await runs.snapshotOf(id))?.value).toBe('output_ready');
      expect(await runs.messagesOf(id)).toEqual([{ message_id: `${id}-intake` }]);
    }
    expect(runs.livePartitions()).toEqual([]);
    expect(await runs.snapshotOf('unknown-run')).toBeUndefined();
    await runs.close();
  });

  it('lets a pinned resting run go when it is unpinned, and gives no run for one that is over', async () => {
    const store = createMemoryStore();
    const [resting, over] = await recorded(store, 2);
    ingress.views.set(over!, view('error'));
    const runs = await host(store);
    const pinned = await runs.pin(resting!);
    expect(pinned.run?.snapshot().value).toBe('output_ready');
    expect(runs.livePartitions()).toEqual([resting]);
    pinned.unpin();
    expect(runs.livePartitions()).toEqual([]);
    const ended = await runs.pin(over!);
    expect(ended.run).toBeUndefined();
    expect(runs.livePartitions()).toEqual([]);
    await runs.close();
  });

  it('gives back the working slot of a run that comes to rest, and lets it go once committed', async () => {
    const runs = await host(createMemoryStore(), 1);
    ingress.after = (key) => view('output_ready', [{ message_id: `${key}-intake` }]);
    for (let i = 0; i < 5; i++) {
      const run = runs.start({ owner: 'ada' });
      run.send({ type: 'pipeline.start', envelope: { message_id: `${run.partition}-intake` } });
      await run.journaled(`${run.partition}-intake`);
      await runs.commit(run);
      // One working slot: the next start is admitted only because this run rests now.
      expect(() => runs.checkAdmission('ada')).not.toThrow();
    }
    expect(runs.livePartitions()).toEqual([]);
    await runs.close();
  });

  it('keeps a working run live and tracked, and tracks it again after a restart of the process', async () => {
    const store = createMemoryStore();
    const runs = await host(store, 1);
    ingress.after = (key) => view('intake', [{ message_id: `${key}-intake` }]);
    const run = runs.start({ owner: 'ada' });
    run.send({ type: 'pipeline.start', envelope: { message_id: `${run.partition}-intake` } });
    await run.journaled(`${run.partition}-intake`);
    await runs.commit(run);
    expect(runs.livePartitions()).toEqual([run.partition]);
    expect(() => runs.checkAdmission('bob')).toThrow(/capacity/);
    await runs.close();

    const again = await host(store, 1);
    expect(again.livePartitions()).toEqual([run.partition]);
    expect(() => again.checkAdmission('bob')).toThrow(/capacity/);
    // It comes to rest: the host hears it when it reads it, and lets it go.
    ingress.views.set(run.partition, view('output_ready', [{ message_id: `${run.partition}-intake` }]));
    expect((await again.snapshotOf(run.partition))?.value).toBe('output_ready');
    expect(again.livePartitions()).toEqual([]);
    expect(() => again.checkAdmission('bob')).not.toThrow();
    await again.close();
    expect(await new RunStore(store, 'nutrition').unfinished()).toEqual([]);
  });
});
