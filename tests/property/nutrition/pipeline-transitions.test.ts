import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getStateNodes, toDirectedGraph, type DirectedGraphNode } from 'xstate/graph';
import { pipelineMachine } from '../../../machines/nutrition/pipeline.ts';
import type { PipelineStageAgent } from '../../../protocol/nutrition/agents.ts';
import { PIPELINE_EDGES, PipelineStateSchema } from '../../../protocol/nutrition/pipeline-transitions.ts';
import { fakeOutput } from '../../support/nutrition/nutrition-fakes.ts';
import { startPipeline, type PipelineHarness } from '../../support/nutrition/pipeline-harness.ts';

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
  | {
      kind: 'answer';
      pick: number;
      who: 'chain' | 'coach' | 'any';
      variant: 'ok' | 'redFlag' | 'upstream' | 'conflict' | 'invalid';
    }
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
      // COACH works beside the chain: answering the chain first keeps COACH busy into later states.
      who: fc.oneof(
        { weight: 5, arbitrary: fc.constant('chain' as const) },
        { weight: 2, arbitrary: fc.constant('coach' as const) },
        { weight: 1, arbitrary: fc.constant('any' as const) },
      ),
      variant: fc.oneof(
        { weight: 6, arbitrary: fc.constant('ok' as const) },
        { weight: 2, arbitrary: fc.constant('redFlag' as const) },
        { weight: 1, arbitrary: fc.constantFrom('upstream' as const, 'conflict' as const, 'invalid' as const) },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail' as const), pick: fc.nat(3) }) },
  // Only applies while the PHYSICIAN has a query, so it may weigh heavily without swamping the rest.
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('physician' as const),
      action: fc.constantFrom(
        'continue' as const,
        'continue' as const,
        'continue' as const,
        'pause_pending_referral' as const,
        'abort' as const,
      ),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'confirm' as const }) },
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
      const preferred =
        c.who === 'any' ? work : work.filter((d) => (d.envelope.to_agent === 'COACH') === (c.who === 'coach'));
      const candidates = preferred.length > 0 ? preferred : work;
      const dispatch = candidates[c.pick % Math.max(candidates.length, 1)];
      if (dispatch) p.report(dispatch, { status: 'completed', output: fakeOutput(dispatch, c.variant) });
      return;
    }
    case 'fail': {
      const dispatch = work[c.pick % Math.max(work.length, 1)];
      if (dispatch)
        p.report(dispatch, {
          status: 'failed',
          failure: { kind: 'timeout', timeout_duration_ms: 30_000, input_hash: 'b'.repeat(64) },
        });
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

  /** Runs random command sequences; throws at the first transition outside §1; returns the edges taken. */
  function explore(options: { numRuns: number; seed?: number }) {
    const counts = new Map<string, number>();
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
        new Set(p.edges).forEach((edge) => counts.set(edge, (counts.get(edge) ?? 0) + 1));
        p.stop();
      }),
      options,
    );
    return counts;
  }

  it('only ever takes §1 transitions', () => {
    explore({ numRuns: 300 });
  });

  it('takes every §1 transition on some generated path', () => {
    // Seeded so that coverage does not depend on luck; the rarest edges are taken a few times.
    const counts = explore({ numRuns: 1_000, seed: 20_261_122 });
    if (process.env.EDGE_STATS) console.log(Object.fromEntries(counts));
    expect([...TABLE].filter((edge) => !counts.has(edge))).toEqual([]);
  });
});
