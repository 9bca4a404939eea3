import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { orgMessage } from '../../../actors/org/org-envelope.ts';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import type { OrgEnvelope } from '../../../protocol/org/envelope.ts';
import type { DeliveredMessage } from '../../../protocol/runtime/routing.ts';
import { startOrgProject } from '../../support/org/org-harness.ts';

describe("an org agent's mailbox", () => {
  it('takes critical before high before medium before low, in arrival order within one', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const product = fromPromise<unknown[], AgentBrainInput>(async ({ input }) => {
      const envelope = (input.input as DeliveredMessage).envelope as OrgEnvelope;
      order.push(envelope.message_type === 'escalation' ? '' : envelope.payload.task_id);
      if (order.length === 1) await gate;
      return [];
    });
    const h = startOrgProject({ brains: { product } });
    const priorities: OrgEnvelope['priority'][] = ['low', 'low', 'medium', 'critical', 'high', 'medium', 'critical'];
    h.send(
      priorities.map((priority, n) =>
        orgMessage({
          from: 'chief-orchestration',
          to: 'product',
          type: 'request',
          priority,
          payload: { task_id: `${n}-${priority}`, content: { kind: 'noop' } },
          prdId: h.projectId,
          sprintId: 'sprint-1',
          seed: ['priority', n],
          at: h.clock.now(),
        }),
      ),
    );
    await h.settle();
    release();
    await h.settle();
    expect(order).toEqual(['0-low', '3-critical', '6-critical', '4-high', '2-medium', '5-medium', '1-low']);
  });
});
