/**
 * Confidence from the evidence: Laplace's rule of succession over the real test run, (passed + 1)
 * / (total + 2): 5/5 -> 0.857, 20/20 -> 0.955, 3/5 -> 0.571. More passing tests, more confidence.
 */
export const testConfidence = (passed: number, total: number): number =>
  Math.round(((passed + 1) / (total + 2)) * 1000) / 1000;
