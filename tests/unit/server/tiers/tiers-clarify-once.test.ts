import { afterEach, describe, expect, it } from 'vitest';
import type { ClarificationRecord } from '../../../../machines/tiers/tier-clarification.ts';
import type { SpecialistRequestShape, SpecialistResultShape } from '../../../../machines/tiers/task-context.ts';
import type { TaskRequest } from '../../../../protocol/tiers/task-request.ts';
import type { TiersEnvelope } from '../../../../protocol/tiers/envelope.ts';
import type { DelegationPayload, OutcomePayload } from '../../../../protocol/tiers/payloads.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import { stubSpecialists, type Behaviour } from '../../../support/tiers/stub-specialists.ts';
import { BINARY_SEARCH_TASK, openTiers, settledTask, tiersData } from '../../../support/tiers/tiers-harness.ts';

const open: TiersServiceImpl[] = [];
afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
});

const asks = (request: SpecialistRequestShape): SpecialistResultShape => ({
  status: 'needs_clarification',
  summary: 'No bound to check.',
  confidence: 0,
  artifacts: [],
  log: ['asking'],
  error_type: 'missing_complexity_bound',
  error_detail: `Which time complexity must ${request.problem.function_name} meet?`,
  recoverable: true,
});

/** The real reviewer's rule, without the timing: it asks when its delegation names no bound. */
const reviewer: Behaviour = (request) =>
  request.claimed_complexity === undefined && !request.constraints.some((c) => /O\(/.test(c))
    ? asks(request)
    : {
        status: 'success',
        summary: `checked ${request.claimed_complexity}`,
        confidence: 0.8,
        artifacts: [{ artifact_type: 'complexity_review', content: String(request.claimed_complexity), metadata: {} }],
        log: [],
      };

async function run(task: TaskRequest, behave: Record<string, Behaviour>) {
  const service = await openTiers(tiersData(), { brains: { specialists: stubSpecialists(behave) } });
  open.push(service);
  const { task_id } = await service.submit('ada', task);
  const view = await settledTask(service, 'ada', task_id);
  const messages = (await service.messages('ada', task_id))!;
  const beads = (await service.beads('ada', task_id))!;
  const records = (key: string) => (beads.find((e) => e.key === key)?.value ?? []) as ClarificationRecord[];
  return { view, messages, dispatcher: records('routing/clarifications'), architect: records('task/clarifications') };
}

const delegationsTo = (messages: TiersEnvelope[], tier: string) =>
  messages.filter((m) => m.target_tier === tier && 'task_type' in m.payload);
const reviews = (messages: TiersEnvelope[]) =>
  delegationsTo(messages, 'SPECIALIZED_FLEET').filter(
    (m) => (m.payload as DelegationPayload).task_type === 'review_complexity',
  );
const questionsFrom = (messages: TiersEnvelope[], tier: string) =>
  messages.filter((m) => m.source_tier === tier && (m.payload as OutcomePayload).status === 'needs_clarification');

describe('tiers: a higher tier answers a clarification once', () => {
  it('the Dispatcher answers from a bound its delegation states: a new attempt, same correlation, no user', async () => {
    const task = { ...BINARY_SEARCH_TASK, constraints: ['Return -1 if not found', 'Must run in logarithmic time'] };
    const { view, messages, dispatcher, architect } = await run(task, { reviewer });
    expect(view.status).toBe('success');
    expect(view.waiting_for_user).toBeNull();
    const [first, second] = reviews(messages);
    expect(reviews(messages)).toHaveLength(2);
    // The question and the revision are journaled envelopes.
    const [question] = questionsFrom(messages, 'SPECIALIZED_FLEET');
    expect(question!.correlation_id).toBe(first!.id);
    expect(second!.id).not.toBe(first!.id);
    expect(second!.correlation_id).toBe(first!.correlation_id);
    const revised = second!.payload as DelegationPayload;
    expect(revised.task_data['claimed_complexity']).toBe('O(log n)');
    expect(revised.task_data['clarification']).toMatchObject({
      answered_by: 'ROUTING_DISPATCHER',
      rule: 'dispatcher-stated-bound',
    });
    expect(dispatcher).toEqual([
      expect.objectContaining({ question_id: question!.id, revision_id: second!.id, subtask: 'review' }),
    ]);
    // Nothing reached the Architect: one plan, no question from the Dispatcher.
    expect(architect).toEqual([]);
    expect(delegationsTo(messages, 'ROUTING_DISPATCHER')).toHaveLength(1);
    expect(questionsFrom(messages, 'ROUTING_DISPATCHER')).toEqual([]);
    const review = view.tree[0]!.children[0]!.children.filter((n) => n.specialist === 'reviewer');
    expect(review.map((n) => n.status)).toEqual(['needs_clarification', 'success']);
  });

  it('the Architect answers what the Dispatcher cannot, from the recognised family: a revised plan, same correlation', async () => {
    const { view, messages, dispatcher, architect } = await run(BINARY_SEARCH_TASK, { reviewer });
    expect(view.status).toBe('success');
    expect(dispatcher).toEqual([]);
    const plans = delegationsTo(messages, 'ROUTING_DISPATCHER');
    expect(plans).toHaveLength(2);
    expect(plans[1]!.id).not.toBe(plans[0]!.id);
    expect(plans[1]!.correlation_id).toBe(plans[0]!.correlation_id);
    const [question] = questionsFrom(messages, 'ROUTING_DISPATCHER');
    expect(question!.payload).toMatchObject({ error_type: 'missing_complexity_bound' });
    expect(architect).toEqual([
      expect.objectContaining({
        question_id: question!.id,
        revision_id: plans[1]!.id,
        rule: 'architect-family-bound',
        subtask: 'review',
      }),
    ]);
    const subtasks = (plans[1]!.payload as DelegationPayload).task_data['plan'] as { subtasks: any[] };
    expect(subtasks.subtasks.find((s) => s.key === 'review').task_data.claimed_complexity).toBe('O(log n)');
    expect(view.tree[0]!.children.map((n) => n.status)).toEqual(['needs_clarification', 'success']);
    expect(questionsFrom(messages, 'ABSTRACT_ARCHITECT')).toEqual([]);
  });

  it('a second question on the same correlation flows on up, and what no tier may answer again reaches the user', async () => {
    const task = { ...BINARY_SEARCH_TASK, constraints: ['Must run in logarithmic time'] };
    const { view, messages, dispatcher, architect } = await run(task, { reviewer: asks });
    expect(view.status).toBe('needs_clarification');
    expect(view.waiting_for_user?.question).toMatch(/Which time complexity/);
    // The Dispatcher answered once on each plan it got, the Architect once on the Monitor's delegation.
    const plans = delegationsTo(messages, 'ROUTING_DISPATCHER').map((m) => m.id);
    expect(dispatcher.map((r) => r.correlation_id)).toEqual(plans);
    expect(architect.map((r) => r.correlation_id)).toEqual([view.tree[0]!.message_id]);
    expect(questionsFrom(messages, 'SPECIALIZED_FLEET')).toHaveLength(4);
    expect(questionsFrom(messages, 'ROUTING_DISPATCHER')).toHaveLength(2);
    expect(questionsFrom(messages, 'ABSTRACT_ARCHITECT')).toHaveLength(1);
  });

  it('contradictory tests stay unanswered by every tier: the question reaches the Monitor and the user', async () => {
    const contradictory = (): SpecialistResultShape => ({
      ...asks({ problem: BINARY_SEARCH_TASK.problem } as SpecialistRequestShape),
      error_type: 'ambiguous_request',
      error_detail: 'Test cases 0 and 1 give the same input but expect 1 and 2: which one is right?',
    });
    const { view, messages, dispatcher, architect } = await run(BINARY_SEARCH_TASK, { 'js-solver': contradictory });
    expect(view.status).toBe('needs_clarification');
    expect(view.outcome).toMatchObject({ error_type: 'ambiguous_request' });
    expect(view.waiting_for_user?.question).toMatch(/which one is right/);
    expect([...dispatcher, ...architect]).toEqual([]);
    expect(delegationsTo(messages, 'ROUTING_DISPATCHER')).toHaveLength(1);
    expect(reviews(messages)).toEqual([]);
  });
});
