import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { DeadlineTimers, MAX_TIMER_MS } from '../../../../actors/runtime/deadline-timers.ts';

describe('DeadlineTimers', () => {
  it('fires each key once at its absolute time', () => {
    const clock = new SimulatedClock();
    clock.set(1_000);
    const fired: string[] = [];
    const timers = new DeadlineTimers<string>(clock);
    timers.arm('a', 1_500, () => fired.push('a'));
    timers.arm('b', 1_200, () => fired.push('b'));
    expect(timers.size).toBe(2);
    clock.increment(199);
    expect(fired).toEqual([]);
    clock.increment(1);
    expect(fired).toEqual(['b']);
    expect(timers.has('b')).toBe(false);
    clock.increment(300);
    expect(fired).toEqual(['b', 'a']);
    expect(timers.size).toBe(0);
  });

  it('replaces a key armed again, and disarms', () => {
    const clock = new SimulatedClock();
    const fired: string[] = [];
    const timers = new DeadlineTimers<string>(clock);
    timers.arm('a', 100, () => fired.push('first'));
    timers.arm('a', 300, () => fired.push('second'));
    expect(timers.size).toBe(1);
    clock.increment(200);
    expect(fired).toEqual([]);
    expect(timers.disarm('a')).toBe(true);
    expect(timers.disarm('a')).toBe(false);
    clock.increment(500);
    expect(fired).toEqual([]);
  });

  it('fires a time already past on the next turn of the clock, never inside arm', () => {
    const clock = new SimulatedClock();
    clock.set(5_000);
    const fired: number[] = [];
    const timers = new DeadlineTimers<string>(clock);
    timers.arm('late', 1_000, () => fired.push(clock.now()));
    expect(fired).toEqual([]);
    clock.increment(0);
    expect(fired).toEqual([5_000]);
  });

  it('clears every timer', () => {
    const clock = new SimulatedClock();
    const fired: string[] = [];
    const timers = new DeadlineTimers<string>(clock);
    for (const key of ['a', 'b', 'c']) timers.arm(key, 10, () => fired.push(key));
    timers.clear();
    clock.increment(100);
    expect(fired).toEqual([]);
    expect(timers.size).toBe(0);
  });
  it("reaches a time past Node's longest timer in steps, none longer than it, and fires once at the time", () => {
    const clock = new SimulatedClock();
    const delays: number[] = [];
    const recording = {
      now: () => clock.now(),
      setTimeout: (fn: (...args: unknown[]) => void, ms: number) => (delays.push(ms), clock.setTimeout(fn, ms)),
      clearTimeout: (id: unknown) => clock.clearTimeout(id as number),
    };
    const fired: number[] = [];
    const timers = new DeadlineTimers<string>(recording);
    const at = 2.5 * MAX_TIMER_MS; // about 62 days
    timers.arm('lease', at, () => fired.push(clock.now()));
    expect(delays).toEqual([MAX_TIMER_MS]);
    clock.increment(MAX_TIMER_MS);
    expect([fired, timers.has('lease')]).toEqual([[], true]);
    clock.increment(MAX_TIMER_MS);
    clock.increment(at - 2 * MAX_TIMER_MS - 1);
    expect(fired).toEqual([]);
    clock.increment(1);
    expect(fired).toEqual([at]);
    expect(delays).toEqual([MAX_TIMER_MS, MAX_TIMER_MS, at - 2 * MAX_TIMER_MS]);
    expect(timers.size).toBe(0);
  });

  it('disarms a long timer between its steps', () => {
    const clock = new SimulatedClock();
    const fired: string[] = [];
    const timers = new DeadlineTimers<string>(clock);
    timers.arm('lease', 3 * MAX_TIMER_MS, () => fired.push('lease'));
    clock.increment(MAX_TIMER_MS + 5);
    expect(timers.disarm('lease')).toBe(true);
    clock.increment(3 * MAX_TIMER_MS);
    expect([fired, timers.size]).toEqual([[], 0]);
  });
});
