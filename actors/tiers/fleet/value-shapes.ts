/** Type predicates for test inputs and expected values (the recogniser's "test shapes"). */

export const isInt = (value: unknown): value is number => Number.isInteger(value);

export const isIntArray = (value: unknown): value is number[] => Array.isArray(value) && value.every(isInt);

export const isSortedAscending = (values: readonly number[]): boolean =>
  values.every((value, index) => index === 0 || (values[index - 1] as number) <= value);

export const isString = (value: unknown): value is string => typeof value === 'string';

export const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

export const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/** `[[start, end], ...]` with integer bounds, start <= end. */
export const isIntervalList = (value: unknown): value is [number, number][] =>
  Array.isArray(value) &&
  value.every((pair) => isIntArray(pair) && pair.length === 2 && (pair[0] as number) <= (pair[1] as number));

/** For messages: a value as JSON, cut to `max` characters. */
export function preview(value: unknown, max = 80): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
