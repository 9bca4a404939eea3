import { steer } from '../../actors/coscientist/rules/steering.ts';
import type { ContextEntry } from '../../protocol/coscientist/context-entry.ts';
import type { GuidanceContent } from '../../protocol/coscientist/memory-content.ts';
import type { OpenResearch } from './open-research.ts';
import { researchMessage } from './research-messages.ts';

/**
 * Spec 003's natural-language interaction: the SUPERVISOR parses the scientist's words into
 * guidance, writes it to context memory for the next GENERATION (this iteration's, if its task
 * has not been submitted yet), tells GENERATION (`guidance_update`), and, when the goal waits for
 * the scientist, takes it as the answer: the escalated task is retried and the goal resumes.
 *
 * @example
 * await addGuidance(research, 'Focus the next round on protein-protein interactions');
 */
export async function addGuidance(research: OpenResearch, text: string): Promise<ContextEntry> {
  const { run, memory, queue, researchId } = research;
  const record = run.record;
  const generationSubmitted = queue.get(`i${record.iteration}-gen`) !== undefined;
  const { concepts } = steer(text);
  const content: GuidanceContent = {
    text: text.trim(),
    concepts,
    from_iteration: generationSubmitted ? record.iteration + 1 : record.iteration,
  };
  const existing = await memory.list('guidance');
  const entry = await memory.create('SUPERVISOR', 'guidance', content, { entryId: `guidance-${existing.length + 1}` });
  run.deps.send(
    researchMessage({
      researchId,
      type: 'guidance_update',
      from: 'SUPERVISOR',
      to: 'GENERATION',
      data: { guidance_entry_id: entry.entry_id, concepts },
      priority: 2,
      at: run.deps.clock.now(),
      key: entry.entry_id,
    }),
  );
  if (record.state === 'awaiting_scientist') await run.answer();
  return entry;
}
