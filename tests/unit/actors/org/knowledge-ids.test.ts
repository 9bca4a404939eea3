import fc from 'fast-check';
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from '../../../../actors/org/knowledge-graph.ts';
import { KnowledgeIds } from '../../../../actors/org/knowledge-ids.ts';
import { orgMessage } from '../../../../actors/org/org-envelope.ts';
import { ORG_STATE_SCHEMA } from '../../../../actors/org/org-state-schema.ts';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../../actors/runtime/shared-state/open-shared-state.ts';

function setup() {
  const clock = new SimulatedClock();
  const journal = createMemoryJournal<unknown>();
  const stateOf = (owner: string) => openSharedState({ journal, schema: ORG_STATE_SCHEMA, scopes: { owner }, clock });
  const graphOf = (owner: string) => new KnowledgeGraph(stateOf(owner), () => clock.now());
  const record = (owner: string, nodeId: string) =>
    graphOf(owner).record('product', {
      node_id: nodeId,
      node_type: 'learning',
      title: nodeId,
      content: `learned ${nodeId}`,
      author_agent: 'product',
      sprint_id: 's',
      tags: [],
      project_id: 'p-1',
    });
  return { ids: new KnowledgeIds(stateOf), record, clock };
}

const citing = (prdId: string, refs: string[]) =>
  orgMessage({
    from: 'product',
    to: 'frontend',
    type: 'notification',
    priority: 'low',
    payload: { task_id: 't', content: {} },
    prdId,
    sprintId: 's',
    knowledgeRefs: refs,
    seed: [refs.join(',')],
    at: 0,
  });

describe('KnowledgeIds', () => {
  it("reads an owner's nodes when a project loads and refuses a message citing one they lack, naming the field", async () => {
    const { ids, record } = setup();
    await record('ada', 'n-1');
    await record('bob', 'n-bob');
    await ids.load('p-1', 'ada');
    expect(ids.check(citing('p-1', ['n-1']))).toBeUndefined();
    expect(ids.check(citing('p-1', []))).toBeUndefined();
    const refused = ids.check(citing('p-1', ['n-1', 'n-bob', 'n-2']));
    expect(refused).toMatchObject({
      code: 'unknown_reference',
      issues: [{ path: 'context.knowledge_graph_refs', message: expect.stringContaining('"n-bob", "n-2"') }],
    });
    expect(refused?.message).not.toContain('"n-1"');
  });

  it('follows every write to the graph after loading, whoever writes it', async () => {
    const { ids, record } = setup();
    await ids.load('p-1', 'ada');
    expect(ids.check(citing('p-1', ['later']))?.code).toBe('unknown_reference');
    await record('ada', 'later');
    expect(ids.check(citing('p-1', ['later']))).toBeUndefined();
  });

  it('checks only loaded projects, and reads the ids again when a rested project wakes', async () => {
    const { ids, record } = setup();
    expect(ids.check(citing('p-1', ['none']))).toBeUndefined();
    await ids.load('p-1', 'ada');
    await ids.load('p-2', 'ada');
    ids.forget('p-1', 'ada');
    expect(ids.has('p-1')).toBe(false);
    expect(ids.check(citing('p-2', ['none']))?.code).toBe('unknown_reference');
    ids.forget('p-2', 'ada');
    expect(ids.check(citing('p-2', ['none']))).toBeUndefined();
    // Written while no project of the owner was loaded: read when one wakes.
    await record('ada', 'while-resting');
    await ids.load('p-2', 'ada');
    expect(ids.check(citing('p-2', ['while-resting']))).toBeUndefined();
  });

  it('refuses a message exactly when it cites a node never recorded (random graphs and citations)', async () => {
    const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(id), fc.uniqueArray(id), fc.uniqueArray(id), async (before, after, cited) => {
        const { ids, record } = setup();
        for (const n of before) await record('ada', n);
        await ids.load('p-1', 'ada');
        for (const n of after) await record('ada', n);
        const known = new Set([...before, ...after]);
        const refused = ids.check(citing('p-1', cited));
        expect(refused !== undefined).toBe(cited.some((n) => !known.has(n)));
      }),
      { numRuns: 150 },
    );
  });
});
