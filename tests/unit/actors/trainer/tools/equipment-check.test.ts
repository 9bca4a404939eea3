import { describe, expect, it } from 'vitest';
import { executeTool } from '../../../../../actors/trainer/tools/index.ts';
import { currentLocationEquipment } from '../../../../../actors/trainer/tools/equipment-check.ts';
import type { GenerateWorkoutResult } from '../../../../../actors/trainer/tools/generate-workout.ts';
import type { SwapExerciseResult } from '../../../../../actors/trainer/tools/swap-exercise.ts';
import {
  benchPress,
  createToolTestContext,
  plank,
  successOf,
  type ToolTestContext,
} from '../../../../support/trainer/trainer-tool-fixtures.ts';

async function atHome(): Promise<ToolTestContext> {
  const ctx = createToolTestContext();
  await ctx.userData.put('user-1', 'all_locations', {
    locations: [
      { id: 'gym', name: 'City Gym', equipment: [{ name: 'Barbell' }, { name: 'Flat Bench' }] },
      {
        id: 'home',
        name: 'Home Gym',
        current_location: true,
        equipment: [
          { name: 'Dumbbells', type: 'free_weights', weights: [5, 10], weight_unit: 'kg' },
          { name: 'Adjustable Bench' },
          { name: 'Sauna' },
        ],
      },
    ],
  });
  return ctx;
}

describe('currentLocationEquipment', () => {
  it("maps the current location's equipment names onto the library vocabulary", async () => {
    const ctx = await atHome();
    const current = currentLocationEquipment((await ctx.userData.get('user-1', 'all_locations')).locations);
    expect(current?.location.id).toBe('home');
    expect(current?.equipment).toEqual(['dumbbell', 'bench']);
    expect(currentLocationEquipment([])).toBeUndefined();
  });
});

describe('equipment warnings', () => {
  it('warn when a known exercise needs equipment the current location lacks, suggesting ones that fit', async () => {
    const ctx = await atHome();
    const pushUp = { ...plank(2), exercise_name: 'Push-Up' };
    const result = successOf<GenerateWorkoutResult>(
      await executeTool(
        'generate_workout',
        {
          workout: {
            title: 'Chest',
            exercises: [benchPress(1), pushUp, { ...plank(3), exercise_name: 'Made-up Move' }],
          },
        },
        ctx,
      ),
    );
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings?.[0]).toContain('"Barbell Bench Press" needs barbell, which Home Gym does not list');
    expect(result.warnings?.[0]).toContain('Dumbbell Bench Press');
  });

  it('stay silent when everything fits, or when no location is current', async () => {
    const ctx = await atHome();
    const fits = successOf<GenerateWorkoutResult>(
      await executeTool(
        'generate_workout',
        { workout: { title: 'Home', exercises: [{ ...benchPress(1), exercise_name: 'Dumbbell Bench Press' }] } },
        ctx,
      ),
    );
    expect(fits.warnings).toBeUndefined();
    const nowhere = successOf<GenerateWorkoutResult>(
      await executeTool(
        'generate_workout',
        { workout: { title: 'X', exercises: [benchPress(1)] } },
        createToolTestContext(),
      ),
    );
    expect(nowhere.warnings).toBeUndefined();
  });

  it('come with a swap too, and never make a call fail', async () => {
    const ctx = await atHome();
    await executeTool('generate_workout', { workout: { title: 'Back', exercises: [plank(1)] } }, ctx);
    const row = { ...benchPress(), exercise_name: 'Barbell Bent-Over Row' };
    const { order: _order, ...replacement } = row;
    const swapped = successOf<SwapExerciseResult>(
      await executeTool('swap_exercise', { exercise_id: '1', new_exercise: replacement }, ctx),
    );
    expect(swapped.warnings?.[0]).toContain('needs barbell');

    ctx.userData.get = async () => {
      throw new Error('locations unavailable');
    };
    const output = await executeTool('generate_workout', { workout: { title: 'Y', exercises: [benchPress(1)] } }, ctx);
    expect(output.status).toBe('done');
    expect(successOf<GenerateWorkoutResult>(output).warnings).toBeUndefined();
  });
});
