import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getStateNodes, toDirectedGraph, type DirectedGraphNode } from 'xstate/graph';
import { pipelineMachine } from '../../machines/pipeline.ts';
import type { PipelineStageAgent } from '../../protocol/nutrition/agents.ts';
import { PIPELINE_EDGES, PipelineStateSchema } from '../../protocol/nutrition/pipeline-transitions.ts';
import { fakeOutput } from '../support/nutrition-fakes.ts';
import { startPipeline, type PipelineHarness } from '../support/pipeline-harness.ts';

const TABLE = new Set(PIPELINE_EDGES.map((e) => `${e.from}->${e.to}`));
const STAGES: PipelineStageAgent[] = ['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'];

/** Eventless (`always`) edges, which xstate/graph's directed graph leaves out. */
function eventlessEdges(): string[] {
  return getStateNodes(pipelineMachine.root).flatMap((node) =>
    (node.always ?? []).flatMap((t) => (t.target ?? []).map((target) => `${node.path[0]}->${target.path[0]}`)),
  );
}

/** Every edge the machine's definition declares, from xstate/graph's directed graph. */
function declaredEdges(node: DirectedGraphNode): string[] {
  // Targetless transitions (actions only) are drawn as self-loops; they are not transitions of §1.
  const own = node.edges
    .filter((edge) => (edge.transition.target?.length ?? 0) > 0)
    .map((edge) => `${edge.source.path[0]}->${edge.target.path[0]}`);
  return [...own, ...node.children.flatMap(declaredEdges)];
}

type Command =
  | { kind: 'start' }
  | { kind: 'answer'; pick: number; variant: 'ok' | 'redFlag' | 'upstream' | 'conflict' | 'invalid' }
  | { kind: 'fail'; pick: number }
  | { kind: 'physician'; action: 'continue' | 'pause_pending_referral' | 'abort' }
  | { kind: 'confirm' }
  | { kind: 'checkin'; rerun: PipelineStageAgent[] }
  | { kind: 'tick'; ms: number }
  | { kind: 'resume' };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: 'start' as const }) },
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      pick: fc.nat(3),
      variant: fc.oneof(
        { weight: 6, arbitrary: fc.constant('ok' as const) },
        { weight: 1, arbitrary: fc.constantFrom('redFlag' as const, 'upstream' as const, 'conflict' as const, 'invalid' as const) },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail' as const), pick: fc.nat(3) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('physician' as const), action: fc.constantFrom('continue' as const, 'continue' as const, 'pause_pending_referral' as const, 'abort' as const) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'confirm' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('checkin' as const), rerun: fc.subarray(STAGES) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 200_000 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'resume' as const }) },
);

function apply(p: PipelineHarness, c: Command) {
  const work = p.pending().filter((d) => d.envelope.to_agent !== 'PHYSICIAN');
  switch (c.kind) {
    case 'start':
      return p.start();
    case 'answer': {
      const dispatch = work[c.pick % Math.max(work.length, 1)];
      if (dispatch) p.report(dispatch, { status: 'completed', output: fakeOutput(dispatch, c.variant) });
      return;
    }
    case 'fail': {
      const dispatch = work[c.pick % Math.max(work.length, 1)];
      if (dispatch) p.report(dispatch, { status: 'failed', failure: { kind: 'timeout', timeout_duration_ms: 30_000, input_hash: 'b'.repeat(64) } });
      return;
    }
    case 'physician':
      if (p.pending('PHYSICIAN').length > 0) p.answer('PHYSICIAN', 'ok', { physicianAction: c.action });
      return;
    case 'confirm':
      return p.send({ type: 'pipeline.confirm_referral' });
    case 'checkin':
      if (p.state() !== 'output_ready') return;
      p.checkin();
      if (p.pending('SCIENTIST').length > 0) p.answer('SCIENTIST', 'ok', { rerun: c.rerun });
      return;
    case 'tick':
      return p.clock.increment(c.ms);
    case 'resume':
      return p.send({ type: 'pipeline.resume' });
  }
}


describe('pipelineMachine against the §1 table', () => {
  it('declares exactly the nine §1 states', () => {
    expect(Object.keys(pipelineMachine.root.states).sort()).toEqual([...PipelineStateSchema.options].sort());
  });

  it('declares no transition outside the table, and every transition of it (xstate/graph)', () => {
    const declared = new Set([...declaredEdges(toDirectedGraph(pipelineMachine)), ...eventlessEdges()]);
    expect([...declared].filter((edge) => !TABLE.has(edge))).toEqual([]);
    expect([...TABLE].filter((edge) => !declared.has(edge))).toEqual([]);
  });

  it('only ever takes §1 transitions, and random runs take every one of them', () => {
    const taken = new Set<string>();
    fc.assert(
      fc.property(fc.array(command, { minLength: 5, maxLength: 60 }), (commands) => {
        const p = startPipeline();
        p.start();
        for (const c of commands) {
          apply(p, c);
          const outside = p.edges.filter((edge) => !TABLE.has(edge));
          if (outside.length > 0) throw new Error(`Took ${outside.join(', ')} after ${JSON.stringify(c)}`);
          if (p.status() === 'done') break;
        }
        p.edges.forEach((edge) => taken.add(edge));
        p.stop();
      }),
      { numRuns: 400 },
    );
    expect([...TABLE].filter((edge) => !taken.has(edge))).toEqual([]);
  });
});
