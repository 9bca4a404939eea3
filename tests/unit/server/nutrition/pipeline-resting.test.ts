import { describe, expect, it } from 'vitest';
import type { RunSnapshot } from '../../../../server/run-host/hosted-run.ts';
import { restsForUser, settledForUser } from '../../../../server/nutrition/pipeline-resting.ts';
import { startPipeline } from '../../../support/nutrition/pipeline-harness.ts';

/*
 * When a pipeline run waits for its user alone (the host lets it rest, SSE `until=settled`
 * closes): on real snapshots of the pipeline machine, driven through each case.
 */
function harness() {
  const p = startPipeline();
  const rests = () => restsForUser(p.pipeline.getSnapshot() as RunSnapshot);
  const settled = () => settledForUser(p.pipeline.getSnapshot() as RunSnapshot);
  return { p, rests, settled };
}

/** A run the SCIENTIST red-flagged at intake: paused, its query with the PHYSICIAN. */
function redFlaggedAtScientist() {
  const run = harness();
  run.p.start();
  run.p.answer('INTAKE');
  run.p.answer('SCIENTIST', 'redFlag');
  return run;
}

describe('restsForUser', () => {
  it('rests in output_ready, not while an agent works or a check-in is under way', () => {
    const { p, rests, settled } = harness();
    p.start();
    expect(rests()).toBe(false);
    for (const agent of ['INTAKE', 'SCIENTIST', 'COACH', 'NUTRITIONIST', 'DIETITIAN'] as const) {
      p.answer(agent);
      expect(rests()).toBe(false);
    }
    p.answer('CHEF');
    expect(p.state()).toBe('output_ready');
    expect(rests()).toBe(true);
    p.checkin();
    expect(p.state()).toBe('output_ready');
    expect([rests(), settled()]).toEqual([false, false]);
  });

  it('rests once the PHYSICIAN asked for a referral, though the red-flagged agent’s report waits for the resume', () => {
    const { p, rests, settled } = redFlaggedAtScientist();
    expect(p.state()).toBe('paused_physician');
    // The PHYSICIAN works: paused, but not for the user alone.
    expect([rests(), settled()]).toEqual([false, false]);
    p.answer('PHYSICIAN', 'ok', { physicianAction: 'pause_pending_referral' });
    expect(p.state()).toBe('paused_physician');
    expect(p.context().deferred.length).toBeGreaterThan(0);
    expect([rests(), settled()]).toEqual([true, true]);
    p.send({ type: 'pipeline.confirm_referral' });
    expect([rests(), settled()]).toEqual([false, false]);
  });

  it("rests when a check-in's re-run pauses for a referral, and not while another agent still works", () => {
    const { p, rests, settled } = harness();
    p.runToReady();
    p.rerun(['SCIENTIST', 'NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH']);
    expect(p.state()).toBe('scientist_processing');
    p.answer('SCIENTIST');
    // NUTRITIONIST red-flags while COACH still works: paused, but COACH's work is not done.
    p.answer('NUTRITIONIST', 'redFlag');
    expect(p.state()).toBe('paused_physician');
    p.answer('PHYSICIAN', 'ok', { physicianAction: 'pause_pending_referral' });
    expect([rests(), settled()]).toEqual([false, false]);
    p.answer('COACH');
    expect(p.context().checkin).not.toBeNull();
    expect([rests(), settled()]).toEqual([true, true]);
  });

  it('is settled, not resting, in error', () => {
    const { p, rests, settled } = redFlaggedAtScientist();
    p.answer('PHYSICIAN', 'ok', { physicianAction: 'abort' });
    expect(p.state()).toBe('error');
    expect([rests(), settled()]).toEqual([false, true]);
  });
});
