import { describe, expect, it } from 'vitest';
import { and, assign, fromPromise, not, or, setup, stateIn, type AnyStateMachine } from 'xstate';
import { getStateNodes, toDirectedGraph, type DirectedGraphNode } from 'xstate/graph';
import { MACHINES } from '../../../../machines/registry.ts';
import { PIPELINE_EDGES, PipelineStateSchema } from '../../../../protocol/nutrition/pipeline-transitions.ts';
import { guardLabel } from '../../../../server/viz/guard-label.ts';
import { machineGraph, type GraphTransition } from '../../../../server/viz/machine-graph.ts';
import { renderSvg } from '../../../../server/viz/render-svg.ts';
import { edgeGroupId } from '../../../../server/viz/to-dot.ts';

/** A machine with what the registered ones lack: parallel regions, history, numeric delays, done states. */
const kitchenSink = setup({
  types: { context: {} as { n: number }, events: {} as { type: 'go' } | { type: 'stop' } | { type: 'bump' } },
  actors: { fetcher: fromPromise(async () => 1) },
  guards: { small: ({ context }) => context.n < 3, ready: () => true },
  actions: { bump: assign({ n: ({ context }) => context.n + 1 }) },
}).createMachine({
  id: 'sink',
  context: { n: 0 },
  initial: 'idle',
  states: {
    idle: {
      on: {
        go: [
          { guard: and(['small', not('ready')]), target: 'busy' },
          { guard: or(['ready', stateIn('#sink.idle')]), target: 'busy.fetching' },
          { actions: 'bump' },
        ],
      },
    },
    busy: {
      type: 'parallel',
      description: 'Two regions at once.',
      on: { stop: 'done' },
      onDone: 'done',
      states: {
        fetching: {
          initial: 'loading',
          states: {
            loading: {
              invoke: { src: 'fetcher', onDone: 'loaded', onError: { target: 'loading', reenter: true } },
              after: { 500: 'loaded' },
            },
            loaded: { type: 'final' },
            hist: { type: 'history', history: 'deep' },
          },
        },
        counting: {
          initial: 'low',
          states: { low: { always: { guard: 'small', target: 'high' } }, high: { type: 'final' } },
        },
      },
    },
    done: { type: 'final' },
  },
});

const CASES: { name: string; machine: AnyStateMachine }[] = [
  ...MACHINES.map((m) => ({ name: m.name, machine: m.machine })),
  { name: 'sink', machine: kitchenSink },
];

function edgesOf(node: DirectedGraphNode): DirectedGraphNode['edges'] {
  return [...node.edges, ...node.children.flatMap(edgesOf)];
}

