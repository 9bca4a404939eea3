import type { Artifact, OutcomePayload } from '../../protocol/tiers/payloads.ts';
import type { A2aArtifact } from '../a2a/a2a-mapping.ts';
import type { BeadsEntry } from './tiers-service-api.ts';

/** What each artifact type of a tiers outcome is, for its A2A description. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  code: 'The solution, JavaScript, as it ran in the sandbox',
  test_result: "The solution's test run in the sandbox: passed and failed counts from running it",
  test_plan: "The test designer's edge cases, checked against the problem's definition",
  complexity_review: "The reviewer's timing of the solution against its complexity claim",
  aggregation_summary: "The Dispatcher's aggregate of the subtasks (strategy, succeeded, failed)",
};

/** The content of an artifact: inline, or the Beads entry its `content_ref` names (`beads:<key>`). */
async function contentOf(artifact: Artifact, read: (key: string) => Promise<BeadsEntry[] | undefined>) {
  if (artifact.inline_content !== null) return artifact.inline_content;
  const key = String(artifact.content_ref).replace(/^beads:/, '');
  const entry = (await read(key))?.find((e) => e.key === key);
  return entry === undefined ? null : typeof entry.value === 'string' ? entry.value : JSON.stringify(entry.value);
}

/**
 * A tiers outcome's artifacts as A2A artifacts, in the outcome's order: one `data` part each,
 * `{ artifact_type, content, metadata }` with the content read back from Beads when it was too
 * large to go inline, its schema `tiers/<artifact_type>`. Named by type (`code`, `test_result`);
 * a type that comes again (two subtasks' test results) is named `<type>:<subtask>`.
 *
 * @example
 * await outcomeArtifacts(outcome, (key) => service.beads(owner, taskId, key)); // [{ name: 'code', ... }]
 */
export async function outcomeArtifacts(
  outcome: OutcomePayload,
  read: (key: string) => Promise<BeadsEntry[] | undefined>,
): Promise<A2aArtifact[]> {
  const count = new Map<string, number>();
  for (const artifact of outcome.artifacts)
    count.set(artifact.artifact_type, (count.get(artifact.artifact_type) ?? 0) + 1);
  const named = new Set<string>();
  const artifacts: A2aArtifact[] = [];
  for (const [index, artifact] of outcome.artifacts.entries()) {
    const type = artifact.artifact_type;
    let name = type;
    if ((count.get(type) ?? 0) > 1) name = `${type}:${String(artifact.metadata.subtask ?? index)}`;
    while (named.has(name)) name = `${name}:${index}`;
    named.add(name);
    artifacts.push({
      name,
      description: DESCRIPTIONS[type] ?? `The ${type} a tier produced`,
      schema: `tiers/${type}`,
      data: { artifact_type: type, content: await contentOf(artifact, read), metadata: artifact.metadata },
    });
  }
  return artifacts;
}
