import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OverloadedError, TooManyRunsError } from '../../../protocol/runtime/runtime-error.ts';
import { Admission, DEFAULT_ADMISSION } from '../../../server/run-host/admission.ts';
import type { LoopDelayReading } from '../../../server/run-host/loop-delay.ts';

const op = fc.oneof(
  fc.record({ kind: fc.constant('admit' as const), run: fc.nat(11), owner: fc.nat(3), force: fc.boolean() }),
  fc.record({ kind: fc.constant('leave' as const), run: fc.nat(11) }),
  fc.record({ kind: fc.constant('check' as const), owner: fc.nat(3) }),
);

describe('Admission (the run host bound on working runs)', () => {
  it('behaves as a map of working runs: refuses exactly beyond the limits, 429 before 503, never changes on refusal', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(op, { maxLength: 60 }),
        (maxWorking, maxPerOwner, ops) => {
          const admission = new Admission('test runs', {
            ...DEFAULT_ADMISSION,
            maxWorking,
            maxPerOwner,
            retryAfterSeconds: 2,
          });
          const model = new Map<number, number>(); // run -> owner
          const ownerCount = (owner: number) => [...model.values()].filter((o) => o === owner).length;
          const expected = (owner: number) =>
            ownerCount(owner) >= maxPerOwner ? 'too_many_runs' : model.size >= maxWorking ? 'overloaded' : 'ok';
          const outcome = (work: () => void) => {
            try {
              work();
              return 'ok';
            } catch (error) {
              if (error instanceof TooManyRunsError || error instanceof OverloadedError) {
                expect(error.retryAfterSeconds).toBe(2);
                return error.code;
              }
              throw error;
            }
          };
          for (const step of ops) {
            if (step.kind === 'check')
              expect(outcome(() => admission.check(`o${step.owner}`))).toBe(expected(step.owner));
            else if (step.kind === 'leave') {
              admission.leave(`r${step.run}`);
              model.delete(step.run);
            } else {
              const want = model.has(step.run) || step.force ? 'ok' : expected(step.owner);
              expect(outcome(() => admission.admit(`r${step.run}`, `o${step.owner}`, { force: step.force }))).toBe(
                want,
              );
              if (want === 'ok' && !model.has(step.run)) model.set(step.run, step.owner);
            }
            expect(admission.size).toBe(model.size);
            for (let run = 0; run < 12; run++) expect(admission.has(`r${run}`)).toBe(model.has(run));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  /** Starts `count` runs of distinct owners (each checked) until the bound refuses; returns how many got in. */
  function fill(admission: Admission, from: number): number {
    let admitted = 0;
    for (;;) {
      try {
        admission.admit(`r${from + admitted}`, `o${from + admitted}`);
        admitted += 1;
      } catch (error) {
        expect(error).toBeInstanceOf(OverloadedError);
        return admitted;
      }
    }
  }

  it('with a delay target, keeps the bound within [minWorking, maxWorking] and moves it only on a new reading, by the rule', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(
          fc.record({
            delayMs: fc.integer({ min: 0, max: 200 }),
            newWindow: fc.boolean(),
            start: fc.nat(6),
            end: fc.nat(6),
          }),
          { maxLength: 40 },
        ),
        (maxWorking, minWorking, steps) => {
          const target = 20;
          let reading: LoopDelayReading = { window: 0, delayMs: 0 };
          const admission = new Admission(
            'test runs',
            { ...DEFAULT_ADMISSION, maxWorking, maxPerOwner: 1_000, minWorking, loopDelayTargetMs: target },
            () => reading,
          );
          const floor = Math.min(minWorking, maxWorking);
          let bound = admission.bound;
          expect(bound).toBe(maxWorking);
          let inUse = false;
          let next = 0;
          for (const step of steps) {
            if (step.newWindow) reading = { window: reading.window + 1, delayMs: step.delayMs };
            const working = admission.size;
            let expected = bound;
            if (step.newWindow) {
              if (step.delayMs > target) expected = Math.max(floor, Math.floor(Math.min(bound, working) * 0.7));
              else if (step.delayMs <= target / 2 && inUse)
                expected = Math.min(maxWorking, bound + Math.max(1, Math.floor(bound / 4)));
              inUse = false;
            }
            expect(admission.bound).toBe(expected);
            bound = expected;
            expect(bound).toBeGreaterThanOrEqual(floor);
            expect(bound).toBeLessThanOrEqual(maxWorking);
            // Some runs end, some start: the bound refuses exactly at itself.
            for (let i = 0; i < step.end && admission.size > 0; i++) admission.leave(`r${next - 1 - i}`);
            for (let i = 0; i < step.start; i++) {
              const full = admission.size >= bound;
              if (full) {
                expect(() => admission.admit(`r${next}`, `o${next}`)).toThrow(OverloadedError);
                inUse = true;
              } else {
                admission.admit(`r${next}`, `o${next}`);
                // Within one of the bound counts as in use: the bound may grow before it refuses.
                if (admission.size >= bound - 1) inUse = true;
              }
              next += 1;
            }
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('under work that lags the loop in proportion to the runs working, settles where the delay is within the target', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 15, noNaN: true }),
        fc.integer({ min: 8, max: 64 }),
        fc.integer({ min: 5, max: 50 }),
        (msPerRun, maxWorking, target) => {
          let reading: LoopDelayReading = { window: 0, delayMs: 0 };
          const minWorking = 1;
          const admission = new Admission(
            'test runs',
            { ...DEFAULT_ADMISSION, maxWorking, maxPerOwner: 1_000, minWorking, loopDelayTargetMs: target },
            () => reading,
          );
          let started = 0;
          const delays: number[] = [];
          for (let window = 1; window <= 60; window++) {
            // Demand always exceeds the bound: every window fills it, and its runs lag the loop.
            started += fill(admission, started);
            const delayMs = admission.size * msPerRun;
            delays.push(delayMs);
            for (let run = started - admission.size; run < started; run++) admission.leave(`r${run}`);
            reading = { window, delayMs };
          }
          const settled = delays.slice(20);
          const best = Math.max(minWorking, Math.min(maxWorking, Math.floor(target / msPerRun)));
          for (const delay of settled) {
            // Never over the target once settled (unless one run alone is over it)...
            expect(delay).toBeLessThanOrEqual(Math.max(target, minWorking * msPerRun) + 1e-9);
            // ...and not idle either: at least half the runs the target allows work.
            expect(delay).toBeGreaterThanOrEqual(Math.min(best * msPerRun, target) / 2 - msPerRun - 1e-9);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
