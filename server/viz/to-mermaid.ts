import type { GraphState, GraphTransition, MachineGraph } from './machine-graph.ts';

/*
 * The machine graph as Mermaid `stateDiagram-v2` text, for reading in review and in Markdown.
 * Every transition is a line (in definition order), so a change to a machine is a one-line diff.
 */

/** The Mermaid id of a state: its path below the root, `_`-joined (`working_running`). */
export function mermaidId(state: GraphState, graph: MachineGraph): string {
  return state.id.slice(graph.root.length + 1).replace(/[^A-Za-z0-9_]/g, '_');
}

/** Mermaid text may not hold `;` (ends a statement) or `:` (ends a label); `#` starts an entity. */
function text(value: string): string {
  return value.replace(/[#;:]/g, (c) => `#${c.charCodeAt(0)};`);
}

/** `trigger [guard] / actions`, the way the diagram reads it. */
function transitionText(t: GraphTransition): string {
  const guard = t.guard ? ` [${t.guard}]` : t.order > 0 ? ' [otherwise]' : '';
  const actions = t.actions.length ? ` / ${t.actions.join(', ')}` : '';
  return text(`${t.trigger}${guard}${actions}`);
}

interface MermaidContext {
  graph: MachineGraph;
  children: Map<string, GraphState[]>;
  internal: Map<string, GraphTransition[]>;
  out: string[];
}

function emitState(state: GraphState, ctx: MermaidContext, indent: string): void {
  const id = mermaidId(state, ctx.graph);
  const kids = ctx.children.get(state.id) ?? [];
  if (kids.length === 0) ctx.out.push(`${indent}state "${text(state.key)}" as ${id}`);
  else emitChildren(state, kids, ctx, `${indent}`, `state ${id} {`);
  if (state.description) ctx.out.push(`${indent}${id} : ${text(state.description)}`);
  for (const t of ctx.internal.get(state.id) ?? []) ctx.out.push(`${indent}${id} : on ${transitionText(t)}`);
  if (state.type === 'final') ctx.out.push(`${indent}${id} --> [*]`);
}

function emitChildren(
  state: GraphState,
  kids: GraphState[],
  ctx: MermaidContext,
  indent: string,
  open: string | null,
): void {
  const inner = open ? `${indent}  ` : indent;
  if (open) ctx.out.push(`${indent}${open}`);
  kids.forEach((kid, i) => {
    // The regions of a parallel state are separated by `--`.
    if (state.type === 'parallel' && i > 0) ctx.out.push(`${inner}--`);
    emitState(kid, ctx, inner);
  });
  const initial = kids.find((kid) => kid.id === state.initial);
  if (initial) ctx.out.push(`${inner}[*] --> ${mermaidId(initial, ctx.graph)}`);
  if (open) ctx.out.push(`${indent}}`);
}

/**
 * The Mermaid `stateDiagram-v2` text of a machine graph. Transitions that only run actions are
 * listed in their state's description; the root's are comments.
 *
 * @example
 * await writeFile('docs/machines/pipeline.mmd', toMermaid(machineGraph(pipelineMachine)));
 */
export function toMermaid(graph: MachineGraph): string {
  const children = new Map<string, GraphState[]>();
  for (const s of graph.states) if (s.parent !== null) children.set(s.parent, [...(children.get(s.parent) ?? []), s]);
  const internal = new Map<string, GraphTransition[]>();
  for (const t of graph.transitions)
    if (t.targets.length === 0) internal.set(t.source, [...(internal.get(t.source) ?? []), t]);
  const ctx: MermaidContext = { graph, children, internal, out: [] };
  const root = graph.states.find((s) => s.id === graph.root)!;
  const byId = new Map(graph.states.map((s) => [s.id, s]));
  ctx.out.push(
    'stateDiagram-v2',
    `  %% machine ${graph.id}: generated from its definition (npm run viz:export), do not edit`,
  );
  if (root.description) ctx.out.push(`  %% ${root.description}`);
  for (const t of internal.get(root.id) ?? []) ctx.out.push(`  %% on ${transitionText(t)}`);
  emitChildren(root, children.get(root.id) ?? [], ctx, '  ', null);
  for (const t of graph.transitions) {
    for (const target of t.targets) {
      const to = mermaidId(byId.get(target)!, graph);
      // The root has no box in Mermaid to start an arrow from.
      if (t.source === graph.root) ctx.out.push(`  %% on ${transitionText(t)} --> ${to}`);
      else ctx.out.push(`  ${mermaidId(byId.get(t.source)!, graph)} --> ${to} : ${transitionText(t)}`);
    }
  }
  return `${ctx.out.join('\n')}\n`;
}
