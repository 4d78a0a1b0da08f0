// Rule supervisors (SPEC Events 7, CONTRACT section 5): on events of a kind, when a JSONata
// condition over the event holds, they issue a command to the run or the node as
// themselves. Each has a bounded queue: a supervisor too slow to keep up loses events,
// counted by `svc.tracker.dropped{kind=supervisor}`; runs never wait for it.
import type { SupervisorEntry, SupervisorRule } from '../config/index.js';
import { messageOf } from '../core/index.js';
import type { ExecutionEvent, ExecutionManager } from '../executions/index.js';
import type { Meters } from '../observability/index.js';
import { compileExpression } from '../plugin-api/index.js';
import type { CompiledExpression } from '../plugin-api/index.js';
import type { AuditLog } from './audit-log.js';
import type { EventBus, Subscription } from './event-bus.js';

const RUN_ACTIONS = new Set(['PAUSE', 'RESUME', 'STEP', 'STOP']);
const NODE_ACTIONS = new Set(['PAUSE', 'RESUME', 'STEP', 'STOP', 'SKIP', 'UNSKIP']);

interface CompiledRule {
  readonly rule: SupervisorRule;
  readonly when: CompiledExpression | null;
}

/** The commands a supervisor issues; what they answer is not its concern. */
export type SupervisorCommands = {
  readonly [K in 'stop' | 'control' | 'controlNode']: (
    ...args: Parameters<ExecutionManager[K]>
  ) => unknown;
};

export interface RuleSupervisorOptions {
  readonly bus: EventBus;
  readonly executions: SupervisorCommands;
  readonly audit: AuditLog;
  readonly meters: Meters;
  /** Events held for one supervisor before the oldest are dropped. */
  readonly queueSize?: number;
}

/** Starts every rule supervisor of the settings; the answer stops them. */
export function startRuleSupervisors(
  entries: readonly SupervisorEntry[],
  options: RuleSupervisorOptions,
): Subscription {
  const subscriptions = entries.flatMap((entry) =>
    entry.type === 'rule' ? [new RuleSupervisor(entry.id, entry.rules, options).start()] : [],
  );
  return {
    close: () => {
      for (const subscription of subscriptions) subscription.close();
    },
  };
}

class RuleSupervisor {
  readonly #id: string;
  readonly #rules: readonly CompiledRule[];
  readonly #options: RuleSupervisorOptions;
  readonly #queue: ExecutionEvent[] = [];
  #working = false;

  constructor(id: string, rules: readonly SupervisorRule[], options: RuleSupervisorOptions) {
    this.#id = id;
    this.#options = options;
    this.#rules = rules.map((rule) => ({
      rule,
      // Under the same budget as a node's expressions: a rule's condition cannot hold the server.
      when: rule.when === null ? null : compileExpression(rule.when),
    }));
  }

  start(): Subscription {
    const kinds = new Set(this.#rules.map((compiled) => compiled.rule.on));
    return this.#options.bus.subscribe(
      // A command of this supervisor is not an event it reacts to: a rule on control events
      // would otherwise answer its own commands.
      (event) =>
        kinds.has(event.kind) &&
        !(
          (event.kind === 'control.applied' || event.kind === 'control.refused') &&
          event.actor === this.#id
        ),
      (numbered) => {
        this.#queue.push(numbered.event);
        if (this.#queue.length > (this.#options.queueSize ?? 1000)) {
          this.#queue.shift();
          this.#options.meters.count('svc.tracker.dropped', { kind: 'supervisor' });
        }
        void this.#drain();
      },
    );
  }

  async #drain(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    try {
      for (let event = this.#queue.shift(); event !== undefined; event = this.#queue.shift()) {
        for (const compiled of this.#rules) {
          if (compiled.rule.on === event.kind && (await this.#holds(compiled, event))) {
            this.#issue(compiled.rule, event);
          }
        }
      }
    } finally {
      this.#working = false;
    }
  }

  async #holds(compiled: CompiledRule, event: ExecutionEvent): Promise<boolean> {
    if (compiled.when === null) return true;
    try {
      const value: unknown = await compiled.when.evaluate(event);
      return Array.isArray(value) ? value.length > 0 : Boolean(value);
    } catch {
      return false;
    }
  }

  #issue(rule: SupervisorRule, event: ExecutionEvent): void {
    const { executions, audit, meters } = this.#options;
    const command = rule.command.toUpperCase();
    const nodeId = rule.target === 'node' ? (event.nodeId ?? null) : null;
    const target = { command, executionId: event.executionId, nodeId, actor: this.#id };
    try {
      if (event.executionId === null) throw new Error(`The event names no execution`);
      if (rule.target === 'node') {
        if (nodeId === null || !NODE_ACTIONS.has(command))
          throw new Error(`Cannot ${command} a node`);
        executions.controlNode(event.executionId, nodeId, command as 'PAUSE');
      } else if (command === 'STOP') {
        executions.stop(event.executionId, `Stopped by supervisor ${this.#id}`);
      } else if (RUN_ACTIONS.has(command)) {
        executions.control(event.executionId, command as 'PAUSE' | 'RESUME' | 'STEP');
      } else {
        throw new Error(`Unknown command ${command}`);
      }
      audit.record({ ...target, outcome: 'APPLIED' });
      meters.count('svc.supervisor.commands', { id: this.#id, outcome: 'APPLIED' });
    } catch (error) {
      audit.record({
        ...target,
        outcome: 'REFUSED',
        reason: messageOf(error),
      });
      meters.count('svc.supervisor.commands', { id: this.#id, outcome: 'REFUSED' });
    }
  }
}
