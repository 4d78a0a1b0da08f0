// The run's clock and the nodes' clocks below it: a pause freezes the timers below and a
// resume gives each the time it had left (SPEC States and transitions rule 1).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/index.js';
import { MAX_TIMER_STEP_MS, ManualScheduler, RunClock } from './run-clock.js';

function clocks(): { time: ManualScheduler; run: RunClock } {
  const manual = new ManualClock();
  const time = new ManualScheduler(manual);
  return { time, run: new RunClock(manual, time) };
}

describe('RunClock (SPEC States and transitions rule 1)', () => {
  it('gives a timer frozen by a pause the time it had left when the clock resumes', () => {
    const { time, run } = clocks();
    const fired: number[] = [];
    run.after(1000, () => fired.push(1));
    time.advance(600);
    run.pause();
    time.advance(1_000_000);
    run.resume();
    time.advance(399);
    expect(fired).toEqual([]);
    time.advance(1);
    expect(fired).toEqual([1]);
    expect(run.pausedMs).toBe(1_000_000);
  });

  it('freezes the timers of every child clock while the run clock is paused', () => {
    const { time, run } = clocks();
    const node = run.child();
    const fired: string[] = [];
    node.after(100, () => fired.push('node'));
    run.pause();
    expect(node.frozen).toBe(true);
    expect(time.pending).toBe(0);
    // A clock made while the run is paused starts frozen.
    run.child().after(10, () => fired.push('late'));
    time.advance(10_000);
    expect(fired).toEqual([]);
    run.resume();
    time.advance(100);
    expect(fired).toEqual(['late', 'node']);
  });

  it('pauses one child clock alone, and keeps it frozen when the run clock resumes', () => {
    const { time, run } = clocks();
    const paused = run.child();
    const other = run.child();
    const fired: string[] = [];
    paused.after(100, () => fired.push('paused'));
    other.after(100, () => fired.push('other'));
    paused.pause();
    run.pause();
    run.resume();
    time.advance(100);
    expect(fired).toEqual(['other']);
    paused.resume();
    time.advance(100);
    expect(fired).toEqual(['other', 'paused']);
  });

  it('runs an independent child clock while the run clock is paused, and freezes it again after', () => {
    const { time, run } = clocks();
    const node = run.child();
    const fired: number[] = [];
    run.pause();
    node.setIndependent(true);
    node.after(100, () => fired.push(1));
    node.after(300, () => fired.push(3));
    time.advance(100);
    expect(fired).toEqual([1]);
    node.setIndependent(false);
    time.advance(1000);
    expect(fired).toEqual([1]);
    run.resume();
    time.advance(200);
    expect(fired).toEqual([1, 3]);
  });

  it('cancels the timers of its children when disposed', () => {
    const { time, run } = clocks();
    run.child().after(10, () => undefined);
    run.after(10, () => undefined);
    run.dispose();
    expect(time.pending).toBe(0);
  });
});

describe('RunClock timers longer than a platform timer can hold', () => {
  it('fires a 3e9 ms timer at 3e9 ms and not before, in steps', () => {
    const manual = new ManualClock();
    const time = new ManualScheduler(manual);
    // Node fires any timer above 2^31-1 ms after 1 ms: no armed step may be longer.
    const armed: number[] = [];
    const run = new RunClock(manual, {
      setTimeout: (callback, ms, timer) => {
        armed.push(ms);
        return time.setTimeout(callback, ms, timer);
      },
      clearTimeout: (handle) => {
        time.clearTimeout(handle);
      },
    });
    const fired: number[] = [];
    run.after(3e9, () => fired.push(1));
    time.advance(2 ** 31);
    expect(fired).toEqual([]);
    time.advance(3e9 - 2 ** 31 - 1);
    expect(fired).toEqual([]);
    time.advance(1);
    expect(fired).toEqual([1]);
    expect(armed).toEqual([MAX_TIMER_STEP_MS, 3e9 - MAX_TIMER_STEP_MS]);
  });

  it('keeps the time left of a long timer across a pause', () => {
    const { time, run } = clocks();
    const fired: number[] = [];
    run.after(5e9, () => fired.push(1));
    time.advance(3e9);
    run.pause();
    time.advance(1e10);
    run.resume();
    time.advance(2e9 - 1);
    expect(fired).toEqual([]);
    time.advance(1);
    expect(fired).toEqual([1]);
  });
});
