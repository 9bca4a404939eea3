import { INLINE_LIMIT_BYTES, type Artifact } from '../../protocol/tiers/payloads.ts';

/** Raw content a specialist produced (the fleet's `SpecialistArtifact`). */
export interface RawArtifact {
  artifact_type: string;
  content: string;
  metadata: Record<string, unknown>;
}

const encoder = new TextEncoder();

/** Whether `content` goes inline: under 1 KB (1024 UTF-8 bytes), spec 002's rule. */
export function fitsInline(content: string): boolean {
  return encoder.encode(content).length < INLINE_LIMIT_BYTES;
}

/**
 * Spec 002's inline-vs-reference rule over a specialist's artifacts: content under 1024 UTF-8
 * bytes goes in `inline_content`; larger content is stored under a Beads key (returned in
 * `stored`, for the caller to write) and named by `content_ref`. Exactly one is ever set.
 *
 * @example
 * const { artifacts, stored } = packArtifacts(raw, (i) => `execution/outputs/${id}/${i}`);
 */
export function packArtifacts(
  raw: readonly RawArtifact[],
  keyOf: (index: number, artifact: RawArtifact) => string,
): { artifacts: Artifact[]; stored: { key: string; value: string }[] } {
  const stored: { key: string; value: string }[] = [];
  const artifacts = raw.map((artifact, index): Artifact => {
    if (fitsInline(artifact.content)) {
      return {
        artifact_type: artifact.artifact_type,
        content_ref: null,
        inline_content: artifact.content,
        metadata: artifact.metadata,
      };
    }
    const key = keyOf(index, artifact);
    stored.push({ key, value: artifact.content });
    return {
      artifact_type: artifact.artifact_type,
      content_ref: `beads:${key}`,
      inline_content: null,
      metadata: artifact.metadata,
    };
  });
  return { artifacts, stored };
}
