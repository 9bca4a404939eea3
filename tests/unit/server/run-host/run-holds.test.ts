import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunHolds } from '../../../../server/run-host/run-holds.ts';

/*
 * The holds of runs: a run is held while any hold of it is not let go; a pin's release lets go
 * of its own hold once, however often a caller calls it (an error path and a finally both may),
 * and not at all once the run was forgotten (released), whoever holds the partition since.
 */
describe('RunHolds', () => {
  it('holds a run exactly while some hold is not let go, each pin let go once, none after a forget', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('pin' as const), run: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant('release' as const), pick: fc.nat(), times: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('forget' as const), run: fc.integer({ min: 0, max: 2 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const holds = new RunHolds();
        const pins: { run: string; release: () => void; stale: boolean }[] = [];
        const active = new Map<string, number>();
        const freed: string[] = [];
        let letGoCalls = 0;
        const letGo = (partition: string) => {
          letGoCalls++;
          if (holds.unhold(partition)) freed.push(partition);
        };
        let released = 0;
        for (const s of steps) {
          if (s.kind === 'pin') {
            const run = `run-${s.run}`;
            pins.push({ run, release: holds.holdOnce(run, letGo), stale: false });
            active.set(run, (active.get(run) ?? 0) + 1);
            continue;
          }
          if (s.kind === 'forget') {
            const run = `run-${s.run}`;
            holds.forget(run);
            active.delete(run);
            for (const pin of pins) if (pin.run === run) pin.stale = true;
            continue;
          }
          if (pins.length === 0) continue;
          const [pin] = pins.splice(s.pick % pins.length, 1);
          const freedBefore = freed.length;
          for (let i = 0; i < s.times; i++) pin!.release();
          // A pin taken before its run was forgotten lets go of nothing: the holds taken since stay.
          if (pin!.stale) {
            expect(freed.length).toBe(freedBefore);
            continue;
          }
          released++;
          const left = active.get(pin!.run)! - 1;
          if (left === 0) active.delete(pin!.run);
          else active.set(pin!.run, left);
          // Freed (nobody holds it) exactly when this was its last hold.
          expect(freed.slice(freedBefore)).toEqual(left === 0 ? [pin!.run] : []);
        }
        expect(letGoCalls).toBe(released);
        expect(holds.size).toBe(active.size);
        for (const run of ['run-0', 'run-1', 'run-2']) expect(holds.has(run)).toBe(active.has(run));
      }),
      { numRuns: 300 },
    );
  });
});
