import type { FleetSpecialist } from '../../../actors/tiers/fleet/offline-specialists.ts';
import type { SpecialistRequest, SpecialistResult } from '../../../actors/tiers/fleet/specialist-result.ts';

/** What a hooked attempt does: run the real specialist, fail at once, or hold until released or cancelled. */
export type AttemptBehaviour = 'real' | 'fail' | 'hold';

/**
 * A real specialist behind a gate, for the e2e tests that need a task mid-run (cancel) or
 * attempts that end in a chosen order (aggregation strategies). `behaviour` picks per request
 * (by `variant` for racing attempts); a held attempt waits until `release()` or its cancellation,
 * which it answers as the real specialists do: by stopping.
 */
export function gatedSpecialist(real: FleetSpecialist, behaviour: (request: SpecialistRequest) => AttemptBehaviour) {
  const waiting = new Set<() => void>();
  const started: SpecialistRequest[] = [];
  let onStart: (() => void) | undefined;
  const specialist: FleetSpecialist = {
    taskTypes: real.taskTypes,
    async run(request) {
      started.push(request);
      onStart?.();
      const mode = behaviour(request);
      if (mode === 'fail') return failed('This attempt was made to fail by the test.');
      if (mode === 'hold') {
        await new Promise<void>((resolve) => {
          waiting.add(resolve);
          request.signal?.addEventListener('abort', () => resolve(), { once: true });
        });
        if (request.signal?.aborted) return failed('Cancelled while held by the test.');
      }
      return real.run(request);
    },
  };
  return {
    specialist,
    started,
    /** Resolves once `count` requests have started. */
    startedCount(count: number) {
      return new Promise<void>((resolve) => {
        const check = () => {
          if (started.length >= count) resolve();
        };
        onStart = check;
        check();
      });
    },
    /** Lets every held attempt go on to the real specialist. */
    release() {
      for (const resolve of waiting) resolve();
      waiting.clear();
    },
  };
}

function failed(summary: string): SpecialistResult {
  return {
    status: 'failed',
    summary,
    confidence: 0,
    artifacts: [],
    log: [summary],
    error_type: 'test_hook',
    error_detail: summary,
    recoverable: false,
  };
}

/**
 * A solver that lies: it hands in `code` as a passing solution without running it (as a careless
 * model might). The fleet's verifiers run it in the sandbox; the tiers must report what they saw.
 */
export function lyingSolver(code: string): FleetSpecialist {
  return {
    taskTypes: ['execute_code'],
    async run(request) {
      const total = request.problem.test_cases.length;
      return {
        status: 'success',
        summary: 'Solved (claimed, never run).',
        confidence: 0.99,
        artifacts: [
          { artifact_type: 'code', content: code, metadata: { language: 'javascript', complexity: 'O(log n)' } },
          {
            artifact_type: 'test_result',
            content: `${total}/${total} tests passed`,
            metadata: { passed: total, failed: 0 },
          },
        ],
        log: ['claimed success without running the code'],
      };
    },
  };
}
