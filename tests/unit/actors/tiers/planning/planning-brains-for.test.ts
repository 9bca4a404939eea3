import { describe, expect, it } from 'vitest';
import { openModelBackends } from '../../../../../actors/models/model-backends.ts';
import { offlineArchitect } from '../../../../../actors/tiers/planning/offline-architect.ts';
import { offlineDispatcher } from '../../../../../actors/tiers/planning/offline-dispatcher.ts';
import { planningBrainsFor } from '../../../../../actors/tiers/planning/planning-brains-for.ts';

describe('planningBrainsFor', () => {
  it('is offline without a key, and with an OpenAI key alone', () => {
    for (const settings of [
      { primaryModel: 'claude-haiku-4-5' },
      { primaryModel: 'claude-haiku-4-5', openaiApiKey: 'sk' },
    ]) {
      const brains = planningBrainsFor(openModelBackends(settings));
      expect(brains).toEqual({
        architect: offlineArchitect,
        dispatcher: offlineDispatcher,
        solver: null,
        kind: 'offline',
      });
    }
  });

  it('is Claude with an Anthropic key, and refuses an unknown model at once', () => {
    const brains = planningBrainsFor(
      openModelBackends({ primaryModel: 'claude-haiku-4-5', anthropicApiKey: 'sk-ant' }),
    );
    expect(brains.kind).toBe('anthropic');
    expect(brains.architect).not.toBe(offlineArchitect);
    expect(typeof brains.solver).toBe('function');
    expect(() => planningBrainsFor(openModelBackends({ primaryModel: 'gpt-nothing', anthropicApiKey: 'k' }))).toThrow(
      /gpt-nothing/,
    );
  });
});
