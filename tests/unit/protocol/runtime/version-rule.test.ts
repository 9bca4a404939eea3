import { describe, expect, it } from 'vitest';
import { compileVersionRule, majorOf } from '../../../../protocol/runtime/version-rule.ts';

describe('compileVersionRule', () => {
  const check = compileVersionRule({ path: 'version', major: 1, current: '1.0.0' });

  it('accepts the current version and any minor or patch of its major', () => {
    for (const version of ['1.0.0', '1.0.7', '1.4.0', '1.12.3', '1.1']) expect(check({ version })).toBeUndefined();
  });

  it('refuses another major with version_not_supported, listing the supported majors', () => {
    for (const version of ['2.0.0', '0.9.0', '10.0.0']) {
      const error = check({ version });
      expect(error?.code).toBe('version_not_supported');
      expect(error?.supported).toEqual([1]);
      expect(error?.message).toContain('supported major versions: 1');
      expect(error?.message).toContain(`Protocol version ${version} is not supported`);
    }
  });

  it('answers a missing or malformed version with invalid_envelope naming the field', () => {
    for (const envelope of [{}, { version: 1 }, { version: '' }, { version: 'v1.0.0' }, { version: '1' }, null]) {
      const error = check(envelope);
      expect(error?.code).toBe('invalid_envelope');
      expect(error?.issues).toEqual([{ path: 'version', message: expect.stringContaining('MAJOR.MINOR.PATCH') }]);
    }
  });

  it('reads the version at a nested path', () => {
    const nested = compileVersionRule({ path: 'meta.protocol', major: 2, current: '2.1.0' });
    expect(nested({ meta: { protocol: '2.0.0' } })).toBeUndefined();
    expect(nested({ meta: { protocol: '1.0.0' } })?.code).toBe('version_not_supported');
    expect(nested({ meta: { protocol: '3.0.0' } })?.supported).toEqual([2]);
    expect(nested({ version: '2.0.0' })?.issues?.[0]?.path).toBe('meta.protocol');
  });

  it('refuses a rule whose current version is not of its major', () => {
    expect(() => compileVersionRule({ path: 'version', major: 2, current: '1.0.0' })).toThrow('major 2');
    expect(() => compileVersionRule({ path: 'version', major: 1, current: 'latest' })).toThrow('MAJOR.MINOR');
  });

  it('reads the major of MAJOR.MINOR[.PATCH] only', () => {
    expect(majorOf('3.2.1')).toBe(3);
    expect(majorOf('1.0')).toBe(1);
    expect(majorOf('1.0.0-beta')).toBeUndefined();
    expect(majorOf(1)).toBeUndefined();
  });
});
