import type { GraphState, GraphTransition } from './machine-graph.ts';

/*
 * Graphviz HTML-like labels for states and transition groups. Every transition is a table cell
 * with its id (and a tooltip), so the SVG has one element per transition even where several
 * share an arrow; Graphviz lays the labels out itself, so they never overlap.
 */

const MUTED = '#4b5563';
const WRAP = 44;

/** Escapes text for an HTML-like label or one of its attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Breaks text into lines of at most `width` characters, at spaces (a longer word keeps its line). */
function wrapText(text: string, width = WRAP): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Left-aligned lines of an HTML-like label. */
function lines(parts: string[]): string {
  return parts.map((part) => `${escapeHtml(part)}<BR ALIGN="LEFT"/>`).join('');
}

/** A guard in brackets, broken before `&&`/`||` when it is long. */
function guardLines(guard: string): string[] {
  const text = `[${guard}]`;
  if (text.length <= WRAP) return [text];
  return text.split(/ (?=&&|\|\|)/).map((part, i) => (i === 0 ? part : `  ${part}`));
}

/** The tooltip of a transition: everything the code says about it. */
function transitionTitle(t: GraphTransition, names: ReadonlyMap<string, string>): string {
  const to = t.targets.length ? t.targets.map((id) => names.get(id) ?? id).join(', ') : '(stays, actions only)';
  const parts = [
    `${names.get(t.source) ?? t.source} → ${to}`,
    `on ${t.trigger}${t.order > 0 ? ` (alternative ${t.order + 1})` : ''}`,
  ];
  if (t.guard) parts.push(`if ${t.guard}`);
  if (t.actions.length) parts.push(`do ${t.actions.join(', ')}`);
  if (t.reenter) parts.push('re-enters its target');
  if (t.description) parts.push(t.description);
  return parts.join('\n');
}

function cell(id: string, title: string, body: string, pointSize: number): string {
  return `<TR><TD ID="${escapeHtml(id)}" TITLE="${escapeHtml(title)}" ALIGN="LEFT" BALIGN="LEFT"><FONT POINT-SIZE="${pointSize}">${body}</FONT></TD></TR>`;
}

/**
 * The rows of a set of transitions, grouped by trigger: a lone transition reads
 * `trigger [guard]`; alternatives get the trigger once above their guards.
 */
function transitionRows(
  transitions: GraphTransition[],
  names: ReadonlyMap<string, string>,
  withActions: boolean,
  pointSize: number,
): string {
  const byTrigger = new Map<string, GraphTransition[]>();
  for (const t of transitions) byTrigger.set(t.trigger, [...(byTrigger.get(t.trigger) ?? []), t]);
  const rows: string[] = [];
  for (const [trigger, group] of byTrigger) {
    const alone = group.length === 1;
    if (!alone)
      rows.push(`<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="${pointSize}"><B>${escapeHtml(trigger)}</B></FONT></TD></TR>`);
    for (const t of group) {
      // An unguarded alternative after others is the fallback; say so, as its arrow may be drawn apart.
      const guard = t.guard ? guardLines(t.guard) : t.order > 0 || !alone ? ['[otherwise]'] : [];
      const text = alone
        ? guard.length === 1 && trigger.length + guard[0]!.length < WRAP
          ? [`${trigger} ${guard[0]}`]
          : [trigger, ...guard]
        : guard.map((g) => `  ${g}`);
      if (withActions && t.actions.length) text.push(`${alone ? '' : '    '}/ ${t.actions.join(', ')}`);
      rows.push(cell(t.id, transitionTitle(t, names), lines(text), pointSize));
    }
  }
  return rows.join('');
}

/** The label of a state: its name, description, invoked actors, and the transitions that stay in it. */
export function stateLabel(state: GraphState, internal: GraphTransition[], names: ReadonlyMap<string, string>): string {
  const rows = [
    `<TR><TD ALIGN="CENTER"><B>${escapeHtml(state.parent === null ? `machine ${state.key}` : state.key)}</B></TD></TR>`,
  ];
  if (state.type === 'final')
    rows.push(`<TR><TD ALIGN="CENTER"><FONT POINT-SIZE="9" COLOR="${MUTED}">final</FONT></TD></TR>`);
  if (state.description) {
    rows.push(
      `<TR><TD ALIGN="LEFT" BALIGN="LEFT"><FONT POINT-SIZE="9" COLOR="${MUTED}"><I>${lines(wrapText(state.description))}</I></FONT></TD></TR>`,
    );
  }
  const small = (text: string) =>
    rows.push(`<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="9">${escapeHtml(text)}</FONT></TD></TR>`);
  if (state.entry.length) small(`entry / ${state.entry.join(', ')}`);
  if (state.exit.length) small(`exit / ${state.exit.join(', ')}`);
  for (const invoke of state.invoke) small(`invoke ${invoke.src}`);
  if (internal.length) {
    rows.push('<HR/>');
    rows.push(transitionRows(internal, names, true, 9));
  }
  return `<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2">${rows.join('')}</TABLE>>`;
}

/** The label of the arrow between two states: every transition it stands for. */
export function edgeLabel(transitions: GraphTransition[], names: ReadonlyMap<string, string>): string {
  return `<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">${transitionRows(transitions, names, false, 10)}</TABLE>>`;
}
