/**
 * Structural equality as JSON sees it: both sides go through a JSON round trip (so -0 equals 0,
 * NaN and Infinity equal null, `undefined` properties vanish), then arrays compare item by item
 * and objects key by key, in any key order. A top-level `undefined` (no value) equals only itself.
 * A side that cannot be JSON (a BigInt, a cycle) equals nothing.
 *
 * @example
 * jsonEqual({ a: 1, b: [0] }, { b: [-0], a: 1 }); // true
 */
export function jsonEqual(actual: unknown, expected: unknown): boolean {
  const left = roundTrip(actual);
  const right = roundTrip(expected);
  if (left === UNREADABLE || right === UNREADABLE) return false;
  return sameJson(left, right);
}

const UNREADABLE = Symbol('unreadable');

function roundTrip(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return UNREADABLE;
  }
}

function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const keys = Object.keys(leftRecord);
  if (keys.length !== Object.keys(rightRecord).length) return false;
  return keys.every((key) => Object.hasOwn(rightRecord, key) && sameJson(leftRecord[key], rightRecord[key]));
}
