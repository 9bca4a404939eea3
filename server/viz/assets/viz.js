// The statechart page's client: zoom, details on selection, and the live run over SSE.
// Plain browser JavaScript, served by the app itself (no build step, no CDN).

const model = JSON.parse(document.getElementById('viz-model').textContent);
const diagram = document.getElementById('diagram');
const svg = diagram.querySelector('svg');
const machine = document.body.dataset.machine;
const states = new Map(model.states.map((s) => [s.id, s]));
const transitions = new Map(model.transitions.map((t) => [t.id, t]));
const short = (id) => (id === model.root ? model.root : id.slice(model.root.length + 1));
const byId = (id) => document.getElementById(id);

// ---- zoom -------------------------------------------------------------------------------
const PT = 4 / 3;
const box = svg.viewBox.baseVal;
const natural = { width: box.width * PT, height: box.height * PT };
let scale = 1;

function setScale(next) {
  scale = Math.min(3, Math.max(0.2, next));
  svg.setAttribute('width', `${Math.round(natural.width * scale)}px`);
  svg.setAttribute('height', `${Math.round(natural.height * scale)}px`);
  document.body.dataset.zoom = scale.toFixed(2);
}
const fitScale = () => Math.min(1, (diagram.clientWidth - 8) / natural.width);

document.querySelector('.toolbar').addEventListener('click', (event) => {
  const button = event.target.closest('button[data-zoom]');
  if (!button) return;
  const action = button.dataset.zoom;
  if (action === 'in') setScale(scale * 1.25);
  if (action === 'out') setScale(scale / 1.25);
  if (action === 'fit') setScale(fitScale());
  if (action === 'reset') setScale(1);
});
diagram.addEventListener(
  'wheel',
  (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();
    setScale(scale * (event.deltaY < 0 ? 1.1 : 1 / 1.1));
  },
  { passive: false },
);
// Readable text first: fit the width, but never below 60 % (scroll instead).
setScale(Math.max(fitScale(), 0.6));

// ---- details ----------------------------------------------------------------------------
const detail = document.getElementById('detail-body');

function dl(rows) {
  const list = document.createElement('dl');
  list.className = 'detail';
  for (const [term, value] of rows) {
    if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = Array.isArray(value) ? value.join(', ') : String(value);
    list.append(dt, dd);
  }
  return list;
}

function describeTransition(t) {
  return `${short(t.source)} → ${t.targets.length ? t.targets.map(short).join(', ') : '(stays)'} · ${t.trigger}${t.guard ? ` [${t.guard}]` : ''}`;
}

function showState(s) {
  const outgoing = model.transitions.filter((t) => t.source === s.id);
  detail.replaceChildren(
    dl([
      ['State', short(s.id)],
      ['Id', s.id],
      ['Type', s.history ? `${s.type} (${s.history})` : s.type],
      ['Description', s.description],
      ['Entry', s.entry],
      ['Exit', s.exit],
      ['Invokes', s.invoke.map((i) => i.src)],
      ['Transitions', outgoing.map(describeTransition)],
    ]),
  );
}

function showTransitions(list) {
  detail.replaceChildren(
    ...list.map((t) =>
      dl([
        ['Transition', describeTransition(t)],
        ['Id', t.id],
        ['Trigger', t.event ? `${t.trigger} (${t.event})` : t.trigger],
        ['Delay', t.delay],
        ['Guard', t.guard],
        ['Actions', t.actions],
        ['Order', t.order > 0 ? `alternative ${t.order + 1} for this trigger` : null],
        ['Re-enters', t.reenter ? 'yes' : null],
        ['Description', t.description],
      ]),
    ),
  );
}

function clearMarks(...classes) {
  for (const name of classes) for (const el of svg.querySelectorAll(`.${name}`)) el.classList.remove(name);
}

diagram.addEventListener('click', (event) => {
  clearMarks('selected', 'selected-row');
  for (let el = event.target; el && el !== svg; el = el.parentElement) {
    if (!el.id) continue;
    if (transitions.has(el.id)) {
      el.classList.add('selected-row');
      return showTransitions([transitions.get(el.id)]);
    }
    if (el.classList.contains('transition') || el.classList.contains('segment')) {
      const group = el.id.replace(/:(tail|head)$/, '');
      byId(group)?.classList.add('selected');
      const [source, target] = group.split('->');
      return showTransitions(model.transitions.filter((t) => t.source === source && t.targets.includes(target)));
    }
    if (states.has(el.id)) {
      el.classList.add('selected');
      return showState(states.get(el.id));
    }
  }
});

// ---- live run ---------------------------------------------------------------------------
const run = document.body.dataset.run;
const statusLine = document.getElementById('live-status');
const current = document.getElementById('live-state');
const recent = document.getElementById('recent');

function status(text, kind = '') {
  statusLine.textContent = text;
  statusLine.className = `status ${kind}`;
}

/** Scrolls the diagram (only the diagram) so that `el` is in view. */
function reveal(el) {
  const area = diagram.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.left >= area.left && r.right <= area.right && r.top >= area.top && r.bottom <= area.bottom) return;
  diagram.scrollBy({
    left: r.left + r.width / 2 - (area.left + area.width / 2),
    top: r.top + r.height / 2 - (area.top + area.height / 2),
  });
}

