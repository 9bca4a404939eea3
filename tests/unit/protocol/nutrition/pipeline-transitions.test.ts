import { describe, expect, it } from 'vitest';
import {
  PAUSABLE_STATES,
  PIPELINE_DECISIONS,
  PIPELINE_EDGES,
  PIPELINE_TRANSITIONS,
  PREVIOUS_STATE,
  PipelineStateSchema,
  PipelineTransitionSchema,
  type PipelineTransition,
} from '../../../../protocol/nutrition/index.ts';

const key = (t: PipelineTransition) => `${t.from} -> ${t.to}`;

describe('PIPELINE_TRANSITIONS', () => {
  it('has the nine §1 states', () => {
    expect(PipelineStateSchema.options).toEqual([
      'intake_pending',
      'scientist_processing',
      'nutritionist_processing',
      'dietitian_processing',
      'chef_processing',
      'coach_processing',
      'output_ready',
      'paused_physician',
      'error',
    ]);
  });

  it('holds the 22 lines of §1, each valid and none repeated', () => {
    expect(PIPELINE_TRANSITIONS).toHaveLength(22);
    for (const transition of PIPELINE_TRANSITIONS)
      expect(PipelineTransitionSchema.parse(transition)).toEqual(transition);
    expect(new Set(PIPELINE_TRANSITIONS.map(key)).size).toBe(22);
  });

  it('keeps {previous_state} literal on the one "continue" line', () => {
    const placeholders = PIPELINE_TRANSITIONS.filter((t) => t.to === PREVIOUS_STATE);
    expect(placeholders).toEqual([
      { from: 'paused_physician', to: '{previous_state}', reason: 'pipeline_action = "continue"' },
    ]);
  });

  it('has a way out of every state but error, and error has none', () => {
    for (const state of PipelineStateSchema.options) {
      const outgoing = PIPELINE_TRANSITIONS.filter((t) => t.from === state);
      expect(outgoing.length > 0).toBe(state !== 'error');
    }
  });

  it('reaches every state from intake_pending', () => {
    const reached = new Set<string>(['intake_pending']);
    for (let grew = true; grew;) {
      grew = false;
      for (const edge of PIPELINE_EDGES) {
        if (reached.has(edge.from) && !reached.has(edge.to)) {
          reached.add(edge.to);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...PipelineStateSchema.options].sort());
  });
});

describe('PIPELINE_EDGES', () => {
  it('lists as PAUSABLE_STATES every state other than paused_physician with an edge into it', () => {
    const intoPause = PIPELINE_TRANSITIONS.filter(
      (t) => t.to === 'paused_physician' && t.from !== 'paused_physician',
    ).map((t) => t.from);
    expect([...PAUSABLE_STATES]).toEqual(intoPause);
  });

  it('equals the transitions with {previous_state} expanded to each pausable state, then the decisions', () => {
    const expanded = PIPELINE_TRANSITIONS.flatMap((t): PipelineTransition[] =>
      t.to === PREVIOUS_STATE ? PAUSABLE_STATES.map((state) => ({ ...t, to: state })) : [t],
    );
    expect(PIPELINE_EDGES).toEqual([...expanded, ...PIPELINE_DECISIONS]);
  });

  it('decides only edges the §1 table lacks: intake_pending to error', () => {
    const inTable = new Set(PIPELINE_TRANSITIONS.map(key));
    expect(PIPELINE_DECISIONS.map(key)).toEqual(['intake_pending -> error']);
    for (const decision of PIPELINE_DECISIONS) expect(inTable.has(key(decision))).toBe(false);
  });

  it('only joins real states', () => {
    for (const edge of PIPELINE_EDGES) {
      expect(PipelineStateSchema.safeParse(edge.from).success).toBe(true);
      expect(PipelineStateSchema.safeParse(edge.to).success).toBe(true);
    }
  });
});
