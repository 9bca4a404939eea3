import { compilePath } from './envelope-path.ts';
import type { RoutingError } from './routing.ts';

/**
 * A system's protocol version rule (spec 002): the version is read at `path` as
 * `MAJOR.MINOR[.PATCH]`; a major other than `major` is refused (`version_not_supported`, naming the supported majors in its message and `supported`), and any
 * minor of that major is accepted, its unknown fields kept (so the system's envelope schema must
 * be loose). `current` is the version the system writes.
 */
export interface VersionRule {
  readonly path: string;
  readonly major: number;
  readonly current: string;
}

/** Checks one envelope before its schema does: `undefined` when its version is accepted. */
export type VersionCheck = (envelope: unknown) => RoutingError | undefined;

const VERSION = /^(\d+)\.(\d+)(?:\.(\d+))?$/;

/** The major of a `MAJOR.MINOR[.PATCH]` version; `undefined` when it is not one. */
export function majorOf(version: unknown): number | undefined {
  const match = typeof version === 'string' ? VERSION.exec(version) : null;
  return match ? Number(match[1]) : undefined;
}

/**
 * Compiles a version rule into a check, once per system. It runs before the envelope's schema,
 * so an envelope of another major is told so, not that its fields look wrong.
 *
 * @example
 * const check = compileVersionRule({ path: 'version', major: 1, current: '1.0.0' });
 * check({ version: '1.4.0' }); // undefined: accepted
 * check({ version: '2.0.0' })?.code; // 'version_not_supported' (supported: [1])
 */
export function compileVersionRule(rule: VersionRule): VersionCheck {
  if (majorOf(rule.current) !== rule.major) {
    throw new Error(
      `A version rule's current version ${rule.current} must be MAJOR.MINOR[.PATCH] of major ${rule.major}.`,
    );
  }
  const read = compilePath(rule.path);
  return (envelope) => {
    const version = read(envelope);
    const major = majorOf(version);
    if (major === undefined) {
      const message = `Expected the protocol version as MAJOR.MINOR.PATCH (this system writes ${rule.current}).`;
      return {
        code: 'invalid_envelope',
        message: `Envelope failed validation: ${rule.path}: ${message}`,
        issues: [{ path: rule.path, message }],
      };
    }
    if (major === rule.major) return undefined;
    return {
      code: 'version_not_supported',
      message: `Protocol version ${String(version)} is not supported: supported major versions: ${rule.major} (this system writes ${rule.current}). Send a ${rule.major}.x envelope.`,
      supported: [rule.major],
    };
  };
}
