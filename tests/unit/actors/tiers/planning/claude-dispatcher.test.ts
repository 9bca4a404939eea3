import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AssignmentsAnswerSchema, claudeDispatcher } from '../../../../../actors/tiers/planning/claude-dispatcher.ts';
import { UnassignableSubtaskError, type SpecialistStatus } from '../../../../../actors/tiers/planning/dispatcher.ts';
import { ModelAnswerError } from '../../../../../actors/models/forced-tool-call.ts';
import { offlineArchitect } from '../../../../../actors/tiers/planning/offline-architect.ts';
import type { DispatcherInput } from '../../../../../actors/tiers/planning/dispatcher.ts';
import { startFakeClaude, submit, type FakeClaude } from '../../../../support/models/fake-claude.ts';
import { BINARY_SEARCH } from '../../../../support/tiers/planning-problems.ts';

let claude: FakeClaude;
beforeAll(async () => {
  claude = await startFakeClaude();
});
afterAll(() => claude.server.close());
beforeEach(() => {
  claude.server.requests.length = 0;
  claude.server.violations.length = 0;
});

const fleet = (): SpecialistStatus[] => [
  { name: 'js-solver', task_types: ['execute_code'], available: true, load: 0, accuracy: 0.9 },
  { name: 'claude-solver', task_types: ['execute_code'], available: true, load: 1, accuracy: null },
  { name: 'test-designer', task_types: ['design_tests'], available: true, load: 0, accuracy: null },
  { name: 'reviewer', task_types: ['review_complexity'], available: false, load: 0, accuracy: null },
  { name: 'reviewer-2', task_types: ['review_complexity'], available: true, load: 0, accuracy: null },
];
const routing = async (): Promise<DispatcherInput> => ({
  subtasks: (await offlineArchitect.plan({ objective: 'o', problem: BINARY_SEARCH, constraints: [] })).subtasks,
  specialists: fleet(),
  priority: 1,
});
const good = [
  { key: 'review', specialist: 'reviewer-2', reason: 'the hinted reviewer is unavailable' },
  { key: 'solve', specialist: 'claude-solver', reason: 'a second opinion' },
  { key: 'tests', specialist: 'test-designer', reason: 'hint' },
];

describe('claudeDispatcher', () => {
  it('forces submit_assignments with its schema and returns the valid assignments in plan order', async () => {
    claude.answer(submit({ assignments: good }));
    const { assignments, tokens } = await claudeDispatcher(claude.access).route(await routing());
    const [body] = claude.bodies();
    expect(body!['tool_choice']).toEqual({ type: 'tool', name: 'submit_assignments' });
    expect(body!['tools'][0].input_schema).toEqual(z.toJSONSchema(AssignmentsAnswerSchema, { io: 'input' }));
    expect(claude.server.violations).toEqual([]);
    expect(assignments.map((a) => [a.key, a.specialist])).toEqual([
      ['solve', 'claude-solver'],
      ['tests', 'test-designer'],
      ['review', 'reviewer-2'],
    ]);
    expect(tokens!.input).toBeGreaterThan(0);
  });

  it('refuses assignments to an unavailable, unable, unknown or excluded specialist, or a subtask left out', async () => {
    const cases: [typeof good, RegExp, Record<string, string[]>?][] = [
      [
        good.map((a) => (a.key === 'review' ? { ...a, specialist: 'reviewer' } : a)),
        /"review" went to reviewer, which is unavailable/,
      ],
      [
        good.map((a) => (a.key === 'solve' ? { ...a, specialist: 'test-designer' } : a)),
        /does not handle execute_code/,
      ],
      [
        good.map((a) => (a.key === 'solve' ? { ...a, specialist: 'python-lora' } : a)),
        /python-lora, which is not in the fleet/,
      ],
      [good, /"solve" went to claude-solver, which is excluded for it/, { solve: ['claude-solver'] }],
      [good.slice(1), /subtask "review" has 0 assignments, not 1/],
    ];
    for (const [assignments, message, exclude] of cases) {
      claude.answer(submit({ assignments }));
      const error = await claudeDispatcher(claude.access)
        .route({ ...(await routing()), ...(exclude ? { exclude } : {}) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelAnswerError);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('refuses a schema-invalid answer', async () => {
    claude.answer(submit({ assignments: [{ key: 'solve', specialist: 'js-solver' }] }));
    await expect(claudeDispatcher(claude.access).route(await routing())).rejects.toThrow(
      /submit_assignments answer was refused: it failed the schema \(1 issue; first at assignments.0.reason/,
    );
  });

  it('refuses a subtask nobody can take before any call, naming it', async () => {
    const input = await routing();
    input.specialists = input.specialists.filter((s) => s.task_types[0] !== 'design_tests');
    await expect(claudeDispatcher(claude.access).route(input)).rejects.toThrow(UnassignableSubtaskError);
    expect(claude.bodies()).toHaveLength(0);
  });
});
