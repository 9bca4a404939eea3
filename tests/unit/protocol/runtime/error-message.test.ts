import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../../../protocol/runtime/error-message.ts';
import { ConflictError } from '../../../../protocol/runtime/runtime-error.ts';

describe('errorMessage', () => {
  it("gives an Error's message, a subclass's too, without its name", () => {
    expect(errorMessage(new Error('disk full'))).toBe('disk full');
    expect(errorMessage(new ConflictError('busy', 'Run r1 is busy.'))).toBe('Run r1 is busy.');
  });

  it('gives anything else thrown as a string', () => {
    expect(errorMessage('plain string')).toBe('plain string');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage({ code: 'x' })).toBe('[object Object]');
  });
});
