import fc from 'fast-check';

const ODD_SEGMENTS = [
  '',
  ' ',
  '..',
  '.',
  '%',
  '%zz',
  '%2F',
  '%00',
  '%E0%A4%A',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '0',
  '-1',
  'a'.repeat(600),
  '%F0%9F%98%80',
  '..%2F..%2Fetc',
  'x.json',
  'x.svg',
];

/** A path parameter: an odd segment (raw, so bad percent-encodings reach the server), any text, or a known id. */
export function pathParams(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ODD_SEGMENTS) },
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }).map(encodeURIComponent) },
    ...(known.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...known).map(encodeURIComponent) }] : []),
  );
}

/** A query string: the route's own keys and others, with odd values. */
export function queryStrings(keys: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(fc.constantFrom(...keys, 'until', 'limit', 'x'), fc.string({ maxLength: 8 }));
  const value = fc.oneof(
    fc.constantFrom('settled', '', '0', '-1', '1e9', '10', 'true', '%', 'a'.repeat(300)),
    fc.string({ maxLength: 12 }),
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 3 })
    .map((pairs) =>
      pairs.length === 0
        ? ''
        : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v === '%' ? '%' : encodeURIComponent(v)}`).join('&')}`,
    );
}

/** How the request authenticates: the fuzzer's token mostly, else none or a broken one. */
export type AuthChoice = 'token' | 'none' | 'garbage' | 'basic' | 'empty_bearer';
export const authChoices: fc.Arbitrary<AuthChoice> = fc.oneof(
  { weight: 20, arbitrary: fc.constant<AuthChoice>('token') },
  { weight: 1, arbitrary: fc.constantFrom<AuthChoice>('none', 'garbage', 'basic', 'empty_bearer') },
);

/** Extra headers: content types a client may get wrong, odd session ids, accept headers. */
export const oddHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '',
    ),
    accept: fc.constantFrom('*/*', 'text/event-stream', 'application/xml'),
    'x-session-id': fc.string({ maxLength: 20 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  },
  { requiredKeys: ['content-type'] },
);
