import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OverloadedError, TooManyRunsError } from '../../../protocol/runtime/runtime-error.ts';
import { Admission } from '../../../server/run-host/admission.ts';

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
          const admission = new Admission('test runs', { maxWorking, maxPerOwner, retryAfterSeconds: 2 });
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
});
