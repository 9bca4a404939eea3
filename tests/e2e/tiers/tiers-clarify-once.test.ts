import { afterEach, describe, expect, it } from 'vitest';
import { startRuntime } from '../../support/runtime-harness.ts';
import { example, settledTask, submitTask, treeNodes, type TiersRuntime } from '../../support/tiers/tiers-e2e.ts';

const runtimes: TiersRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((rt) => rt.stop()));
});

/** The README's binary search with no complexity bound stated anywhere (statement and constraints). */
async function unboundedTask(constraints: string[]) {
  const body = await example('tiers-task.json');
  body.problem.statement = body.problem.statement.replace(' The algorithm must run in O(log n) time.', '');
  body.constraints = constraints;
  return body;
}

async function run(body: unknown) {
  const rt = await startRuntime();
  runtimes.push(rt);
  const taskId = await submitTask(rt, 'ada', body);
  const { view } = await settledTask(rt, 'ada', taskId);
  const messages = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as any[];
  const beads = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/beads`)).body.entries as any[];
  const records = (key: string) => beads.find((e) => e.key === key)?.value ?? [];
  return { view, messages, dispatcher: records('routing/clarifications'), architect: records('task/clarifications') };
}

const questions = (messages: any[], from: string) =>
  messages.filter((m) => m.source_tier === from && m.payload.status === 'needs_clarification');

describe('a tiers task whose reviewer asks a question a higher tier can answer', () => {
  it('ends success without the user: the Architect answers the real reviewer from the recognised family, once', async () => {
    const { view, messages, dispatcher, architect } = await run(await unboundedTask(['Return -1 if not found']));
    expect(view.status).toBe('success');
    expect(view.waiting_for_user).toBeNull();
    const [question] = questions(messages, 'SPECIALIZED_FLEET');
    expect(question.payload).toMatchObject({ error_type: 'missing_complexity_bound', recoverable: true });
    expect(dispatcher).toEqual([]);
    expect(architect).toHaveLength(1);
    expect(architect[0]).toMatchObject({ rule: 'architect-family-bound', subtask: 'review' });
    const plans = messages.filter((m) => m.target_tier === 'ROUTING_DISPATCHER' && m.payload.task_type);
    expect(plans.map((m) => m.id)).toEqual([expect.any(String), architect[0].revision_id]);
    expect(plans[1].correlation_id).toBe(plans[0].correlation_id);
    // The revised review really timed the solution against the answer.
    const review = messages.find(
      (m) => m.payload.status === 'success' && m.payload.artifacts?.[0]?.artifact_type === 'complexity_review',
    );
    expect(review.payload.artifacts[0].metadata).toMatchObject({ claimed: 'O(log n)', verdict: 'holds' });
    expect(treeNodes(view.tree).filter((n) => n.status === 'needs_clarification')).toHaveLength(2);
  }, 120_000);

  it('ends success without the user: the Dispatcher answers from a bound the user wrote in words', async () => {
    const body = await unboundedTask(['Return -1 if not found', 'Must run in logarithmic time']);
    const { view, messages, dispatcher, architect } = await run(body);
    expect(view.status).toBe('success');
    expect(architect).toEqual([]);
    expect(dispatcher).toEqual([expect.objectContaining({ rule: 'dispatcher-stated-bound', subtask: 'review' })]);
    const retried = messages.find((m) => m.id === dispatcher[0].revision_id);
    expect(retried.payload.task_data).toMatchObject({ claimed_complexity: 'O(log n)' });
    expect(questions(messages, 'ROUTING_DISPATCHER')).toEqual([]);
  }, 120_000);
});
