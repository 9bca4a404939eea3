import { defineSharedStateSchema } from '../../runtime/shared-state/shared-state-schema.ts';

const ALL_READ = { GENERATION: 'R', REFLECTION: 'R', RANKING: 'R', EVOLUTION: 'R', META_REVIEW: 'R' } as const;

/**
 * Context memory as shared state: one namespace per entry type, all in the goal's `research`
 * scope, each with its writers (every role reads). The SUPERVISOR writes the goal and guidance,
 * promotes partial entries and rolls rankings back; `supervisor/` holds its own loop state.
 */
export const MEMORY_SCHEMA = defineSharedStateSchema({
  namespaces: {
    goal: { scope: 'research', access: { ...ALL_READ, SUPERVISOR: 'RW' } },
    guidance: { scope: 'research', access: { ...ALL_READ, SUPERVISOR: 'RW' } },
    hypothesis: { scope: 'research', access: { ...ALL_READ, GENERATION: 'RW', EVOLUTION: 'RW', SUPERVISOR: 'RW' } },
    review: { scope: 'research', access: { ...ALL_READ, REFLECTION: 'RW', SUPERVISOR: 'RW' } },
    debate: { scope: 'research', access: { ...ALL_READ, RANKING: 'RW', SUPERVISOR: 'RW' } },
    match: { scope: 'research', access: { ...ALL_READ, RANKING: 'RW', SUPERVISOR: 'RW' } },
    ranking: { scope: 'research', access: { ...ALL_READ, RANKING: 'RW', SUPERVISOR: 'RW' } },
    feedback: { scope: 'research', access: { ...ALL_READ, META_REVIEW: 'RW' } },
    overview: { scope: 'research', access: { ...ALL_READ, META_REVIEW: 'RW' } },
    error: {
      scope: 'research',
      access: {
        GENERATION: 'RW',
        REFLECTION: 'RW',
        RANKING: 'RW',
        EVOLUTION: 'RW',
        META_REVIEW: 'RW',
        SUPERVISOR: 'RW',
      },
    },
    supervisor: { scope: 'research', access: { ...ALL_READ, SUPERVISOR: 'RW' } },
  },
});
