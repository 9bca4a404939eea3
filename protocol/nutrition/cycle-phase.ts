import { z } from 'zod';

/**
 * A menstrual cycle phase. The spec uses the two-phase model (§4.3 `cycle_adjustments` has
 * `follicular` and `luteal`; §7.1 reports `"follicular"`), menstruation being part of the
 * follicular phase.
 */
export const CyclePhaseSchema = z.enum(['follicular', 'luteal']);
export type CyclePhase = z.infer<typeof CyclePhaseSchema>;

/** Day of the menstrual cycle, day 1 being the first day of bleeding; long irregular cycles allowed. */
export const CycleDaySchema = z.number().int().min(1).max(90);
