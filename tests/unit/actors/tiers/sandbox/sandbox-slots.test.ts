import { describe, expect, it } from 'vitest';
import { SandboxSlots } from '../../../../../actors/tiers/sandbox/sandbox-slots.ts';

describe('SandboxSlots', () => {
  it('grants up to its size at once and the rest in order as slots free up', async () => {
    const slots = new SandboxSlots(2);
    const first = await slots.acquire();
    const second = await slots.acquire();
    const granted: string[] = [];
    const third = slots.acquire().then((release) => (granted.push('third'), release));
    const fourth = slots.acquire().then((release) => (granted.push('fourth'), release));
    expect(slots.load).toEqual({ running: 2, waiting: 2 });
    first();
    first(); // a second release of the same slot changes nothing
    (await third)();
    second();
    (await fourth)();
    expect(granted).toEqual(['third', 'fourth']);
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('drops a waiter whose signal aborts, with the reason', async () => {
    const slots = new SandboxSlots(1);
    const held = await slots.acquire();
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    controller.abort(new Error('no longer needed'));
    await expect(waiting).rejects.toThrow('no longer needed');
    expect(slots.load).toEqual({ running: 1, waiting: 0 });
    held();
    await expect(slots.acquire(controller.signal)).rejects.toThrow('no longer needed');
    expect(() => new SandboxSlots(0)).toThrow(/size must be 1 or more/);
  });
});
