import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePath, pathSegments } from '../../../../protocol/runtime/envelope-path.ts';

describe('compilePath', () => {
  it('reads fields one, two, three and more steps deep', () => {
    const envelope = { id: 'm1', header: { message_id: 'h1', a: { b: { c: 'deep' } } }, x: { y: { z: 3 } } };
    expect(compilePath('id')(envelope)).toBe('m1');
    expect(compilePath('header.message_id')(envelope)).toBe('h1');
    expect(compilePath('x.y.z')(envelope)).toBe(3);
    expect(compilePath('header.a.b.c')(envelope)).toBe('deep');
  });

  it('reads an array element written [n] or .n', () => {
    const envelope = { context: { related_messages: ['first', 'second'] } };
    expect(compilePath('context.related_messages[0]')(envelope)).toBe('first');
    expect(compilePath('context.related_messages.1')(envelope)).toBe('second');
    expect(compilePath('context.related_messages[2]')(envelope)).toBeUndefined();
  });

  it('answers undefined, never throws, when a step is missing or not an object', () => {
    for (const path of ['a', 'a.b', 'a.b.c', 'a.b.c.d']) {
      const read = compilePath(path);
      for (const value of [
        null,
        undefined,
        42,
        'text',
        {},
        { a: null },
        { a: 7 },
        { a: { b: 'x' } },
        { a: { b: { c: null } } },
      ])
        expect(() => read(value)).not.toThrow();
      if (path !== 'a') expect(read({ a: null })).toBeUndefined();
      if (path !== 'a' && path !== 'a.b') expect(read({ a: { b: null } })).toBeUndefined();
    }
  });

  it('reads what a plain walk of the path reads (property)', () => {
    const key = fc.constantFrom('a', 'b', 'c');
    const tree: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, 1, 'x', true),
        fc.dictionary(key, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, fc.array(key, { minLength: 1, maxLength: 5 }), (value, segments) => {
        let expected: unknown = value;
        for (const segment of segments)
          expected = typeof expected === 'object' && expected !== null ? (expected as any)[segment] : undefined;
        expect(compilePath(segments.join('.'))(value)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a path that is not one, naming it', () => {
    for (const bad of ['', 'a..b', '.a', 'a.', 'a b', 'a[x]'])
      expect(() => pathSegments(bad)).toThrow(`"${bad}" is not an envelope path`);
  });
});
