import { Graphviz } from '@hpcc-js/wasm-graphviz';
import type { MachineGraph } from './machine-graph.ts';
import { toDot } from './to-dot.ts';

// The WebAssembly build ships inside the package: loading it needs no network. Loaded once.
let graphviz: Promise<Graphviz> | undefined;

function loadGraphviz(): Promise<Graphviz> {
  graphviz ??= Graphviz.load();
  return graphviz;
}

/**
 * Graphviz gives a table cell with a tooltip the id `a_<ID>`; the transition's own id is what
 * the page and the tests look for, so the prefix is dropped for the ids the graph knows.
 */
function restoreTransitionIds(svg: string, graph: MachineGraph): string {
  const known = new Set(graph.transitions.map((t) => t.id));
  return svg.replace(/ id="a_([^"]*)"/g, (whole, id: string) => (known.has(unescapeXml(id)) ? ` id="${id}"` : whole));
}

function unescapeXml(text: string): string {
  return text
    .replace(/&#45;/g, '-')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/**
 * Lays out and renders a machine graph to a standalone SVG document, on the server, without
 * network: Graphviz `dot` compiled to WebAssembly.
 *
 * @example
 * await writeFile('pipeline.svg', await renderSvg(machineGraph(pipelineMachine)));
 */
export async function renderSvg(graph: MachineGraph): Promise<string> {
  const engine = await loadGraphviz();
  return restoreTransitionIds(engine.dot(toDot(graph)), graph);
}

/** The same SVG without the XML prolog and doctype, to place inside an HTML page. */
export function inlineSvg(svg: string): string {
  return svg.slice(svg.indexOf('<svg'));
}
