import { describe, expect, it } from 'vitest';
import { isoAfter, orgEscalation, orgMessage } from '../../../../actors/org/org-envelope.ts';
import { ProjectDeadlines, timelineEscalationId } from '../../../../server/org/project-deadlines.ts';
import { projectStatus } from '../../../../server/org/project-views.ts';
import type { EscalationRecord } from '../../../../protocol/org/escalation-record.ts';
import type { OrgEnvelope } from '../../../../protocol/org/envelope.ts';
import { SHOP_PRD, startOrgProject } from '../../../support/org/org-harness.ts';

const HOUR = 3_600_000;
type Project = ReturnType<typeof startOrgProject>;

async function project() {
  const p = startOrgProject();
  await p.ws.put('user', 'prd', { version: 1, prd: SHOP_PRD });
  return p;
}

const deadlinesOf = (p: Project) =>
  new ProjectDeadlines({ clock: p.clock, records: () => p.records(), send: (_ws, envelopes) => p.send(envelopes) });

/** A request to devops held on dependencies no one finishes, due in an hour. */
const heldTask = (p: Project) =>
  orgMessage({
    from: 'chief-orchestration',
    to: 'devops',
    type: 'request',
    priority: 'medium',
    payload: {
      task_id: 'plan-deploy',
      content: { kind: 'plan_deploy' },
      dependencies: ['db_schema', 'test_plan'],
      deadline: isoAfter(p.clock.now(), HOUR),
    },
    prdId: p.projectId,
    sprintId: 'sprint-1',
    seed: ['late'],
    at: p.clock.now(),
  });

/** A request product answers at once (a task it does not have), due in an hour. */
const answeredTask = (p: Project) =>
  orgMessage({
    from: 'chief-orchestration',
    to: 'product',
    type: 'request',
    priority: 'low',
    payload: { task_id: 'noop', content: { kind: 'noop' }, deadline: isoAfter(p.clock.now(), HOUR) },
    prdId: p.projectId,
    sprintId: 'sprint-1',
    seed: ['answered'],
    at: p.clock.now(),
  });

const timelines = async (p: Project) =>
  (await p.messages()).filter(
    (m): m is Extract<OrgEnvelope, { message_type: 'escalation' }> =>
      m.message_type === 'escalation' && m.payload.conflict_type === 'timeline',
  );

describe('org deadlines (simulated clock)', () => {
  it('a payload deadline passed with the work not done raises one timeline escalation, which reaches the user', async () => {
    const p = await project();
    const late = heldTask(p);
    p.send([late, answeredTask(p)]);
    await p.settle();
    const deadlines = deadlinesOf(p);
    await deadlines.arm(p.ws);
    expect(deadlines.size).toBe(1); // the answered request is done: nothing to watch
    p.clock.increment(HOUR - 1_000);
    await p.settle();
    expect(await timelines(p)).toEqual([]);
    p.clock.increment(1_000);
    await p.settle();
    const [escalation, ...more] = await timelines(p);
    expect(more).toEqual([]);
    expect(escalation).toMatchObject({
      message_id: timelineEscalationId(p.projectId, late.message_id),
      source_agent: 'devops',
      destination_agent: 'chief-orchestration',
      context: { related_messages: [late.message_id] },
    });
    expect(escalation!.payload.agents_involved.sort()).toEqual(['chief-orchestration', 'devops']);
    expect(Date.parse(escalation!.payload.deadline_for_resolution)).toBe(p.clock.now() + 24 * HOUR);
    const records = await p.ws.escalations();
    expect(records).toMatchObject([
      { escalation_id: escalation!.message_id, status: 'awaiting_user', resolver: 'user' },
    ]);
    expect(projectStatus([], records, true)).toBe('waiting_for_user');

    await deadlines.arm(p.ws); // armed again after the next message: nothing left to watch
    expect(deadlines.size).toBe(0);
    p.clock.increment(48 * HOUR);
    await p.settle();
    expect(await timelines(p)).toHaveLength(1);
  });

  it('re-arms from the journal after a restart: a deadline passed while down fires once, even armed twice', async () => {
    const p = await project();
    const late = heldTask(p);
    p.send([late]);
    await p.settle();
    const before = deadlinesOf(p);
    await before.arm(p.ws);
    before.clear(); // the process dies with its timers
    p.clock.increment(2 * HOUR);
    await p.settle();
    expect(await timelines(p)).toEqual([]);
    const [a, b] = [deadlinesOf(p), deadlinesOf(p)];
    await Promise.all([a.arm(p.ws), b.arm(p.ws)]);
    p.clock.increment(0);
    await p.settle();
    expect((await timelines(p)).map((m) => m.message_id)).toEqual([timelineEscalationId(p.projectId, late.message_id)]);
    const reopened = deadlinesOf(p);
    await reopened.arm(p.ws);
    expect(reopened.size).toBe(0);
  });

  it('an escalation still open past its deadline_for_resolution goes to the user, once; a resolved one stays', async () => {
    const p = await project();
    const routed: EscalationRecord = {
      escalation_id: 'e-routed',
      project_id: p.projectId,
      from: 'backend',
      payload: {
        conflict_type: 'feasibility',
        agents_involved: ['backend', 'frontend'],
        positions: { backend: 'REST', frontend: 'GraphQL' },
        impact_if_unresolved: 'No contract.',
        recommended_resolution: 'REST.',
        deadline_for_resolution: isoAfter(p.clock.now(), HOUR),
      },
      status: 'routed',
      resolver: 'product',
      created_at: new Date(p.clock.now()).toISOString(),
    };
    await p.ws.putEscalation('chief-orchestration', routed);
    // A real one: the chief routes a feasibility escalation to product, which resolves it at once.
    const real = orgEscalation({
      from: 'backend',
      payload: { ...routed.payload, deadline_for_resolution: isoAfter(p.clock.now(), HOUR / 2) },
      prdId: p.projectId,
      sprintId: 'sprint-1',
      seed: ['real'],
      at: p.clock.now(),
    });
    p.send([real]);
    await p.settle();
    expect((await p.ws.escalation(real.message_id))?.status).toBe('resolved');
    const deadlines = deadlinesOf(p);
    await deadlines.arm(p.ws);
    expect(deadlines.size).toBe(1);
    p.clock.increment(HOUR - 1);
    await p.settle();
    expect((await p.ws.escalation('e-routed'))?.status).toBe('routed');
    expect(projectStatus([], await p.ws.escalations(), true)).not.toBe('waiting_for_user');
    p.clock.increment(1);
    await p.settle();
    const passed = await p.ws.escalation('e-routed');
    expect(passed).toMatchObject({ status: 'awaiting_user', resolver: 'user' });
    expect(passed?.reason).toContain('deadline_for_resolution');
    expect((await p.ws.escalation(real.message_id))?.status).toBe('resolved');
    expect(projectStatus([], await p.ws.escalations(), true)).toBe('waiting_for_user');
    await deadlines.arm(p.ws);
    expect(deadlines.size).toBe(0);
  });
});
