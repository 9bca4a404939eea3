import { afterEach, describe, expect, it } from 'vitest';
import type { SpecialistRequestShape, SpecialistResultShape } from '../../../../machines/tiers/task-context.ts';
import { dispatchOutcome } from '../../../../machines/tiers/dispatch-outcome.ts';
import type { GraphSubtask, TaskGraph } from '../../../../machines/tiers/dispatch-graph.ts';
import type { TiersEnvelope } from '../../../../protocol/tiers/envelope.ts';
import {
  OutcomePayloadSchema,
  type DelegationPayload,
  type OutcomePayload,
} from '../../../../protocol/tiers/payloads.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import { MSG_AGG_001 } from '../../../support/tiers/spec-examples.ts';
import { solved, stubSpecialists } from '../../../support/tiers/stub-specialists.ts';
import { BINARY_SEARCH_TASK, flush, openTiers, settledTask, tiersData } from '../../../support/tiers/tiers-harness.ts';

const open: TiersServiceImpl[] = [];
afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
});

const failed = (recoverable: boolean, error_type = 'wrong_answer'): SpecialistResultShape => ({
  status: 'failed',
  summary: 'tests failed',
  confidence: 0.1,
  artifacts: [],
  log: [],
  error_type,
  error_detail: 'tests failed',
  recoverable,
});

const toFleet = (messages: TiersEnvelope[]) =>
  messages.filter((m) => m.target_tier === 'SPECIALIZED_FLEET' && 'task_type' in m.payload);
const answersTo = (messages: TiersEnvelope[], id: string) =>
  messages.filter((m) => m.correlation_id === id && 'status' in m.payload);

function subtask(
  key: string,
  status: GraphSubtask['status'],
  specialist: string,
  order: number,
  confidence: number,
): GraphSubtask {
  return {
    key,
    task_type: 'execute_code',
    objective: key,
    constraints: [],
    specialist_hint: specialist,
    depends_on: [],
    task_data: {},
    specialist,
    excluded: [],
    attempts: [`msg-00${order + 1}`],
    status,
    confidence,
    settled_order: order,
    artifacts: [],
    error: status === 'timeout' ? 'test-lora failed: timeout after 30000ms' : null,
    tokens: { input: 0, output: 0 },
  };
}

describe('dispatchOutcome', () => {
  it('reproduces spec 002’s msg-agg-001 from its child outcomes (all_success, two successes and a timeout)', () => {
    const graph: TaskGraph = {
      delegation: 'msg-001',
      strategy: 'all_success',
      settled: 3,
      tokens: { input: 0, output: 0 },
      subtasks: [
        subtask('code', 'success', 'python-lora', 1, 0.9),
        subtask('edge', 'success', 'python-lora', 2, 0.84),
        subtask('tests', 'timeout', 'test-lora', 3, 0),
      ],
    };
    const payload = dispatchOutcome(graph, 8500);
    const spec = MSG_AGG_001.payload;
    expect(OutcomePayloadSchema.safeParse(payload).success).toBe(true);
    expect(payload.status).toBe(spec.status);
    expect(payload.error_type).toBe(spec.error_type);
    expect(payload.recoverable).toBe(spec.recoverable);
    expect(JSON.parse(payload.artifacts[0]!.inline_content!)).toEqual(JSON.parse(spec.artifacts[0]!.inline_content));
    expect(
      (payload.artifacts[0]!.metadata['child_outcomes'] as { id: string; status: string }[]).map((c) => [
        c.id,
        c.status,
      ]),
    ).toEqual(spec.artifacts[0]!.metadata.child_outcomes.map((c) => [c.id, c.status]));
    // aggregated_confidence: the children's confidences, each weighing 1 (timed-out children count as 0).
    expect(payload.confidence).toBeCloseTo((0.9 + 0.84 + 0) / 3);
    expect(payload.resources_used).toMatchObject({
      parallel_tasks: 3,
      specialists_used: ['python-lora', 'test-lora'],
      revise_strategy: false,
    });
  });
});

