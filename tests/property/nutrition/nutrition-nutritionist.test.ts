import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NutritionStrategySchema, type NutritionStrategy } from '../../../protocol/nutrition/nutrition-strategy.ts';
import { detectRank2Conflict } from '../../../actors/nutrition/conflicts.ts';
import { singularFood } from '../../../actors/nutrition/nutritionist/nutritionist-food-aversions.ts';
import { buildNutritionStrategy } from '../../../actors/nutrition/nutritionist/nutritionist-strategy.ts';
import { computeMacroTargets } from '../../../actors/nutrition/scientist/scientist-macro-targets.ts';
import { intakeArb } from '../../support/nutrition/scientist-arbitraries.ts';

const NUM_RUNS = 500;
const tierArb = fc.constantFrom(0 as const, 1 as const, 2 as const);
const TOTALS = ['target_intake_kcal', 'protein_g', 'fat_g', 'carbs_g'] as const;

describe('NUTRITIONIST properties', () => {
  it("builds a schema-valid strategy whose totals are exactly the SCIENTIST's", () => {
    fc.assert(
      fc.property(intakeArb, tierArb, (intake, tier) => {
        const targets = computeMacroTargets(intake);
        const strategy = NutritionStrategySchema.parse(
          buildNutritionStrategy(targets, { current_tier: tier, menstrual_status: intake.menstrual_status }),
        );
        for (const field of TOTALS) expect(strategy[field]).toBe(targets[field]);
        expect(detectRank2Conflict(targets, strategy)).toEqual([]);
        expect(strategy.current_tier).toBe(tier);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('spreads exactly protein_g over the slots, and keeps water and fiber at or above the SCIENTIST floors', () => {
    fc.assert(
      fc.property(intakeArb, tierArb, (intake, tier) => {
        const targets = computeMacroTargets(intake);
        const strategy = buildNutritionStrategy(targets, { current_tier: tier });
        const slots = Object.values(strategy.protein_distribution);
        expect(slots.reduce((sum, grams) => sum + grams, 0)).toBe(targets.protein_g);
        expect(Math.min(...slots)).toBeGreaterThan(0);
        expect(strategy.hydration_target_L).toBeGreaterThanOrEqual(targets.hydration_L);
        expect(strategy.fiber_target_g).toBeGreaterThanOrEqual(targets.fiber_g_min);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('never names an averted food in its tactics or supplements', () => {
    fc.assert(
      fc.property(intakeArb, tierArb, (intake, tier) => {
        const strategy = buildNutritionStrategy(computeMacroTargets(intake), { current_tier: tier });
        const text = singularFood(
          [
            ...strategy.hardgainer_tactics,
            ...strategy.supplement_protocol.map((item) => `${item.supplement} ${item.dose}`),
          ].join(' | '),
        );
        for (const aversion of intake.food_aversions) {
          if (aversion === 'dairy') {
            expect(text).not.toMatch(/whole milk|whey|cheese|casein|yogurt/);
          } else {
            expect(text).not.toContain(singularFood(aversion));
          }
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('has a rank-2 conflict for any change to a total', () => {
    fc.assert(
      fc.property(intakeArb, fc.constantFrom(...TOTALS), fc.integer({ min: 1, max: 300 }), (intake, field, delta) => {
        const targets = computeMacroTargets(intake);
        const strategy: NutritionStrategy = { ...buildNutritionStrategy(targets, { current_tier: 2 }) };
        strategy[field] = targets[field] + delta;
        const conflicts = detectRank2Conflict(targets, strategy);
        expect(conflicts).toHaveLength(1);
        expect(conflicts[0]).toMatchObject({
          rank: 2,
          field,
          expected: targets[field],
          actual: targets[field] + delta,
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
