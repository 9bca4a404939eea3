import { z } from 'zod';

/** How a group of exercises is performed (spec 001 §6.4, Exercise Grouping). */
const GroupTypeSchema = z.enum(['circuit', 'superset', 'giant_set', 'warmup', 'cooldown', 'sequence']);
type GroupType = z.infer<typeof GroupTypeSchema>;

/**
 * How many members each group type needs: a superset pairs two exercises, a giant set chains
 * three or more, a circuit cycles through at least two; warmups, cooldowns and sequences may hold one.
 */
export const GROUP_SIZE: Record<GroupType, { min: number; max: number }> = {
  superset: { min: 2, max: 2 },
  giant_set: { min: 3, max: Number.POSITIVE_INFINITY },
  circuit: { min: 2, max: Number.POSITIVE_INFINITY },
  warmup: { min: 1, max: Number.POSITIVE_INFINITY },
  cooldown: { min: 1, max: Number.POSITIVE_INFINITY },
  sequence: { min: 1, max: Number.POSITIVE_INFINITY },
};

/** Fields the spec allows on the first exercise of a group only (position 1). */
export const GROUP_LEADER_FIELDS = ['name', 'rounds', 'rest_between_rounds_sec'] as const;

/** Membership of one exercise in a group (superset, circuit, ...). */
export const ExerciseGroupSchema = z
  .strictObject({
    id: z.string().min(1).max(64).describe('Unique group identifier shared by all members, e.g. "superset-1"'),
    type: GroupTypeSchema.describe('How the group is executed'),
    position: z.int().min(1).max(50).describe('Order within the group, 1-indexed'),
    name: z.string().min(1).max(120).nullish().describe('Display name (first exercise of the group only)'),
    rounds: z.int().min(1).max(50).nullish().describe('How often the group repeats (first exercise only)'),
    rest_between_rounds_sec: z
      .int()
      .min(0)
      .max(1800)
      .nullish()
      .describe('Rest after completing the group (first exercise only)'),
  })
  .superRefine((group, ctx) => {
    if (group.position === 1) return;
    for (const field of GROUP_LEADER_FIELDS) {
      if (group[field] !== undefined && group[field] !== null) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `${field} belongs on the first exercise of the group (position 1) only`,
        });
      }
    }
  });
export type ExerciseGroup = z.infer<typeof ExerciseGroupSchema>;
