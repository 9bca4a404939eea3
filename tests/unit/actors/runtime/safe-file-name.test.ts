import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFileName, encodeFileName } from '../../../../actors/runtime/safe-file-name.ts';

describe('encodeFileName', () => {
  it('turns any key into a safe name that decodes back to it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), (key) => {
        fc.pre(Buffer.byteLength(key) <= 80); // 3 characters a byte at most, under the cap
        const name = encodeFileName(key);
        expect(name).toMatch(/^(?:[a-z0-9_-]|%[0-9a-f]{2})+$/);
        expect(decodeFileName(name)).toBe(key);
      }),
      { numRuns: 500 },
    );
  });

  it('gives keys that differ only in case different names, even ignoring case', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), (a) => {
        const b = a.toUpperCase() === a ? a.toLowerCase() : a.toUpperCase();
        fc.pre(a !== b);
        expect(encodeFileName(a).toLowerCase()).not.toBe(encodeFileName(b).toLowerCase());
      }),
      { numRuns: 500 },
    );
    expect(encodeFileName('User')).toBe('%55ser');
  });

  it('keeps plain ids readable and escapes path characters', () => {
    expect(encodeFileName('3f2c9a_v2')).toBe('3f2c9a_v2');
    expect(encodeFileName('user/session')).toBe('user%2fsession');
    expect(encodeFileName('..')).toBe('%2e%2e');
  });

  it('refuses an empty key and one too long for a file name', () => {
    expect(() => encodeFileName('')).toThrow(/empty/);
    expect(() => encodeFileName('é'.repeat(50))).toThrow(/too long/);
  });
});

describe('decodeFileName', () => {
  it('rejects names it would not produce', () => {
    expect(decodeFileName('Upper')).toBeUndefined();
    expect(decodeFileName('%61')).toBeUndefined(); // 'a' spelled the long way
    expect(decodeFileName('%ff')).toBeUndefined(); // not UTF-8
    expect(decodeFileName('a.b')).toBeUndefined();
    expect(decodeFileName('')).toBeUndefined();
  });
});
