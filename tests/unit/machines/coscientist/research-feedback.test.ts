import { describe, expect, it } from 'vitest';
import { generationScores, goalOf, runGoal, testServices } from '../../../support/coscientist/research-harness.ts';

const GOALS = [
  goalOf({ domain: 'liver_fibrosis' }),
  goalOf({ domain: 'drug_repurposing', goal: 'Repurpose approved drugs for AML' }),
  goalOf({ domain: 'antimicrobial_resistance', goal: 'Restore antibiotic susceptibility' }),
];

/** The mean rise, over several goals, of the new hypotheses' mean review score from iteration 1 to iterations 2-3. */
async function meanRise(feedback: boolean): Promise<number[]> {
  const rises: number[] = [];
  for (const [n, goal] of GOALS.entries()) {
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const research = await runGoal(`fb-${seed}-${n}`, testServices({ feedback }), goal);
      const [first, ...later] = await generationScores(research);
      rises.push(later.reduce((a, b) => a + b, 0) / later.length - first!);
    }
  }
  return rises;
}

describe('feedback effectiveness (spec 003 success metric 5)', () => {
  it('raises the mean review score of newly generated hypotheses across iterations; without feedback it does not rise', async () => {
    const withFeedback = await meanRise(true);
    const ablated = await meanRise(false);
    // A rise counts when it stands clear of the draw's noise: t = mean / standard error.
    const t = (xs: number[]) => {
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
      return mean / (sd / Math.sqrt(xs.length));
    };
    expect(withFeedback.filter((rise) => rise > 0).length, `with feedback: ${withFeedback.join(', ')}`).toBe(
      withFeedback.length,
    );
    expect(t(withFeedback)).toBeGreaterThan(4);
    // Without feedback the draw is uniform: its rise stays within noise (under 0.25 on the 0-10 scale) ...
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(ablated), `without feedback: ${ablated.join(', ')}`).toBeLessThan(0.25);
    // ... and feedback beats it goal by goal (paired).
    expect(t(withFeedback.map((rise, i) => rise - ablated[i]!))).toBeGreaterThan(4);
  }, 120_000);
});
