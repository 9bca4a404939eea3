import { escapeHtml } from './dot-labels.ts';
import type { MachineExports } from './machine-exports.ts';
import { inlineSvg } from './render-svg.ts';

/*
 * The visualizer's HTML: a list of the machines, and one page per machine with its diagram,
 * a details panel and, for `?run=<id>`, the live run. Scripts and styles are the app's own
 * (`/viz/assets/…`): the page loads nothing from elsewhere.
 */

function layout(title: string, body: string, bodyAttrs = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/viz/assets/viz.css">
</head>
<body${bodyAttrs}>
${body}
</body>
</html>
`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function exportLinks(name: string): string {
  const n = encodeURIComponent(name);
  return `<a href="/viz/${n}.json">JSON</a> <a href="/viz/${n}.mmd">Mermaid</a> <a href="/viz/${n}.svg">SVG</a>`;
}

/** `GET /viz`: every registered machine with its size and exports. */
export function indexPage(machines: MachineExports[]): string {
  const items = machines
    .map(({ entry, graph }) => {
      const states = graph.states.filter((s) => s.parent !== null).length;
      return `<li class="machine">
  <a class="machine-link" href="/viz/${encodeURIComponent(entry.name)}"><strong>${escapeHtml(entry.title)}</strong> <code>${escapeHtml(entry.name)}</code></a>
  <p>${escapeHtml(entry.summary)}</p>
  <p class="meta">${plural(states, 'state')}, ${plural(graph.transitions.length, 'transition')} · <code>${escapeHtml(entry.source.file)}</code> · ${exportLinks(entry.name)}</p>
</li>`;
    })
    .join('\n');
  return layout(
    'Statecharts',
    `<header class="bar"><h1>Statecharts</h1><span class="summary">Every machine of the runtime, drawn from its definition.</span></header>
<main class="index"><ul class="machines">${items}</ul>
<p class="hint">Watch a run live: <code>/viz/&lt;machine&gt;?run=&lt;id&gt;&amp;token=&lt;your JWT&gt;</code>.</p></main>`,
  );
}

/** JSON for a `<script>` element: `</script>` and friends cannot end it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** `GET /viz/:machine`: the diagram, with the live run when `run` is given. */
export function machinePage(
  exports: MachineExports,
  svg: string,
  run: string | undefined,
  live: boolean,
  listable = false,
): string {
  const { entry, graph } = exports;
  const attrs = ` data-machine="${escapeHtml(entry.name)}"${run ? ` data-run="${escapeHtml(run)}"` : ''}${run && !live ? ' data-no-live="1"' : ''}${listable ? ' data-runs="1"' : ''}`;
  const runsSection = listable
    ? `<section id="runs" class="panel"><h2>Your runs under way</h2>
  <p id="runs-status" class="status">Loading…</p>
  <div id="run-list"></div>
</section>`
    : '';
  const liveSection = run
    ? `<section id="live" class="panel" aria-live="polite">
  <h2>Live run <code>${escapeHtml(run)}</code></h2>
  <p id="live-status" class="status">Connecting…</p>
  <p>Current state: <strong id="live-state">–</strong></p>
  <h3>Recent transitions</h3>
  <ol id="recent" class="recent"></ol>
</section>`
    : '';
  return layout(
    `${entry.title} · statecharts`,
    `<header class="bar">
  <a class="back" href="/viz">Statecharts</a>
  <h1>${escapeHtml(entry.title)} <code>${escapeHtml(entry.name)}</code></h1>
  <span class="summary">${escapeHtml(entry.summary)}</span>
  <nav class="exports">${exportLinks(entry.name)}</nav>
</header>
<main class="layout">
  <section class="diagram-pane" aria-label="Diagram">
    <div class="toolbar" role="toolbar" aria-label="Zoom">
      <button type="button" data-zoom="out" aria-label="Zoom out">−</button>
      <button type="button" data-zoom="fit">Fit</button>
      <button type="button" data-zoom="reset">100%</button>
      <button type="button" data-zoom="in" aria-label="Zoom in">+</button>
      <span class="counts">${plural(graph.states.length - 1, 'state')} · ${plural(graph.transitions.length, 'transition')}</span>
    </div>
    <div id="diagram" class="diagram" tabindex="0">${inlineSvg(svg)}</div>
  </section>
  <aside class="side">
    ${liveSection}
    ${runsSection}
    <section id="details" class="panel"><h2>Details</h2><div id="detail-body"><p class="hint">Select a state or a transition in the diagram.</p></div></section>
    <section class="panel legend"><h2>Reading the diagram</h2>
      <p>Boxes are states; framed areas compound states, dashed ones parallel regions; double borders final states.
      An arrow's label box lists every transition between its two states, as <code>event [guard]</code>; alternatives of one event
      are tried top to bottom across the chart. Rows inside a state are transitions that stay in it (<code>/ actions</code>).
      Dashed arrows are <code>always</code> transitions.</p>
    </section>
  </aside>
</main>
<script type="application/json" id="viz-model">${scriptJson(graph)}</script>
<script type="module" src="/viz/assets/viz.js"></script>`,
    attrs,
  );
}
