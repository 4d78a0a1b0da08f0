// Ending this server's part in running executions: a graceful shutdown (SPEC "Limits":
// shutdown timeout) and fencing, when high availability takes the leader lease away.
import type { Meters } from '../observability/index.js';
import { REFUSAL_MESSAGES } from './admission.js';
import type { AdmissionQueue } from './admission-queue.js';
import type { ExecutionJournal } from './execution-journal.js';
import type { LeaderRole } from './leadership.js';
import type { LiveRuns } from './live-runs.js';

/** What shutting down and fencing act on. */
export interface ShutdownParts {
  readonly queue: AdmissionQueue;
  readonly runs: LiveRuns;
  readonly meters: Meters;
  readonly journal: ExecutionJournal | undefined;
  readonly leadership: LeaderRole | undefined;
}

/** Where a shutdown says what it waits for and what it stopped (a pino logger fits). */
export interface ShutdownLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Shown in full up to this many; a larger stop names the first ones and counts the rest. */
const IDS_NAMED = 20;

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function named(ids: readonly string[]): string {
  const shown = ids.slice(0, IDS_NAMED).join(', ');
  return ids.length > IDS_NAMED ? `${shown} and ${ids.length - IDS_NAMED} more` : shown;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

const SHUTTING_DOWN = REFUSAL_MESSAGES.shutdown;

/** Settles when `promise` does, or after `ms`, whichever comes first. */
async function atMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  await Promise.race([promise, grace]);
  clearTimeout(timer);
}

/**
 * SPEC graceful shutdown: (1) stop admitting and refuse the starts still waiting, (2) give
 * running executions `graceMs` to finish, (3) release the leader lease at once when high
 * availability is on, (4) flush the execution log, waiting at most `flushMs`. What still
 * runs then is stopped without an end in the log, so the next start marks it ABORTED.
 */
export async function shutdown(
  parts: ShutdownParts,
  graceMs: number,
  flushMs: number,
  logger?: ShutdownLogger,
): Promise<void> {
  const { queue, runs, meters, journal, leadership } = parts;
  const refused = queue.close(SHUTTING_DOWN);
  if (refused > 0) {
    meters.count('svc.executions.rejected', { reason: 'shutdown' }, refused);
    logger?.info({ refused }, `Refused ${counted(refused, 'start')} waiting in the queue`);
  }
  // An operator waiting on a stop sees why it takes as long as it does.
  const running = runs.executionIds();
  if (running.length > 0) {
    logger?.info(
      { executions: running.length, timeoutMs: graceMs },
      `Waiting up to ${seconds(graceMs)} for ${counted(running.length, 'running execution')}`,
    );
  }
  await atMost(runs.finished(), graceMs);
  const left = runs.executionIds();
  if (running.length > 0 && left.length === 0) {
    logger?.info({ executions: running.length }, 'Every running execution finished');
  }
  if (leadership !== undefined) {
    // Once the lease is released the standby may take over and recover (or auto-resume) the
    // runs still going: they stop first, and their ends stay out of the log, so that the new
    // leader marks them ABORTED rather than both servers running them.
    journal?.seal();
    runs.stopEach(SHUTTING_DOWN);
    await leadership.release();
    logger?.info({}, 'Released the leader lease');
  }
  await journal?.close(flushMs);
  await runs.stopAll(SHUTTING_DOWN);
  if (left.length > 0) {
    logger?.warn(
      { executionIds: left },
      `Stopped ${counted(left.length, 'execution')} still running after ${seconds(graceMs)}: ${named(left)}` +
        (journal?.durable === true ? ' (ABORTED at the next start, to recover)' : ''),
    );
  }
}

/**
 * Fencing (high availability): this server lost the leader lease and must stop acting as the
 * leader at once. Nothing more reaches the shared execution log, not even the ends of its
 * runs, which are stopped; the server that leads now marks them ABORTED and can recover them.
 * Starts still waiting end too. Resolves once every run has ended.
 */
export async function fence(parts: ShutdownParts, reason: string): Promise<void> {
  const abandoning = parts.journal?.abandon();
  const message = `This server stopped leading: ${reason}`;
  parts.queue.close(message);
  await Promise.all([abandoning, parts.runs.stopAll(message)]);
}
