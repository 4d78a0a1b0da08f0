import { describe, expect, it } from 'vitest';
import { waitUntil } from './testing/index.js';
import { Leadership } from './leadership.js';
import type { LeaderLease, LeadershipHooks } from './leadership.js';

/** A lease held in memory: `holder` says who has it; a test takes it away or breaks it. */
class FakeLease implements LeaderLease {
  holder: 'me' | 'other' | null = null;
  /** While set, every statement fails as a database that went away would. */
  broken: Error | undefined;
  acquired = 0;
  released = 0;

  acquire(): Promise<boolean> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    if (this.holder === 'other') return Promise.resolve(false);
    this.holder = 'me';
    this.acquired++;
    return Promise.resolve(true);
  }

  renew(): Promise<boolean> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    return Promise.resolve(this.holder === 'me');
  }

  release(): Promise<void> {
    this.released++;
    if (this.holder === 'me') this.holder = null;
    return Promise.resolve();
  }
}

const silent = { info() {}, warn() {}, error() {} };

function leadership(lease: FakeLease, durationMs = 200, renewIntervalMs = 20): Leadership {
  return new Leadership({ lease, durationMs, renewIntervalMs, logger: silent });
}

interface Recorded {
  readonly hooks: LeadershipHooks;
  readonly events: string[];
}

function recording(recover: () => Promise<void> = () => Promise.resolve()): Recorded {
  const events: string[] = [];
  return {
    events,
    hooks: {
      recover: async () => {
        events.push('recover');
        await recover();
      },
      lead: () => events.push('lead'),
      fenced: (reason) => events.push(`fenced: ${reason}`),
    },
  };
}

/** Waits, by the real timers the role renews on, until `check` holds. */
const until = (check: () => boolean): Promise<void> =>
  waitUntil(check, 'the leadership state', 2_000);

/** Lets three renewal intervals (20 ms) pass, to prove that the role takes nothing in them. */
const threeRenewalIntervals = (): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, 60));

describe('leadership of a high-availability pair', () => {
  it('takes a free lease, recovers the shared log and only then leads', async () => {
    const lease = new FakeLease();
    const role = leadership(lease);
    const { hooks, events } = recording(() => {
      // Still recovering: starts must be refused until the log is read.
      expect(role.isLeader).toBe(false);
      expect(role.state).toBe('electing');
      return Promise.resolve();
    });
    await role.start(hooks);
    expect(role.isLeader).toBe(true);
    expect(events).toEqual(['recover', 'lead']);
    await role.release();
  });

  it('stays a standby while another server holds the lease and takes it once it is free', async () => {
    const lease = new FakeLease();
    lease.holder = 'other';
    const role = leadership(lease);
    const { hooks, events } = recording();
    await role.start(hooks);
    expect(role.state).toBe('standby');
    expect(role.isLeader).toBe(false);
    lease.holder = null;
    await until(() => role.isLeader);
    expect(events).toEqual(['recover', 'lead']);
    await role.release();
  });

  it('keeps trying while the database does not answer', async () => {
    const lease = new FakeLease();
    lease.broken = new Error('connection refused');
    const role = leadership(lease);
    await role.start(recording().hooks);
    expect(role.state).toBe('standby');
    lease.broken = undefined;
    await until(() => role.isLeader);
    await role.release();
  });

  it('stops leading at once when a renewal finds the lease taken (fencing)', async () => {
    const lease = new FakeLease();
    const role = leadership(lease);
    const { hooks, events } = recording();
    await role.start(hooks);
    lease.holder = 'other';
    await until(() => role.state === 'fenced');
    expect(role.isLeader).toBe(false);
    expect(events.at(-1)).toBe('fenced: the leader lease expired or was taken by another server');
    // Fenced for good: a free lease is not taken again by this process.
    lease.holder = null;
    await threeRenewalIntervals();
    expect(lease.acquired).toBe(1);
  });

  it('stops leading when the lease cannot be renewed before it expires, by its own clock', async () => {
    const lease = new FakeLease();
    const role = leadership(lease, 150, 20);
    const { hooks, events } = recording();
    await role.start(hooks);
    const brokenAt = Date.now();
    lease.broken = new Error('the database went away');
    await until(() => role.state === 'fenced');
    // Not before the lease could have expired, and not much after.
    const waited = Date.now() - brokenAt;
    expect(waited).toBeGreaterThanOrEqual(100);
    expect(waited).toBeLessThan(1_000);
    expect(events.at(-1)).toBe('fenced: the leader lease could not be renewed before it expired');
  });

  it('stops leading when the recovery after taking the lease fails', async () => {
    const lease = new FakeLease();
    const role = leadership(lease);
    const { hooks, events } = recording(() => Promise.reject(new Error('log unreadable')));
    await role.start(hooks);
    expect(role.state).toBe('fenced');
    expect(events).toEqual([
      'recover',
      'fenced: the recovery after taking the leader lease failed: log unreadable',
    ]);
  });

  it('releases the lease at once on shutdown and tries no more (SPEC graceful shutdown step 3)', async () => {
    const lease = new FakeLease();
    const role = leadership(lease);
    const { hooks, events } = recording();
    await role.start(hooks);
    await role.release();
    expect(role.state).toBe('stopped');
    expect(lease.holder).toBeNull();
    await threeRenewalIntervals();
    expect(lease.acquired).toBe(1);
    expect(events).toEqual(['recover', 'lead']);
  });

  it('lets a standby that stops take nothing more', async () => {
    const lease = new FakeLease();
    lease.holder = 'other';
    const role = leadership(lease);
    await role.start(recording().hooks);
    await role.release();
    lease.holder = null;
    await threeRenewalIntervals();
    expect(lease.acquired).toBe(0);
    expect(role.state).toBe('stopped');
  });
});
