import { createActor, toPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { TaskContext } from '../../../../machines/tiers/task-context.ts';
import { tierBrain, type TaskDirectory } from '../../../../machines/tiers/tier-brain.ts';
import type { TiersEnvelope } from '../../../../protocol/tiers/envelope.ts';
import { architectOutcome, monitorDelegation } from '../../../support/tiers/tier-exchange.ts';

/*
 * A tier's brain takes up a delegation only while the sender still waits for it: one whose node
 * ended first (its watchdog ran out while it queued behind other work or across a rebuild, or it
 * was cancelled) is dropped without running the tier, so its target never works for nobody.
 */
const delegation = monitorDelegation;
const outcome = architectOutcome('d-0');

/** Runs the brain of a tier over `envelope` in a task whose tree says `status` for every node; answers what it sent and the envelopes the tier handled. */
async function deliver(envelope: TiersEnvelope, status: string | undefined) {
  const handled: string[] = [];
  const ctx = { tree: { node: () => (status === undefined ? undefined : { status }) } } as unknown as TaskContext;
  const directory: TaskDirectory = {
    contextOf: async () => ctx,
    once: (_receiver, _id, work) => work(),
    sending: () => undefined,
  };
  const brain = tierBrain(
    'ABSTRACT_ARCHITECT',
    async (input) => {
      handled.push(input.envelope.id);
      return [];
    },
    directory,
  );
  const input = {
    agent: 'ABSTRACT_ARCHITECT',
    requestId: envelope.id,
    attempt: 1,
    input: { envelope, delivery: { kind: 'direct' } },
  };
  const sent = await toPromise(createActor(brain, { input }).start());
  return { sent, handled };
}

describe('tierBrain', () => {
  it('works on a delegation whose node is open', async () => {
    expect((await deliver(delegation, 'open')).handled).toEqual(['d-1']);
  });

  it.each(['timeout', 'cancelled', 'success'])(
    'drops a delegation whose node ended %s, running nothing',
    async (status) => {
      expect(await deliver(delegation, status)).toEqual({ sent: [], handled: [] });
    },
  );

  it('works on an outcome whatever the tree says (only delegations wait on a sender)', async () => {
    expect((await deliver(outcome, 'timeout')).handled).toEqual(['o-1']);
  });

  it('works on a delegation the tree does not hold', async () => {
    expect((await deliver(delegation, undefined)).handled).toEqual(['d-1']);
  });
});
