import { describe, expect, it } from 'vitest';
import { startPipeline } from '../../../support/nutrition/pipeline-harness.ts';

describe('pipelineMachine', () => {
  it('runs the initial pipeline with COACH beside the nutrition chain', () => {
    const p = startPipeline();
    expect(p.state()).toBe('intake_pending');
    p.start();
    p.answer('INTAKE');
    expect(p.state()).toBe('scientist_processing');
    p.answer('SCIENTIST');
    expect(p.state()).toBe('nutritionist_processing');
    // SCIENTIST's two outputs leave together: COACH works while the nutrition chain runs.
    expect(
      p
        .pending()
        .map((d) => d.envelope.to_agent)
        .sort(),
    ).toEqual(['COACH', 'NUTRITIONIST']);
    p.answer('COACH');
    p.answer('NUTRITIONIST');
    expect(p.state()).toBe('dietitian_processing');
    p.answer('DIETITIAN');
    expect(p.state()).toBe('chef_processing');
    p.answer('CHEF');
    // COACH finished long ago, so coach_processing has nothing to wait for.
    expect(p.state()).toBe('output_ready');
    expect(Object.keys(p.context().outputs)).toEqual(
      expect.arrayContaining([
        'macro_targets',
        'training_input',
        'nutrition_strategy',
        'weekly_meal_plan',
        'recipes',
        'training_program',
      ]),
    );
    expect(p.edges).toEqual([
      'intake_pending->scientist_processing',
      'scientist_processing->nutritionist_processing',
      'nutritionist_processing->dietitian_processing',
      'dietitian_processing->chef_processing',
      'chef_processing->coach_processing',
      'coach_processing->output_ready',
    ]);
  });

  it('waits in coach_processing only for a COACH that is not done', () => {
    const p = startPipeline();
    p.start();
    for (const agent of ['INTAKE', 'SCIENTIST', 'NUTRITIONIST', 'DIETITIAN', 'CHEF'] as const) p.answer(agent);
    expect(p.state()).toBe('coach_processing');
    p.answer('COACH');
    expect(p.state()).toBe('output_ready');
  });

  it('ends in error after an agent times out twice, with duration and input hash (§6.1)', () => {
    const p = startPipeline();
    p.start();
    p.answer('INTAKE');
    p.fail('SCIENTIST');
    expect(p.state()).toBe('error');
    expect(p.context().error).toMatchObject({
      error_type: 'timeout',
      failing_agent: 'SCIENTIST',
      timeout_duration_ms: 30_000,
      input_hash: 'a'.repeat(64),
    });
    const error = p.released().find((e) => e.data_type === 'pipeline_error');
    expect(error).toMatchObject({ from_agent: 'ORCHESTRATOR', to_agent: 'USER' });
    // All in-flight work is cancelled, COACH included.
    expect(
      p
        .sent()
        .filter((e) => e.type === 'supervisor.cancel')
        .map((e) => e.agent),
    ).toContain('COACH');
  });

  it('sends a validation failure back to the agent with its issues, then errors on the second (§6.2)', () => {
    const p = startPipeline();
    p.start();
    p.answer('INTAKE');
    p.answer('SCIENTIST');
    const first = p.one('NUTRITIONIST');
    p.answer('NUTRITIONIST', 'invalid');
    expect(p.state()).toBe('nutritionist_processing');
    const retry = p.one('NUTRITIONIST');
    expect(retry.envelope.message_id).not.toBe(first.envelope.message_id);
    expect(retry.envelope.payload).toEqual(first.envelope.payload);
    expect(retry.context?.validation_issues?.map((i) => i.message).join(' ')).toContain('use `target_intake_kcal`');
    p.answer('NUTRITIONIST', 'invalid');
    expect(p.state()).toBe('error');
    expect(p.context().error).toMatchObject({ error_type: 'validation_failure', failing_agent: 'NUTRITIONIST' });
  });

  it.each([
    ['NUTRITIONIST', 2],
    ['DIETITIAN', 3],
    ['CHEF', 4],
  ] as const)('re-runs %s with the higher-ranked data as a constraint, then escalates (§8 rank %i)', (agent, rank) => {
    const p = startPipeline();
    p.start();
    const chain = ['INTAKE', 'SCIENTIST', 'COACH', 'NUTRITIONIST', 'DIETITIAN', 'CHEF'] as const;
    for (const a of chain.slice(0, chain.indexOf(agent))) p.answer(a);
    const state = p.state();
    p.answer(agent, 'conflict');
    expect(p.state()).toBe(state);
    expect(p.one(agent).context?.constraint).toMatchObject({ rank });
    p.answer(agent, 'conflict');
    expect(p.state()).toBe('error');
    expect(p.context().error?.details).toContain('escalated to the user');
  });

  it('resolves a conflict when the re-run complies', () => {
    const p = startPipeline();
    p.start();
    for (const a of ['INTAKE', 'SCIENTIST', 'COACH'] as const) p.answer(a);
    p.answer('NUTRITIONIST', 'conflict');
    p.answer('NUTRITIONIST');
    expect(p.state()).toBe('dietitian_processing');
  });

  it('re-runs the upstream agent for missing data, then errors if it still lacks (§6.3)', () => {
    const p = startPipeline();
    p.start();
    for (const a of ['INTAKE', 'SCIENTIST', 'COACH'] as const) p.answer(a);
    p.answer('NUTRITIONIST', 'upstream');
    expect(p.state()).toBe('scientist_processing');
    const request = p.one('SCIENTIST');
    expect(request.envelope.data_type).toBe('upstream_data_request');
    expect(request.context?.rerun_of?.data_type).toBe('intake_data');
    p.report(request, { status: 'completed', output: { envelopes: [] } });
    expect(p.state()).toBe('nutritionist_processing');
  });

  it('pauses on a red flag, holds the outputs, and resumes on continue with the response attached (§5)', () => {
    const p = startPipeline();
    p.start();
    p.answer('INTAKE');
    p.answer('SCIENTIST', 'redFlag');
    expect(p.state()).toBe('paused_physician');
    expect(p.context().previousState).toBe('scientist_processing');
    // SCIENTIST's report waits (its request stays open) while the PHYSICIAN works.
    expect(
      p
        .pending()
        .map((d) => d.envelope.to_agent)
        .sort(),
    ).toEqual(['PHYSICIAN', 'SCIENTIST']);
    expect(p.released().some((e) => e.data_type === 'macro_targets')).toBe(false);
    p.answer('PHYSICIAN', 'ok', { physicianAction: 'continue' });
    expect(p.state()).toBe('nutritionist_processing');
    expect(p.edges).toContain('paused_physician->scientist_processing');
    expect(p.one('NUTRITIONIST').context?.physician?.pipeline_action).toBe('continue');
    // Only the next agent gets it.
    expect(p.one('COACH').context?.physician).toBeUndefined();
    // The response is metadata: the payloads released are SCIENTIST's, unchanged.
    expect(p.context().physician?.response?.data_type).toBe('medical_context');
  });

  it('stays paused on pause_pending_referral until the user confirms (§5)', () => {
    const p = startPipeline();
    p.start();
    p.answer('INTAKE');
    p.answer('SCIENTIST', 'redFlag');
    p.answer('PHYSICIAN', 'ok', { physicianAction: 'pause_pending_referral' });
    expect(p.state()).toBe('paused_physician');
    expect(p.edges).toContain('paused_physician->paused_physician');
    // The user may take longer than the pipeline timeout to see a doctor.
    p.clock.increment(10 * 180_000);
    expect(p.state()).toBe('paused_physician');
    p.send({ type: 'pipeline.confirm_referral' });
    expect(p.state()).toBe('nutritionist_processing');
  });

  it('ignores a referral confirmation that nobody asked for', () => {
    const p = startPipeline();
    p.start();
    p.answer('INTAKE');
    p.answer('SCIENTIST', 'redFlag');
    p.send({ type: 'pipeline.confirm_referral' });
    expect(p.state()).toBe('paused_physician');
  });

  it("aborts on the PHYSICIAN's word: error, terminated_medical, everything cancelled (§6.4)", () => {
    const p = startPipeline();
    p.start();
    p.answer('INTAKE');
    p.answer('SCIENTIST', 'redFlag');
    p.answer('PHYSICIAN', 'ok', { physicianAction: 'abort' });
    expect(p.state()).toBe('error');
    expect(p.context().terminatedMedical).toBe(true);
    expect(p.context().error).toMatchObject({ error_type: 'physician_abort', failing_agent: 'PHYSICIAN' });
    expect(p.pending()).toHaveLength(0);
    expect(
      new Set(
        p
          .sent()
          .filter((e) => e.type === 'supervisor.cancel')
          .map((e) => e.agent),
      ),
    ).toEqual(new Set(['INTAKE', 'SCIENTIST', 'NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH', 'PHYSICIAN']));
  });

  it('holds a COACH red flag raised during chef_processing until coach_processing, and batches red flags (§5)', () => {
    const p = startPipeline();
    p.start();
    for (const a of ['INTAKE', 'SCIENTIST', 'NUTRITIONIST', 'DIETITIAN'] as const) p.answer(a);
    expect(p.state()).toBe('chef_processing');
    p.answer('COACH', 'redFlag');
    expect(p.state()).toBe('chef_processing');
    p.answer('CHEF');
    expect(p.state()).toBe('paused_physician');
    expect(p.context().previousState).toBe('coach_processing');
    p.answer('PHYSICIAN', 'ok', { physicianAction: 'continue' });
    expect(p.state()).toBe('output_ready');
  });

  it('ends in error from intake_pending when INTAKE fails (a decision: §1 has no such edge)', () => {
    const p = startPipeline();
    p.start();
    p.fail('INTAKE', { kind: 'error', message: 'the intake store is down' });
    expect(p.state()).toBe('error');
    expect(p.edges).toContain('intake_pending->error');
    expect(p.context().error).toMatchObject({ failing_agent: 'INTAKE', error_type: 'validation_failure' });
  });

  it('arms the pipeline timeout again when a restored run resumes in intake_pending', () => {
    const p = startPipeline();
    p.start();
    p.clock.increment(100_000);
    p.send({ type: 'pipeline.resume' }); // as after a restart: XState does not re-arm restored timers
    p.clock.increment(100_000); // 200 s after the start, 100 s after the resume
    expect(p.state()).toBe('intake_pending');
    p.clock.increment(80_000);
    expect(p.state()).toBe('error');
    expect(p.context().error).toMatchObject({ error_type: 'timeout', failing_agent: 'INTAKE' });
  });

  it('ends in error when the whole run exceeds its timeout (§9: 180 s)', () => {
    const p = startPipeline();
    p.start();
    p.answer('INTAKE');
    p.clock.increment(179_999);
    expect(p.state()).toBe('scientist_processing');
    p.clock.increment(1);
    expect(p.state()).toBe('error');
    expect(p.context().error).toMatchObject({ error_type: 'timeout', timeout_duration_ms: 180_000 });
  });

  it('answers a check-in without a trigger in place (§7.3 no_change)', () => {
    const p = startPipeline();
    p.runToReady();
    p.rerun([]);
    expect(p.state()).toBe('output_ready');
    expect(p.context().lastAdjustment?.payload.adjustment_type).toBeNull();
    expect(p.edges).not.toContain('output_ready->scientist_processing');
  });

  it('re-runs only the agents of the re-execution map under a versioned run id (§10)', () => {
    const p = startPipeline();
    p.runToReady();
    const before = structuredClone(p.context().outputs);
    p.rerun(['DIETITIAN', 'CHEF']);
    expect(p.state()).toBe('dietitian_processing');
    const work = p.one('DIETITIAN');
    expect(work.envelope.pipeline_run_id).toBe(`${p.context().runId}_v2`);
    expect(work.context?.previous_output?.data_type).toBe('weekly_meal_plan');
    p.answer('DIETITIAN');
    p.answer('CHEF');
    expect(p.state()).toBe('output_ready');
    // Skipped agents keep their output.
    expect(p.context().outputs.nutrition_strategy).toEqual(before.nutrition_strategy);
    expect(p.context().outputs.training_program).toEqual(before.training_program);
    expect(p.context().outputs.recipes).not.toEqual(before.recipes);
    expect(p.context().lastAdjustment?.payload.agents_re_run).toEqual(['DIETITIAN', 'CHEF']);
  });

  it('gives in-flight work to new agents after a restore, without a new message id', () => {
    const p = startPipeline();
    p.start();
    p.answer('INTAKE');
    const inFlight = p.one('SCIENTIST');
    const before = p.sent().length;
    p.send({ type: 'pipeline.resume' });
    const resent = p
      .sent()
      .slice(before)
      .filter((e) => e.type === 'supervisor.send');
    expect(resent.map((e) => [e.envelope.message_id, e.redeliver])).toEqual([[inFlight.envelope.message_id, true]]);
  });

  it('after a restore while paused for a referral, asks again only for work not done: a deferred report is kept', () => {
    const p = startPipeline();
    p.start();
    p.answer('INTAKE');
    p.answer('SCIENTIST', 'redFlag');
    p.answer('PHYSICIAN', 'ok', { physicianAction: 'pause_pending_referral' });
    const before = p.sent().length;
    p.send({ type: 'pipeline.resume' });
    expect(
      p
        .sent()
        .slice(before)
        .filter((e) => e.type === 'supervisor.send'),
    ).toEqual([]);
    // Confirmed, the SCIENTIST's deferred report moves the run on without asking it again.
    p.send({ type: 'pipeline.confirm_referral' });
    expect(
      p
        .pending()
        .map((d) => d.envelope.to_agent)
        .sort(),
    ).toEqual(['COACH', 'NUTRITIONIST']);
  });
});
