/**
 * A message built from spec 003's Standard Message Structure (`003_eaf79ba5ea6093e5.txt`): every
 * field it lists, with a value of the type it names.
 */
export const STANDARD_MESSAGE = {
  header: {
    message_id: '5b7a9c2e-1f0d-4e8a-b6c3-2d9e8f7a6b01',
    source_agent: 'SUPERVISOR',
    target_agent: 'GENERATION',
    timestamp: '2026-03-01T09:00:00Z',
    message_type: 'task',
  },
  payload: {
    data: { research_goal: 'Find drug repurposing candidates for AML', round: 1 },
    metadata: { task_id: 'task-gen-1', feedback_round: 0 },
  },
  routing: {
    priority: 3,
    expires_at: '2026-03-01T10:00:00Z',
  },
};
