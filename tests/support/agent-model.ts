import fc from 'fast-check';
import { inputHash } from '../../actors/runtime/input-hash.ts';
import type { AgentOutcome, AgentReport } from '../../protocol/runtime/agent-report.ts';

/** One step a property test drives the agent through. */
export type AgentCommand =
  | { kind: 'request'; input: unknown }
  | { kind: 'resolve' }
  | { kind: 'reject' }
  | { kind: 'invalid' }
  /** Settle a run the agent already abandoned (timed out or cancelled); it must change nothing. */
  | { kind: 'settleStale'; pick: number; reject: boolean }
  | { kind: 'tick'; mode: 'toDeadline' | 'justBefore' | 'free'; ms: number }
  | { kind: 'cancel'; target: 'current' | 'queued' | 'all' | 'unknown' | 'finished'; pick: number };

export const agentCommandArb: fc.Arbitrary<AgentCommand> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('request'), input: fc.jsonValue({ maxDepth: 2 }) }),
    weight: 4,
  },
  { arbitrary: fc.constant({ kind: 'resolve' as const }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'reject' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'invalid' as const }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('settleStale'),
      pick: fc.nat(),
      reject: fc.boolean(),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('tick'),
      mode: fc.constantFrom('toDeadline', 'justBefore', 'free'),
      ms: fc.integer({ min: 1, max: 10_000 }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('cancel'),
      target: fc.constantFrom('current', 'queued', 'all', 'unknown', 'finished'),
      pick: fc.nat(),
    }),
    weight: 2,
  },
);

interface ModelRequest {
  requestId: string;
  input: unknown;
}

/**
 * The reference behaviour of the agent, written as plainly as possible: what it should report,
 * given the same commands, and which run it should be waiting on.
 */
export class AgentModel {
  now = 0;
  queue: ModelRequest[] = [];
  current: { request: ModelRequest; attempts: number; startedAt: number } | null = null;
  readonly reports: AgentReport[] = [];
  readonly finished: string[] = [];

  constructor(
    readonly name: string,
    readonly timeoutMs: number,
    readonly maxAttempts: number,
  ) {}

  /** Milliseconds until the running attempt times out, if one runs. */
  remaining(): number | undefined {
    return this.current ? this.current.startedAt + this.timeoutMs - this.now : undefined;
  }

  request(request: ModelRequest): void {
    this.queue.push(request);
    if (!this.current) this.next();
  }

  complete(output: unknown): void {
    this.finish({ status: 'completed', output });
  }

  invalid(issues: { path: string; message: string }[]): void {
    this.finish({ status: 'failed', failure: { kind: 'validation', issues } });
  }

  error(message: string): void {
    if (this.retry()) return;
    this.finish({ status: 'failed', failure: { kind: 'error', message } });
  }

  tick(ms: number): void {
    this.now += ms;
    const current = this.current;
    if (!current || this.now - current.startedAt < this.timeoutMs) return;
    if (this.retry()) return;
    this.finish({
      status: 'failed',
      failure: {
        kind: 'timeout',
        timeout_duration_ms: this.timeoutMs,
        input_hash: inputHash(current.request.input),
      },
    });
  }

  cancel(requestId: string | undefined): void {
    const named = (request: ModelRequest) => requestId === undefined || request.requestId === requestId;
    const current = this.current !== null && named(this.current.request) ? this.current : null;
    if (current) this.record(current.request.requestId, current.attempts, { status: 'cancelled' });
    for (const request of this.queue.filter(named)) {
      this.record(request.requestId, 0, { status: 'cancelled' });
    }
    this.queue = this.queue.filter((request) => !named(request));
    if (current) this.next();
  }

  private retry(): boolean {
    if (!this.current || this.current.attempts >= this.maxAttempts) return false;
    this.current.attempts += 1;
    this.current.startedAt = this.now;
    return true;
  }

  private finish(outcome: AgentOutcome): void {
    if (!this.current) throw new Error('model: nothing to finish');
    this.record(this.current.request.requestId, this.current.attempts, outcome);
    this.next();
  }

  private next(): void {
    const request = this.queue.shift();
    this.current = request ? { request, attempts: 1, startedAt: this.now } : null;
  }

  private record(requestId: string, attempts: number, outcome: AgentOutcome): void {
    this.finished.push(requestId);
    this.reports.push({ type: 'agent.report', agent: this.name, requestId, attempts, outcome });
  }
}
