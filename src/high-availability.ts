// High availability, composed (docs/high-availability.md): what it needs of the settings, the
// leader lease in the database the servers of a pair share, and the fence that keeps a server
// that lost the lease out of the shared execution log.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { AppError } from './core/index.js';
import { STORE_TYPE_KEYS } from './config/index.js';
import type { Settings } from './config/index.js';
import { Leadership } from './executions/index.js';
import type { LeadershipLogger } from './executions/index.js';
import { PostgresLeaderLease } from './stores/index.js';
import type { LeaseFence, PostgresDatabase } from './stores/index.js';

export interface HighAvailabilitySettings {
  readonly serverId: string;
  readonly durationMs: number;
  readonly renewIntervalMs: number;
}

/**
 * The settings of high availability, or none when it is off. Checked before the database is
 * opened: the servers of a pair share sessions, the execution log and checkpoints, so all
 * three stores must be the relational ones.
 */
export function highAvailabilityOf(settings: Settings): HighAvailabilitySettings | undefined {
  if (!settings['svc.ha.enabled']) return undefined;
  const missing = STORE_TYPE_KEYS.filter((key) => settings[key] !== 'postgres');
  if (missing.length > 0) {
    throw new AppError('SETTINGS_INVALID', {
      params: {
        detail: `svc.ha.enabled=true needs the relational-database stores, which the servers of the pair share: set ${missing.join(', ')} to postgres (the postgres profile sets all three)`,
      },
    });
  }
  const durationMs = settings['svc.ha.lease-duration'];
  const renewIntervalMs = settings['svc.ha.renew-interval'];
  if (renewIntervalMs <= 0 || renewIntervalMs * 2 > durationMs) {
    throw new AppError('SETTINGS_INVALID', {
      params: {
        detail: `svc.ha.renew-interval (${renewIntervalMs} ms) must be longer than 0 and at most half of svc.ha.lease-duration (${durationMs} ms), so that a failed renewal can be tried again before the lease expires`,
      },
    });
  }
  return {
    serverId:
      settings['svc.ha.server-id'] ??
      `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    durationMs,
    renewIntervalMs,
  };
}

export interface HighAvailability {
  readonly serverId: string;
  readonly lease: PostgresLeaderLease;
  readonly leadership: Leadership;
  /** For the execution log: writes only under this server's lease; a refusal fences it. */
  readonly fence: LeaseFence;
}

export function createHighAvailability(
  ha: HighAvailabilitySettings,
  db: PostgresDatabase,
  logger: LeadershipLogger,
): HighAvailability {
  const lease = new PostgresLeaderLease({
    db,
    serverId: ha.serverId,
    durationMs: ha.durationMs,
    // A statement slower than the interval is tried again at the next turn.
    timeoutMs: ha.renewIntervalMs,
  });
  const leadership = new Leadership({
    lease,
    durationMs: ha.durationMs,
    renewIntervalMs: ha.renewIntervalMs,
    logger,
  });
  return {
    serverId: ha.serverId,
    lease,
    leadership,
    fence: {
      current: () => lease.held,
      lost: () => {
        leadership.fence(
          'a write to the execution log was refused: another server holds the lease',
        );
      },
    },
  };
}