function setActive(active) {
  clearMarks('active');
  const set = new Set(active);
  for (const id of active) if (id !== model.root) byId(id)?.classList.add('active');
  const leaves = active.filter((id) => !model.states.some((s) => s.parent === id && set.has(s.id)));
  current.textContent = leaves.map(short).join(', ') || '–';
  document.body.dataset.active = leaves.join(' ');
  const leaf = leaves[0] && byId(leaves[0]);
  if (leaf) reveal(leaf);
}

function markTaken(update) {
  clearMarks('taken', 'taken-row');
  for (const id of update.transitions) byId(id)?.classList.add('taken-row');
  for (const edge of update.edges)
    for (const id of [edge, `${edge}:tail`, `${edge}:head`]) byId(id)?.classList.add('taken');
}

function remember(update) {
  for (const id of update.transitions) {
    const t = transitions.get(id);
    if (!t) continue;
    const li = document.createElement('li');
    li.dataset.transition = id;
    const time = document.createElement('time');
    time.dateTime = update.at;
    time.textContent = new Date(update.at).toLocaleTimeString();
    li.append(time, describeTransition(t));
    recent.prepend(li);
  }
  while (recent.children.length > 20) recent.lastElementChild.remove();
}

if (run && document.body.dataset.noLive) {
  status(`Runs of ${machine} cannot be watched live.`, 'error');
} else if (run) {
  const params = new URLSearchParams(location.search);
  const token = params.get('token');
  if (token) {
    // The server kept the token in an HttpOnly cookie; it need not stay in the address bar.
    params.delete('token');
    history.replaceState(null, '', `${location.pathname}?${params}`);
  }
  const url = `/viz/${encodeURIComponent(machine)}/runs/${encodeURIComponent(run)}/events${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  const events = new EventSource(url);
  events.addEventListener('snapshot', (event) => {
    setActive(JSON.parse(event.data).active);
    status('Watching: the highlighted state is where the run is now.', 'ok');
  });
  events.addEventListener('history', (event) => {
    const { transitions: earlier } = JSON.parse(event.data);
    for (const update of earlier) remember(update);
    if (earlier.length) markTaken(earlier[earlier.length - 1]);
  });
  events.addEventListener('transition', (event) => {
    const update = JSON.parse(event.data);
    if (update.active.length) setActive(update.active);
    markTaken(update);
    remember(update);
  });
  events.addEventListener('error', () => {
    if (events.readyState === EventSource.CLOSED) {
      status(
        `Run ${run} cannot be watched: it does not exist, or it is not yours. Open this page with ?token=<your JWT>.`,
        'error',
      );
    } else status('Connection lost; reconnecting…');
  });
}

// ---- the viewer's runs ------------------------------------------------------------------
// `GET /viz/:machine/runs` lists the viewer's runs under way (the token is in the cookie the
// page set), grouped by what they belong to; each links to its live view. Polled while open.
const runList = document.getElementById('run-list');
const runsStatus = document.getElementById('runs-status');

function runItem(listed) {
  const li = document.createElement('li');
  li.dataset.run = listed.id;
  li.dataset.state = listed.state;
  if (listed.id === run) li.classList.add('watched');
  const link = document.createElement('a');
  link.href = `?run=${encodeURIComponent(listed.id)}`;
  link.textContent = listed.label;
  const state = document.createElement('code');
  state.className = 'run-state';
  state.textContent = listed.state;
  li.append(link, ' ', state);
  return li;
}

function showRuns(runs) {
  const groups = new Map();
  for (const listed of runs) groups.set(listed.group ?? '', [...(groups.get(listed.group ?? '') ?? []), listed]);
  const parts = [];
  for (const [group, members] of groups) {
    if (group) {
      const title = document.createElement('h3');
      title.append('Task ', Object.assign(document.createElement('code'), { textContent: group }));
      parts.push(title);
    }
    const list = document.createElement('ul');
    list.className = 'run-list';
    list.append(...members.map(runItem));
    parts.push(list);
  }
  runList.replaceChildren(...parts);
  runsStatus.textContent = runs.length ? '' : 'Nothing of yours is under way.';
}

async function loadRuns() {
  const response = await fetch(`/viz/${encodeURIComponent(machine)}/runs`, { credentials: 'same-origin' });
  if (response.status === 401) {
    runsStatus.textContent = 'Open this page with ?token=<your JWT> to list your runs.';
    return false;
  }
  if (!response.ok) throw new Error(`GET runs: ${response.status}`);
  showRuns((await response.json()).runs);
  return true;
}

if (runList) {
  const params = new URLSearchParams(location.search);
  if (params.has('token')) {
    params.delete('token');
    const query = params.toString();
    history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}`);
  }
  const poll = () =>
    loadRuns()
      .then((signedIn) => signedIn && setTimeout(poll, 2000))
      .catch(() => {
        runsStatus.textContent = 'Could not list your runs; retrying…';
        setTimeout(poll, 5000);
      });
  poll();
}
