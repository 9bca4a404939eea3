import { edgeLabel, stateLabel } from './dot-labels.ts';
import type { GraphState, GraphTransition, MachineGraph } from './machine-graph.ts';

/*
 * The machine graph as Graphviz DOT: atomic and final states are nodes, compound and parallel
 * states (the root included) clusters with an initial dot, the transitions that stay in a state
 * rows of its label, and the transitions between two states one arrow whose label lists them all.
 * Element ids in the SVG are the state and transition ids of the graph.
 */

const FONT = 'Helvetica';
const INK = '#374151';

/** Quotes a DOT id or attribute value. */
function q(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const isCluster = (state: GraphState) => state.type === 'compound' || state.type === 'parallel';

/** The id of the edge group drawn between two states (one arrow for all their transitions). */
export function edgeGroupId(source: string, target: string): string {
  return `${source}->${target}`;
}

/** The DOT node that stands for a state: itself, or the anchor inside its cluster. */
function anchorOf(state: GraphState): string {
  return isCluster(state) ? `${state.id}:initial` : state.id;
}

interface DotContext {
  graph: MachineGraph;
  byId: Map<string, GraphState>;
  children: Map<string, GraphState[]>;
  internal: Map<string, GraphTransition[]>;
  names: Map<string, string>;
  groups: Map<string, EdgeGroup>;
  /** Label nodes by the cluster that holds both ends of their arrow. */
  labelsIn: Map<string, string[]>;
}

function emitState(state: GraphState, ctx: DotContext, out: string[], indent: string): void {
  if (state.type === 'history') {
    const mark = state.history === 'deep' ? 'H*' : 'H';
    out.push(
      `${indent}${q(state.id)} [id=${q(state.id)}, class="state history", shape=circle, width=0.35, fixedsize=true, label=${q(mark)}, tooltip=${q(`${state.key} (${state.history} history)`)}];`,
    );
    return;
  }
  const label = stateLabel(state, ctx.internal.get(state.id) ?? [], ctx.names);
  if (!isCluster(state)) {
    const final = state.type === 'final' ? ', peripheries=2' : '';
    out.push(`${indent}${q(state.id)} [id=${q(state.id)}, class="state ${state.type}", label=${label}${final}];`);
    return;
  }
  const region = ctx.byId.get(state.parent ?? '')?.type === 'parallel';
  out.push(`${indent}subgraph ${q(`cluster_${state.id}`)} {`);
  out.push(`${indent}  id=${q(state.id)}; class="state ${state.type}"; label=${label};`);
  out.push(`${indent}  style="rounded${region ? ',dashed' : ''}"; color="${INK}"; labeljust="l";`);
  const anchor = q(anchorOf(state));
  if (state.type === 'compound' && state.initial) {
    out.push(
      `${indent}  ${anchor} [id=${anchor}, class="initial", shape=point, width=0.12, style=filled, fillcolor="${INK}", label=""];`,
    );
    const target = ctx.byId.get(state.initial);
    const into = target && isCluster(target) ? `, lhead=${q(`cluster_${target.id}`)}` : '';
    if (target)
      out.push(
        `${indent}  ${anchor} -> ${q(anchorOf(target))} [id=${q(`${state.id}:initial-edge`)}, class="initial"${into}];`,
      );
  } else {
    out.push(`${indent}  ${anchor} [id=${anchor}, shape=point, width=0.01, style=invis, label=""];`);
  }
  for (const child of ctx.children.get(state.id) ?? []) emitState(child, ctx, out, `${indent}  `);
  for (const id of ctx.labelsIn.get(state.id) ?? []) out.push(`${indent}  ${labelNode(id, ctx)}`);
  out.push(`${indent}}`);
}

/** Whether `target` comes before `source` in document order (an arrow back up the chart). */
function isBackward(source: GraphState, target: GraphState, order: Map<string, number>): boolean {
  return (order.get(target.id) ?? 0) < (order.get(source.id) ?? 0);
}

function isNextSibling(source: GraphState, target: GraphState, ctx: DotContext): boolean {
  const siblings = ctx.children.get(source.parent ?? '') ?? [];
  return source.parent === target.parent && siblings[siblings.indexOf(source) + 1] === target;
}

interface EdgeGroup {
  source: GraphState;
  target: GraphState;
  transitions: GraphTransition[];
}

function edgeGroups(graph: MachineGraph, byId: Map<string, GraphState>): Map<string, EdgeGroup> {
  const groups = new Map<string, EdgeGroup>();
  for (const t of graph.transitions) {
    for (const targetId of t.targets) {
      const key = edgeGroupId(t.source, targetId);
      const group = groups.get(key) ?? { source: byId.get(t.source)!, target: byId.get(targetId)!, transitions: [] };
      group.transitions.push(t);
      groups.set(key, group);
    }
  }
  return groups;
}

/** The innermost cluster that holds both states (a label node belongs there). */
function commonCluster(a: GraphState, b: GraphState, byId: Map<string, GraphState>): string {
  const chain = (s: GraphState | undefined): string[] => (s ? [s.id, ...chain(byId.get(s.parent ?? ''))] : []);
  const above = new Set(chain(byId.get(a.parent ?? '')));
  return chain(byId.get(b.parent ?? '')).find((id) => above.has(id)) ?? a.id;
}

function labelNode(id: string, ctx: DotContext): string {
  const label = edgeLabel(ctx.groups.get(id)!.transitions, ctx.names);
  return `${q(id)} [id=${q(id)}, class="transition", label=${label}, shape=box, style="rounded,filled", fillcolor="#f9fafb", color="#9ca3af", margin="0.04,0.02"];`;
}

/**
 * One arrow per pair of states. Its label is a node of its own that the arrow passes through,
 * so Graphviz ranks and spaces labels like states (no label overlaps another, and each sits on
 * its arrow). An arrow back up the chart is laid out downwards and drawn reversed, so the label
 * stays between its two states.
 */
function emitEdges(ctx: DotContext, out: string[]): void {
  const order = new Map(ctx.graph.states.map((s, i) => [s.id, i]));
  for (const [id, { source, target, transitions }] of ctx.groups) {
    const dashed = transitions.every((t) => t.kind === 'always') ? ', style=dashed' : '';
    if (source.id === target.id) {
      out.push(
        `  ${q(anchorOf(source))} -> ${q(anchorOf(target))} [id=${q(id)}, class="transition", label=${edgeLabel(transitions, ctx.names)}${dashed}];`,
      );
      continue;
    }
    // ltail/lhead clip an arrow at a compound state's border instead of its initial dot.
    const clipSource =
      isCluster(source) && !target.id.startsWith(`${source.id}.`) ? q(`cluster_${source.id}`) : undefined;
    const clipTarget =
      isCluster(target) && !source.id.startsWith(`${target.id}.`) ? q(`cluster_${target.id}`) : undefined;
    const segment = (from: string, to: string, suffix: string, extra: string[]) =>
      `  ${q(from)} -> ${q(to)} [${[`id=${q(`${id}:${suffix}`)}`, 'class="segment"', ...extra].join(', ')}${dashed}];`;
    const src = anchorOf(source);
    const dst = anchorOf(target);
    if (isBackward(source, target, order)) {
      out.push(segment(dst, id, 'head', ['dir=back', ...(clipTarget ? [`ltail=${clipTarget}`] : [])]));
      out.push(segment(id, src, 'tail', ['dir=none', ...(clipSource ? [`lhead=${clipSource}`] : [])]));
    } else {
      // The arrow to the next sibling in document order is the chart's spine: keep it straight.
      const spine = isNextSibling(source, target, ctx) ? ['weight=8'] : [];
      out.push(segment(src, id, 'tail', ['dir=none', ...spine, ...(clipSource ? [`ltail=${clipSource}`] : [])]));
      out.push(segment(id, dst, 'head', [...spine, ...(clipTarget ? [`lhead=${clipTarget}`] : [])]));
    }
  }
}

/**
 * The DOT text of a machine graph, ready for Graphviz (`dot` layout).
 *
 * @example
 * const svg = graphviz.dot(toDot(machineGraph(pipelineMachine)));
 */
export function toDot(graph: MachineGraph): string {
  const byId = new Map(graph.states.map((s) => [s.id, s]));
  const children = new Map<string, GraphState[]>();
  for (const s of graph.states) if (s.parent !== null) children.set(s.parent, [...(children.get(s.parent) ?? []), s]);
  const internal = new Map<string, GraphTransition[]>();
  for (const t of graph.transitions)
    if (t.targets.length === 0) internal.set(t.source, [...(internal.get(t.source) ?? []), t]);
  const names = new Map(graph.states.map((s) => [s.id, s.parent === null ? s.key : s.id.slice(graph.root.length + 1)]));
  const groups = edgeGroups(graph, byId);
  const labelsIn = new Map<string, string[]>();
  for (const [id, group] of groups) {
    if (group.source.id === group.target.id) continue;
    const cluster = commonCluster(group.source, group.target, byId);
    labelsIn.set(cluster, [...(labelsIn.get(cluster) ?? []), id]);
  }
  const ctx: DotContext = { graph, byId, children, internal, names, groups, labelsIn };
  const out = [
    `digraph ${q(graph.id)} {`,
    `  graph [id=${q(`machine:${graph.id}`)}, fontname="${FONT}", fontsize=12, rankdir=TB, compound=true, newrank=true, nodesep=0.3, ranksep=0.35, pad=0.15, bgcolor="transparent"];`,
    `  node [fontname="${FONT}", fontsize=11, shape=box, style="rounded,filled", fillcolor="#ffffff", color="${INK}", margin="0.08,0.04"];`,
    `  edge [fontname="${FONT}", fontsize=10, color="#6b7280", arrowsize=0.7];`,
  ];
  emitState(byId.get(graph.root)!, ctx, out, '  ');
  emitEdges(ctx, out);
  out.push('}');
  return out.join('\n');
}
