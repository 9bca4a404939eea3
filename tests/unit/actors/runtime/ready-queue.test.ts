import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReadyQueue } from '../../../../actors/runtime/ready-queue.ts';

describe('ReadyQueue', () => {
  it('behaves as a list sorted by priority then arrival, under any pushes, shifts and deletes', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), id: fc.nat(15), priority: fc.nat(4) }),
      fc.record({ kind: fc.constant('shift' as const) }),
      fc.record({ kind: fc.constant('delete' as const), id: fc.nat(15) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const queue = new ReadyQueue();
        let model: { id: string; priority: number; arrival: number }[] = [];
        let arrival = 0;
        for (const step of ops) {
          if (step.kind === 'push') {
            const id = `t${step.id}`;
            if (model.some((x) => x.id === id)) {
              expect(() => queue.push(id, step.priority)).toThrow(/already ready/);
              continue;
            }
            queue.push(id, step.priority);
            model.push({ id, priority: step.priority, arrival: arrival++ });
          } else if (step.kind === 'delete') {
            const id = `t${step.id}`;
            expect(queue.delete(id)).toBe(model.some((x) => x.id === id));
            model = model.filter((x) => x.id !== id);
          } else {
            model.sort((a, b) => a.priority - b.priority || a.arrival - b.arrival);
            expect(queue.shift()).toBe(model.shift()?.id);
          }
          expect(queue.size).toBe(model.length);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('drops deleted entries once they outnumber live ones, keeping the order of the rest', () => {
    const line = new ReadyQueue();
    for (let i = 0; i < 1_000; i++) line.push(`t${i}`, Math.floor(i / 100) % 5);
    for (let i = 0; i < 1_000; i++) if (i % 100 !== 7) line.delete(`t${i}`);
    expect(line.size).toBe(10);
    expect(line.held).toBeLessThanOrEqual(2 * 10 + 33);
    for (let round = 0; round < 50; round++) {
      line.push('x', 0);
      line.delete('x');
    }
    expect(line.held).toBeLessThanOrEqual(2 * 10 + 33);
    const order = Array.from({ length: 10 }, () => line.shift());
    expect(order).toEqual([7, 507, 107, 607, 207, 707, 307, 807, 407, 907].map((i) => `t${i}`));
    expect(line.shift()).toBeUndefined();
  });

  it('refuses a priority off the scale', () => {
    expect(() => new ReadyQueue().push('a', 5)).toThrow(/priority must be an integer from 0 to 4/);
  });
});
