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

  /** Starts runs of distinct owners, numbered from `from` and each checked, until the bound refuses; returns how many got in. */
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

  it('with a delay target, adapts the bound at the first check after each new reading, by the rule, within [minWorking, maxWorking]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(
          fc.record({
            delayMs: fc.integer({ min: 0, max: 200 }),
            newWindow: fc.boolean(),
            checked: fc.boolean(),
            start: fc.nat(6),
            forced: fc.nat(2),
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
          const working = new Set<number>();
          let bound = maxWorking;
          let applied = -1; // the last window the model applied
          let peak = 0; // the most runs working at once since then
          let next = 0;
          /** The model of one check: the reading applies once, then the bound refuses at itself. */
          const check = () => {
            if (reading.window !== applied) {
              applied = reading.window;
              if (reading.delayMs > target) bound = Math.max(floor, Math.floor(Math.min(bound, peak) * 0.7));
              else if (reading.delayMs <= target / 2 && peak >= bound - 1)
                bound = Math.min(maxWorking, bound + Math.max(1, Math.floor(bound / 4)));
              peak = working.size;
            }
            return working.size < bound;
          };
          const started = (run: number) => {
            working.add(run);
            peak = Math.max(peak, working.size);
          };
          expect(admission.bound).toBe(maxWorking);
          for (const step of steps) {
            if (step.newWindow) reading = { window: reading.window + 1, delayMs: step.delayMs };
            // Reading the bound adapts nothing; a check does.
            expect(admission.bound).toBe(bound);
            if (step.checked) {
              const open = check();
              if (open) admission.check('probe');
              else expect(() => admission.check('probe')).toThrow(OverloadedError);
              expect(admission.bound).toBe(bound);
            }
            for (const run of [...working].slice(0, step.end)) {
              admission.leave(`r${run}`);
              working.delete(run);
            }
            for (let i = 0; i < step.start; i++, next++) {
              if (check()) {
                admission.admit(`r${next}`, `o${next}`);
                started(next);
              } else expect(() => admission.admit(`r${next}`, `o${next}`)).toThrow(OverloadedError);
            }
            // Work accepted already (a recovered run, a wake-up checked before) gets in past the bound.
            for (let i = 0; i < step.forced; i++, next++) {
              admission.admit(`r${next}`, `o${next}`, { force: true });
              started(next);
            }
            expect(admission.bound).toBe(bound);
            expect(bound).toBeGreaterThanOrEqual(floor);
            expect(bound).toBeLessThanOrEqual(maxWorking);
            expect(admission.size).toBe(working.size);
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
