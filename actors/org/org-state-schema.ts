import { OrgAgentSchema } from '../../protocol/org/envelope.ts';
import { defineSharedStateSchema } from '../runtime/shared-state/shared-state-schema.ts';

const everyone = Object.fromEntries([...OrgAgentSchema.options, 'user'].map((role) => [role, 'RW' as const]));

/**
 * The org system's shared state: `project/...` per project (the PRD, deliverables, handoff
 * rounds, tasks, held messages, escalations) and `knowledge/...` per user across projects (the
 * knowledge graph). Every agent, and the user through the routes, may write both.
 */
export const ORG_STATE_SCHEMA = defineSharedStateSchema({
  namespaces: {
    project: { scope: 'project', access: everyone },
    knowledge: { scope: 'owner', access: everyone },
  },
});
