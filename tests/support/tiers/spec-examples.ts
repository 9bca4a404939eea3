/**
 * Spec 002's own JSON examples, copied verbatim from its text (`002_41aa6f9ab341b431.txt`): the
 * envelopes msg-001, msg-002, msg-cancel-001, msg-003 and msg-agg-001, and the Clarification
 * Protocol's payload.
 */

export const MSG_001 = {
  version: '1.0.0',
  id: 'msg-001',
  timestamp: '2025-01-15T10:30:00Z',
  source_tier: 'ABSTRACT_ARCHITECT',
  target_tier: 'ROUTING_DISPATCHER',
  correlation_id: null,
  payload: {
    task_type: 'decompose_and_solve',
    objective: 'Implement binary search with edge case handling',
    constraints: ['Must handle empty arrays', 'O(log n) time complexity required'],
    context_refs: ['beads:problem-statement', 'beads:test-cases'],
    priority: 1,
    timeout_ms: 60000,
    deadline_hint: null,
    specialist_hint: null,
    task_data: {
      problem_id: 'leetcode-704',
      language: 'python',
    },
  },
};

export const MSG_002 = {
  version: '1.0.0',
  id: 'msg-002',
  timestamp: '2025-01-15T10:30:05Z',
  source_tier: 'ROUTING_DISPATCHER',
  target_tier: 'SPECIALIZED_FLEET',
  correlation_id: 'msg-001',
  payload: {
    task_type: 'execute_code',
    objective: 'Write binary search function',
    constraints: ['Return -1 if not found'],
    context_refs: ['beads:problem-statement'],
    priority: 1,
    timeout_ms: 30000,
    deadline_hint: null,
    specialist_hint: 'python-lora',
    task_data: {
      subtask_index: 1,
      subtask_total: 3,
      input_signature: 'def binary_search(nums: List[int], target: int) -> int',
      test_cases: ['beads:test-cases'],
    },
  },
};

export const MSG_CANCEL_001 = {
  version: '1.0.0',
  id: 'msg-cancel-001',
  timestamp: '2025-01-15T10:31:00Z',
  source_tier: 'ABSTRACT_ARCHITECT',
  target_tier: 'ROUTING_DISPATCHER',
  correlation_id: null,
  payload: {
    target_message_id: 'msg-001',
    reason: 'Strategy revision - new approach identified',
    cascade: true,
  },
};

export const MSG_003 = {
  version: '1.0.0',
  id: 'msg-003',
  timestamp: '2025-01-15T10:30:45Z',
  source_tier: 'SPECIALIZED_FLEET',
  target_tier: 'ROUTING_DISPATCHER',
  correlation_id: 'msg-002',
  payload: {
    status: 'success',
    summary: 'Implemented binary search with edge case handling. All test cases pass.',
    result_refs: ['beads:execution/outputs/msg-002'],
    confidence: 0.92,
    execution_time_ms: 3200,
    resources_used: {
      lora: 'python-lora',
      tokens_in: 450,
      tokens_out: 280,
    },
    surprise_flag: false,
    surprise_reason: null,
    error_type: null,
    error_detail: null,
    recoverable: null,
    artifacts: [
      {
        artifact_type: 'code',
        content_ref: 'beads:execution/outputs/msg-002',
        inline_content: null,
        metadata: {
          language: 'python',
          lines: 15,
          complexity: 'O(log n)',
        },
      },
      {
        artifact_type: 'test_result',
        content_ref: null,
        inline_content: '5/5 tests passed',
        metadata: {
          passed: 5,
          failed: 0,
        },
      },
    ],
  },
};

export const MSG_AGG_001 = {
  version: '1.0.0',
  id: 'msg-agg-001',
  timestamp: '2025-01-15T10:32:00Z',
  source_tier: 'ROUTING_DISPATCHER',
  target_tier: 'ABSTRACT_ARCHITECT',
  correlation_id: 'msg-001',
  payload: {
    status: 'partial',
    summary: '2/3 subtasks completed. Test generation failed.',
    result_refs: ['beads:routing/task-graph'],
    confidence: 0.78,
    execution_time_ms: 8500,
    resources_used: {
      parallel_tasks: 3,
      specialists_used: ['python-lora', 'test-lora'],
    },
    surprise_flag: false,
    surprise_reason: null,
    error_type: 'partial_completion',
    error_detail: 'test-lora failed: timeout after 30000ms',
    recoverable: true,
    artifacts: [
      {
        artifact_type: 'aggregation_summary',
        content_ref: null,
        inline_content: '{"strategy": "all_success", "succeeded": 2, "failed": 1}',
        metadata: {
          child_outcomes: [
            { id: 'msg-002', status: 'success', specialist: 'python-lora' },
            { id: 'msg-003', status: 'success', specialist: 'python-lora' },
            { id: 'msg-004', status: 'timeout', specialist: 'test-lora' },
          ],
        },
      },
    ],
  },
};

export const NEEDS_CLARIFICATION_PAYLOAD = {
  status: 'needs_clarification',
  summary: 'Ambiguous requirements for edge case handling',
  error_type: 'ambiguous_request',
  error_detail: 'Should empty array return -1 or raise exception?',
  recoverable: true,
};
