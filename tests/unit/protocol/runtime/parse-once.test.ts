import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { safeParseOnce } from '../../../../protocol/runtime/parse-once.ts';

const Schema = z.strictObject({ id: z.string(), items: z.array(z.strictObject({ n: z.number() })) });

describe('safeParseOnce', () => {
  it('parses a value once: its output is frozen all the way down and passes again without parsing', () => {
    const parse = vi.spyOn(Schema, 'safeParse');
    const first = safeParseOnce(Schema, { id: 'a', items: [{ n: 1 }] });
    expect(first.success).toBe(true);
    const data = first.data!;
    expect(Object.isFrozen(data) && Object.isFrozen(data.items) && Object.isFrozen(data.items[0])).toBe(true);
    expect(() => {
      (data.items[0] as { n: number }).n = 2;
    }).toThrow(TypeError);
    const again = safeParseOnce(Schema, data);
    expect(again).toEqual({ success: true, data });
    expect(again.data).toBe(data);
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockRestore();
  });

  it('freezes what a frozen node holds, so an unknown field passed through as is cannot change either', () => {
    const Loose = z.strictObject({ id: z.string(), extra: z.unknown() });
    const inner = { n: 1 };
    const extra = Object.freeze({ inner });
    const data = safeParseOnce(Loose, { id: 'a', extra }).data!;
    expect(Object.isFrozen((data.extra as { inner: object }).inner)).toBe(true);
  });

  it('parses an equal object that did not come out of it, and never freezes the caller input', () => {
    const input = { id: 'a', items: [{ n: 1 }] };
    safeParseOnce(Schema, input);
    expect(Object.isFrozen(input)).toBe(false);
    const parse = vi.spyOn(Schema, 'safeParse');
    expect(safeParseOnce(Schema, { id: 'a', items: [{ n: 1 }] }).success).toBe(true);
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockRestore();
  });

  it('remembers per schema: a value accepted by one schema is checked by another', () => {
    const accepted = safeParseOnce(Schema, { id: 'a', items: [] }).data!;
    const Stricter = Schema.extend({ id: z.literal('b') });
    const result = safeParseOnce(Stricter, accepted);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(['id']);
  });

  it('with remember: false, takes a remembered value as it is but neither freezes nor remembers a new one', () => {
    const remembered = safeParseOnce(Schema, { id: 'a', items: [] }).data!;
    expect(safeParseOnce(Schema, remembered, { remember: false }).data).toBe(remembered);
    const fresh = safeParseOnce(Schema, { id: 'b', items: [{ n: 2 }] }, { remember: false }).data!;
    expect(Object.isFrozen(fresh)).toBe(false);
    const parse = vi.spyOn(Schema, 'safeParse');
    safeParseOnce(Schema, fresh);
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockRestore();
  });

  it('reports failures as safeParse does and remembers nothing for them', () => {
    const bad = { id: 1, items: [] };
    const first = safeParseOnce(Schema, bad);
    expect(first.success).toBe(false);
    expect(safeParseOnce(Schema, bad).success).toBe(false);
    expect(Object.isFrozen(bad)).toBe(false);
  });
});
