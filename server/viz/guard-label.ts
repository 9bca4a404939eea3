/*
 * How guards and actions read in the diagram: by the names the machine's setup() gives them,
 * with their static params, and XState's higher-order guards (and/or/not/stateIn) spelled out.
 */

type HigherOrder = ((...args: never[]) => unknown) & { guards?: unknown[]; stateValue?: unknown; type?: unknown };

function paramText(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null)
    return String(value);
  if (Array.isArray(value)) return `[${value.map(paramText).join(', ')}]`;
  if (typeof value === 'function') return '…';
  if (typeof value === 'object')
    return `{${Object.entries(value as object)
      .map(([k, v]) => `${k}: ${paramText(v)}`)
      .join(', ')}}`;
  return String(value);
}

/** `name`, or `name(v1, v2)` for static params, or `name(…)` for params computed from the event. */
function named(type: string, params: unknown): string {
  if (params === undefined) return type;
  if (typeof params === 'function') return `${type}(…)`;
  if (params !== null && typeof params === 'object' && !Array.isArray(params)) {
    const values = Object.values(params as object);
    return values.length === 0 ? type : `${type}(${values.map(paramText).join(', ')})`;
  }
  return `${type}(${paramText(params)})`;
}

/**
 * The text of a guard as the machine names it.
 *
 * @example
 * guardLabel(and([{ type: 'reportIs', params: { agent: 'CHEF', kind: 'invalid' } }, 'canReprocess']))
 * // 'reportIs(CHEF, invalid) && canReprocess'
 */
export function guardLabel(guard: unknown, nested = false): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const fn = guard as HigherOrder;
    if (fn.stateValue !== undefined) return `in(${paramText(fn.stateValue)})`;
    if (Array.isArray(fn.guards)) {
      const parts = fn.guards.map((inner) => guardLabel(inner, true));
      if (fn.name === 'not') return `!${parts[0]}`;
      const joined = parts.join(fn.name === 'or' ? ' || ' : ' && ');
      return nested ? `(${joined})` : joined;
    }
    return fn.name ? `${fn.name} (inline)` : 'inline guard';
  }
  if (guard !== null && typeof guard === 'object' && 'type' in guard) {
    return named(String((guard as { type: unknown }).type), (guard as { params?: unknown }).params);
  }
  return String(guard);
}

/** The name of an action: its setup() name, or the built-in it is (`xstate.raise`, ...). */
export function actionLabel(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'function') {
    const fn = action as HigherOrder;
    return typeof fn.type === 'string' ? fn.type : fn.name || 'inline';
  }
  if (action !== null && typeof action === 'object' && 'type' in action) {
    return named(String((action as { type: unknown }).type), (action as { params?: unknown }).params);
  }
  return String(action);
}
