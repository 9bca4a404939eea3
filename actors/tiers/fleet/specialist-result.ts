import type { Problem } from '../../../protocol/tiers/problem.ts';

/**
 * What every fleet specialist takes and returns (tiers-design "Fleet specialists"). A specialist is
 * a pure-ish async function over a request that uses the sandbox; the core wraps its result into
 * an OutcomePayload (inline vs `content_ref`, Beads writes, envelope).
 */

export type { Problem, TestCase } from '../../../protocol/tiers/problem.ts';

/** Raw content of an artifact; the core decides inline (< 1 KB) or Beads (`content_ref`). */
export interface SpecialistArtifact {
  artifact_type: string;
  content: string;
  metadata: Record<string, unknown>;
}

export interface SpecialistResult {
  status: 'success' | 'partial' | 'failed' | 'needs_clarification';
  summary: string;
  /** 0..1, derived from evidence (tests passed, properties held, fit of the timings). */
  confidence: number;
  artifacts: SpecialistArtifact[];
  /** What it did, for `execution/logs/{id}`. */
  log: string[];
  error_type?: string;
  error_detail?: string;
  recoverable?: boolean;
}

export interface SpecialistRequest {
  problem: Problem;
  /** 'execute_code' | 'design_tests' | 'review_complexity' */
  task_type: string;
  objective: string;
  constraints: string[];
  /** Racing attempts: which candidate order to prefer (0, 1, ...). */
  variant?: number;
  /** For test-designer / reviewer: the solution under test. */
  code?: string;
  /** For reviewer, e.g. "O(log n)". */
  claimed_complexity?: string;
  /** Cancellation: stop promptly, return partial results. */
  signal?: AbortSignal;
}

export type Specialist = (request: SpecialistRequest) => Promise<SpecialistResult>;

/** `error_type` of a result cut short by the request's `signal` (the core reports `cancelled`). */
export const CANCELLED_ERROR_TYPE = 'cancelled';