/** Every id in an SVG document. */
function svgIds(svg: string): Set<string> {
  const unescape = (text: string) =>
    text
      .replace(/&#45;/g, '-')
      .replace(/&gt;/g, '>')
      .replace(/&lt;/g, '<')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  return new Set([...svg.matchAll(/ id="([^"]*)"/g)].map((m) => unescape(m[1]!)));
}

/** The JSON transitions an xstate/graph edge can stand for (targetless ones are self-loops there). */
function matching(transitions: GraphTransition[], edge: DirectedGraphNode['edges'][number]): GraphTransition[] {
  const targetless = (edge.transition.target?.length ?? 0) === 0;
  const guard = edge.transition.guard === undefined ? null : guardLabel(edge.transition.guard);
  return transitions.filter(
    (t) =>
      t.source === edge.source.id &&
      t.event === edge.transition.eventType &&
      t.guard === guard &&
      (targetless ? t.targets.length === 0 : t.targets.includes(edge.target.id)),
  );
}

describe('machineGraph', () => {
  it.each(CASES)(
    'has every transition xstate/graph finds in $name, each with its element in the SVG',
    async ({ machine }) => {
      const graph = machineGraph(machine);
      const ids = svgIds(await renderSvg(graph));
      const edges = edgesOf(toDirectedGraph(machine));
      expect(edges.length).toBeGreaterThan(0);
      const covered = new Set<string>();
      for (const edge of edges) {
        const found = matching(graph.transitions, edge);
        expect(found, `${edge.source.id} --${edge.transition.eventType}--> ${edge.target.id}`).not.toHaveLength(0);
        for (const t of found) {
          covered.add(t.id);
          expect(ids.has(t.id), `SVG element ${t.id}`).toBe(true);
        }
      }
      // And nothing beyond them but the eventless transitions, which xstate/graph leaves out.
      const eventless = getStateNodes(machine.root).flatMap((node) => node.always ?? []);
      expect(graph.transitions.filter((t) => !covered.has(t.id)).length).toBe(eventless.length);
      for (const t of graph.transitions.filter((t) => t.kind === 'always')) expect(ids.has(t.id), t.id).toBe(true);
    },
  );

  it.each(CASES)('has a node for every state of $name, in the JSON and in the SVG', async ({ machine }) => {
    const graph = machineGraph(machine);
    const ids = svgIds(await renderSvg(graph));
    const nodes = [machine.root, ...getStateNodes(machine.root)];
    expect(new Set(graph.states.map((s) => s.id))).toEqual(new Set(nodes.map((n) => n.id)));
    for (const node of nodes) expect(ids.has(node.id), node.id).toBe(true);
  });

  it.each(CASES)('gives every transition of $name a distinct id', ({ machine }) => {
    const { transitions } = machineGraph(machine);
    expect(new Set(transitions.map((t) => t.id)).size).toBe(transitions.length);
  });

  it('draws every transition of spec 000 §1 between the nine pipeline states', async () => {
    const pipeline = MACHINES.find((m) => m.name === 'pipeline')!;
    const graph = machineGraph(pipeline.machine);
    const ids = svgIds(await renderSvg(graph));
    const states = graph.states.filter((s) => s.parent === graph.root).map((s) => s.key);
    expect(states.sort()).toEqual([...PipelineStateSchema.options].sort());
    for (const { from, to } of PIPELINE_EDGES)
      expect(ids.has(edgeGroupId(`pipeline.${from}`, `pipeline.${to}`)), `${from} -> ${to}`).toBe(true);
  });

  it('reads nested, parallel, history and final states, delays, invokes and higher-order guards', () => {
    const graph = machineGraph(kitchenSink);
    const state = (id: string) => graph.states.find((s) => s.id === id)!;
    expect(state('sink.busy').type).toBe('parallel');
    expect(state('sink.busy').description).toBe('Two regions at once.');
    expect(state('sink.busy.fetching').initial).toBe('sink.busy.fetching.loading');
    expect(state('sink.busy.fetching.hist').type).toBe('history');
    expect(state('sink.done').type).toBe('final');
    expect(state('sink.busy.fetching.loading').invoke).toEqual([{ id: expect.any(String), src: 'fetcher' }]);
    const from = (source: string) => graph.transitions.filter((t) => t.source === source);
    expect(from('sink.idle').map((t) => t.guard)).toEqual(['small && !ready', 'ready || in(#sink.idle)', null]);
    expect(from('sink.idle').map((t) => t.order)).toEqual([0, 1, 2]);
    const loading = from('sink.busy.fetching.loading');
    expect(loading.map((t) => t.kind).sort()).toEqual(['after', 'done', 'error']);
    expect(loading.find((t) => t.kind === 'after')).toMatchObject({
      delay: 500,
      trigger: 'after 500 ms',
      targets: ['sink.busy.fetching.loaded'],
    });
    expect(loading.find((t) => t.kind === 'error')).toMatchObject({
      reenter: true,
      targets: ['sink.busy.fetching.loading'],
    });
    expect(from('sink.busy.counting.low')).toMatchObject([
      { kind: 'always', event: '', guard: 'small', id: 'sink.busy.counting.low:always:0' },
    ]);
    expect(
      from('sink.busy')
        .map((t) => t.kind)
        .sort(),
    ).toEqual(['event', 'state-done']);
  });

  it('names guards with their params, as the pipeline writes them', () => {
    const { transitions } = machineGraph(MACHINES.find((m) => m.name === 'pipeline')!.machine);
    const rerun = transitions.find(
      (t) => t.source === 'pipeline.output_ready' && t.targets[0] === 'pipeline.scientist_processing',
    )!;
    expect(rerun.guard).toBe('reportIs(SCIENTIST, accepted) && checkinTriggersRerun');
    const timeout = transitions.find(
      (t) => t.source === 'pipeline.scientist_processing' && t.event === 'pipeline.timeout',
    )!;
    expect(timeout.actions).toEqual(['timeOutRun(scientist_processing)']);
  });
});
