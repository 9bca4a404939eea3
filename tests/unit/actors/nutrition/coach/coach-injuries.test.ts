import { describe, expect, it } from 'vitest';
import { readInjuries } from '../../../../../actors/nutrition/coach/coach-injuries.ts';

describe('readInjuries', () => {
  it('maps common free-text injuries to the areas to protect', () => {
    const cases: Array<[string, string[]]> = [
      ['knee', ['knee']],
      ['Old ACL tear, left knee', ['knee']],
      ['lower back pain', ['lower_back']],
      ['Herniated disc (L4-L5)', ['lower_back']],
      ['my back hurts when I bend', ['lower_back']],
      ['rotator cuff tendinopathy', ['shoulder']],
      ['Right wrist sprain', ['wrist']],
      ["golfer's elbow", ['elbow']],
      ['hip labral tear', ['shoulder', 'hip']],
      ['rolled ankle', ['ankle']],
      ['upper back and neck tension', ['neck']],
    ];
    for (const [text, areas] of cases) expect(readInjuries([text]).areas, text).toEqual(areas);
  });

  it('combines several injuries without duplicates', () => {
    expect(readInjuries(['left knee', 'right knee', 'shoulder']).areas).toEqual(['knee', 'shoulder']);
  });

  it('ignores "none" and reports text it cannot place', () => {
    expect(readInjuries(['none', 'No injuries'])).toEqual({ areas: [], unrecognised: [] });
    expect(readInjuries(['asthma', 'knee'])).toEqual({ areas: ['knee'], unrecognised: ['asthma'] });
  });
});