describe('tiers: strategies end to end', () => {
  it('first_success: the first success wins and the other attempts are cancelled', async () => {
    let calls = 0;
    const service = await openTiers(tiersData(), {
      brains: {
        specialists: stubSpecialists({
          'js-solver': (r: SpecialistRequestShape) => (++calls === 1 ? solved(r) : new Promise<never>(() => {})),
        }),
      },
    });
    open.push(service);
    const { task_id } = await service.submit('ada', { ...BINARY_SEARCH_TASK, aggregation_strategy: 'first_success' });
    const view = await settledTask(service, 'ada', task_id);
    expect(view.status).toBe('success');
    const statuses = view.tree[0]!.children[0]!.children.map((c) => c.status).sort();
    expect(statuses).toEqual(['cancelled', 'cancelled', 'success']);
    const messages = (await service.messages('ada', task_id))!;
    expect(
      messages.filter((m) => 'target_message_id' in m.payload && m.target_tier === 'SPECIALIZED_FLEET'),
    ).toHaveLength(2);
  });

  it.each([
    ['any_success', [true, false, false], 'success'],
    ['any_success', [false, false, false], 'failed'],
    ['majority', [true, true, false], 'success'],
    ['majority', [true, false, false], 'partial'],
  ] as const)('%s over attempts %j ends %s', async (strategy, wins, expected) => {
    const variants: number[] = [];
    const service = await openTiers(tiersData(), {
      brains: {
        specialists: stubSpecialists({
          'js-solver': (r: SpecialistRequestShape) => (
            variants.push(r.variant ?? -1),
            wins[r.variant ?? 0] ? solved(r) : failed(false)
          ),
        }),
      },
    });
    open.push(service);
    const { task_id } = await service.submit('ada', { ...BINARY_SEARCH_TASK, aggregation_strategy: strategy });
    const view = await settledTask(service, 'ada', task_id);
    expect(variants.slice(0, 3).sort()).toEqual([0, 1, 2]);
    expect(view.status).toBe(expected);
    // Only all_success's PARTIAL is flagged for revision: a vote is reported as it went.
    expect(view.tree[0]!.children).toHaveLength(1);
  });

  it('all_success: a failed solve blocks its dependents, which never start', async () => {
    const started: string[] = [];
    const service = await openTiers(tiersData(), {
      brains: {
        specialists: stubSpecialists({
          'js-solver': () => failed(false, 'unsupported_problem'),
          'test-designer': (r) => (started.push(r.task_type), solved(r)),
          reviewer: (r) => (started.push(r.task_type), solved(r)),
        }),
      },
    });
    open.push(service);
    const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
    const view = await settledTask(service, 'ada', task_id);
    expect(view.status).toBe('failed');
    expect(started).toEqual([]);
    const graph = (await service.beads('ada', task_id, 'routing/task-graph'))![0]!.value as TaskGraph;
    expect(graph.subtasks.map((s) => [s.key, s.status])).toEqual([
      ['solve', 'failed'],
      ['tests', 'blocked'],
      ['review', 'blocked'],
    ]);
    expect(view.outcome).toMatchObject({ error_type: 'unsupported_problem', recoverable: false });
  });
});

describe('tiers: retries and re-routing', () => {
  it('retries a recoverable failure with a new id and the same correlation, up to 3 times', async () => {
    const data = tiersData();
    const service = await openTiers(data, {
      brains: { specialists: stubSpecialists({ 'js-solver': () => failed(true) }) },
    });
    open.push(service);
    const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
    await flush();
    for (let i = 0; i < 40; i++) {
      data.clock.increment(1_000);
      await flush();
    }
    await settledTask(service, 'ada', task_id);
    const messages = (await service.messages('ada', task_id))!;
    const solves = toFleet(messages).filter((m) => (m.payload as DelegationPayload).task_type === 'execute_code');
    expect(solves.length).toBeGreaterThanOrEqual(4 * 1);
    const firstRound = solves.filter((m) => m.correlation_id === solves[0]!.correlation_id);
    expect(firstRound).toHaveLength(4);
    expect(new Set(firstRound.map((m) => m.id)).size).toBe(4);
    for (const attempt of firstRound)
      expect(answersTo(messages, attempt.id).map((m) => (m.payload as OutcomePayload).status)).toEqual(['failed']);
  });

  it('re-routes a subtask away from an unavailable specialist', async () => {
    const specialists = {
      ...stubSpecialists({ 'js-solver': () => failed(true, 'unavailable_specialist') }),
      'js-solver-2': { taskTypes: ['execute_code'], run: async (r: SpecialistRequestShape) => solved(r) },
    };
    const service = await openTiers(tiersData(), { brains: { specialists } });
    open.push(service);
    const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
    const view = await settledTask(service, 'ada', task_id);
    expect(view.status).toBe('success');
    const solvers = view.tree[0]!.children[0]!.children.filter((c) => c.specialist?.startsWith('js-solver')).map(
      (c) => [c.specialist, c.status],
    );
    expect(solvers).toEqual([
      ['js-solver', 'failed'],
      ['js-solver-2', 'success'],
    ]);
  });
});
