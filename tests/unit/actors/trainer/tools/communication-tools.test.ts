import { describe, expect, it } from 'vitest';
import { executeTool } from '../../../../../actors/trainer/tools/index.ts';
import type { ArtifactLookup } from '../../../../../actors/trainer/tools/tool-context.ts';
import { artifactData } from '../../../../support/trainer/trainer-events.ts';
import { createToolTestContext, sampleWorkout, successOf } from '../../../../support/trainer/trainer-tool-fixtures.ts';

describe('message_notify_user', () => {
  it('sends a plain message and is not terminal', async () => {
    const output = await executeTool('message_notify_user', { message: 'Hi there' }, createToolTestContext());
    expect(output.result).toEqual({ success: true, message: 'Hi there' });
    expect(output.terminal).toBe(false);
    expect(output.statusMessage).toBeUndefined();
    expect(output.deliveredArtifact).toBeUndefined();
  });

  it('resolves an artifact created in this session and includes its payload (spec 001 §12.4)', async () => {
    const ctx = createToolTestContext();
    const generated = await executeTool('generate_workout', { workout: sampleWorkout() }, ctx);
    const artifactId = successOf<{ artifact_id: string }>(generated).artifact_id;
    const output = await executeTool('message_notify_user', { message: 'Here it is', artifact_id: artifactId }, ctx);
    expect(output.result).toMatchObject({ success: true, artifact_id: artifactId });
    expect(output.deliveredArtifact).toEqual(generated.createdArtifact);
    expect(
      (output.result as { artifact?: { payload: { exercises: unknown[] } } }).artifact?.payload.exercises,
    ).toHaveLength(6);
  });

  it('falls back to the stored artifacts of the session (after a restart)', async () => {
    const stored = artifactData('art_fromstore', 'Leg Day');
    const calls: string[] = [];
    const artifacts: ArtifactLookup = {
      async getArtifact(userId, sessionId, artifactId) {
        calls.push(`${userId}/${sessionId}/${artifactId}`);
        return artifactId === stored.artifact_id ? stored : undefined;
      },
    };
    const ctx = createToolTestContext({ artifacts });
    const output = await executeTool('message_notify_user', { message: 'Legs!', artifact_id: 'art_fromstore' }, ctx);
    expect(output.result).toMatchObject({ success: true, artifact_id: 'art_fromstore', artifact: stored });
    expect(calls).toEqual(['user-1/session-1/art_fromstore']);
    expect(output.rawFormatted).toContain('Leg Day');
  });

  it('still sends the message when the artifact is unknown, with a warning (non-fatal)', async () => {
    const output = await executeTool(
      'message_notify_user',
      { message: 'Here', artifact_id: 'art_missing' },
      createToolTestContext(),
    );
    expect(output.status).toBe('done');
    expect(output.result).toMatchObject({ success: true, message: 'Here' });
    expect(output.result).not.toHaveProperty('artifact');
    expect((output.result as { warning?: string }).warning).toContain('art_missing');
    expect(output.rawFormatted).toContain('Warning');
  });

  it("does not deliver another session's artifact", async () => {
    const ctx = createToolTestContext();
    const generated = await executeTool('generate_workout', { workout: sampleWorkout() }, ctx);
    const artifactId = successOf<{ artifact_id: string }>(generated).artifact_id;
    const other = { ...ctx, sessionId: 'session-2' };
    const output = await executeTool('message_notify_user', { message: 'x', artifact_id: artifactId }, other);
    expect(output.result).not.toHaveProperty('artifact');
  });
});

describe('message_ask_user', () => {
  it('asks, awaits the answer and stops the loop (spec 001 §3.2)', async () => {
    const output = await executeTool(
      'message_ask_user',
      { question: 'Gym or home?', options: ['Gym', 'Home'] },
      createToolTestContext(),
    );
    expect(output.result).toEqual({
      success: true,
      question: 'Gym or home?',
      options: ['Gym', 'Home'],
      awaiting_response: true,
    });
    expect(output.terminal).toBe(true);
    expect(output.rawFormatted).toContain('Gym | Home');
  });

  it('defaults options to an empty list', async () => {
    const output = await executeTool('message_ask_user', { question: 'How did it feel?' }, createToolTestContext());
    expect(output.result).toMatchObject({ options: [] });
  });
});

describe('idle', () => {
  it('ends the loop with its reason', async () => {
    const output = await executeTool('idle', { reason: 'All tasks done' }, createToolTestContext());
    expect(output.result).toEqual({ success: true, idle: true, reason: 'All tasks done' });
    expect(output.terminal).toBe(true);
    expect(output.rawFormatted).toContain('All tasks done');
  });
});
