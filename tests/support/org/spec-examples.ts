/**
 * Spec 004's examples (`004_ccf323e09b7eed88.txt`). The spec writes its Message Schema (v2.0) and
 * its Conflict Escalation Format with the types of the fields where values go ("uuid-v4",
 * "ISO-8601", "critical | high | medium | low"): `V2_SCHEMA_EXAMPLE` and `ESCALATION_EXAMPLE` are
 * copied as written, and the messages below fill exactly those placeholders with a value of the
 * named type, keeping every other field and value as the spec writes it.
 */
export const V2_SCHEMA_EXAMPLE = {
  message_id: 'uuid-v4',
  timestamp: 'ISO-8601',
  source_agent: 'agent-name',
  destination_agent: 'agent-name | agent-name[]',
  message_type: 'request | response | notification | escalation',
  priority: 'critical | high | medium | low',
  payload: {
    task_id: 'string',
    content: {},
    dependencies: ['task-id-1', 'task-id-2'],
    deadline: 'ISO-8601',
    acceptance_criteria: [],
  },
  context: {
    sprint_id: 'string',
    prd_id: 'string',
    related_messages: ['message-id-1'],
    knowledge_graph_refs: ['node-id-1'],
  },
  acknowledgment: {
    required: true,
    timeout_ms: 30000,
    retry_count: 3,
  },
};

export const ESCALATION_EXAMPLE = {
  message_type: 'escalation',
  payload: {
    conflict_type: 'feasibility | priority | quality | timeline | resource',
    agents_involved: ['agent-a', 'agent-b'],
    positions: {
      'agent-a': "Description of agent-a's position",
      'agent-b': "Description of agent-b's position",
    },
    impact_if_unresolved: "What happens if this isn't resolved",
    recommended_resolution: "The escalating agent's suggestion",
    deadline_for_resolution: 'ISO-8601',
  },
};

/** The v2.0 example as a request from `product` to one agent (`backend`). */
export const V2_SINGLE_DESTINATION = {
  ...V2_SCHEMA_EXAMPLE,
  message_id: '7d0f1f43-2a55-4c47-9e68-4d2b8a3b1c01',
  timestamp: '2026-02-09T14:30:00Z',
  source_agent: 'product',
  destination_agent: 'backend',
  message_type: 'request',
  priority: 'high',
  payload: { ...V2_SCHEMA_EXAMPLE.payload, task_id: 'T-42', deadline: '2026-02-16T17:00:00Z' },
  context: { ...V2_SCHEMA_EXAMPLE.context, sprint_id: 'sprint-7', prd_id: 'prd-3' },
};

/** The same as a notification to several agents at once. */
export const V2_ARRAY_DESTINATION = {
  ...V2_SINGLE_DESTINATION,
  message_id: '7d0f1f43-2a55-4c47-9e68-4d2b8a3b1c02',
  destination_agent: ['frontend', 'backend'],
  message_type: 'notification',
};

/** The Conflict Escalation Format in a full v2.0 message, `frontend` escalating to `chief-orchestration`. */
export const ESCALATION_MESSAGE = {
  message_id: '7d0f1f43-2a55-4c47-9e68-4d2b8a3b1c03',
  timestamp: '2026-02-09T15:00:00Z',
  source_agent: 'frontend',
  destination_agent: 'chief-orchestration',
  message_type: ESCALATION_EXAMPLE.message_type,
  priority: 'critical',
  payload: {
    ...ESCALATION_EXAMPLE.payload,
    conflict_type: 'feasibility',
    agents_involved: ['frontend', 'backend'],
    positions: {
      frontend: ESCALATION_EXAMPLE.payload.positions['agent-a'],
      backend: ESCALATION_EXAMPLE.payload.positions['agent-b'],
    },
    deadline_for_resolution: '2026-02-10T12:00:00Z',
  },
};
