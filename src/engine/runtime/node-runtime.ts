// The plugin's runtime for one node of a run: made from the node's resolved configuration, or
// asked of the placement port for a placed node; a configuration that cannot be resolved gives
// a runtime that fails every message, so that onError decides what happens next.
import { StepFailure } from '../../plugin-api/index.js';
import type { NodeRuntime } from '../../plugin-api/index.js';
import type { PlannedNode } from './plan.js';
import type { RunOptions } from './run-ports.js';

export function createNodeRuntime(node: PlannedNode, options: RunOptions): NodeRuntime {
  const substitute = options.substitute?.(node);
  if (substitute !== undefined) return substitute;
  const pool = node.settings.placement;
  if (pool !== undefined) return placedRuntime(node, pool, options);
  const services = options.services;
  const setup = {
    nodeId: node.nodeId,
    sessionMemory: services.sessionMemory,
  };
  const resolved = services.resolveConfig?.(node.config) ?? { ok: true, config: node.config };
  if (resolved.ok) return node.descriptor.createRuntime(resolved.config, setup);
  // SPEC Variables and secrets: a blocked or unknown name fails each message like a plugin
  // error (never retried), so onError decides what happens next.
  return failingRuntime(node, resolved.error);
}

/**
 * A placed node's runtime comes from the placement port, with its configuration unresolved.
 * Validation lets only processors be placed, so a per-message runtime fits every one.
 */
function placedRuntime(node: PlannedNode, pool: string, options: RunOptions): NodeRuntime {
  const placement = options.services.placement;
  if (placement === undefined) {
    return failingRuntime(
      node,
      `Node '${node.nodeId}' is placed in pool '${pool}', but this server runs no remote workers`,
    );
  }
  return placement.runtimeFor({
    executionId: options.executionId,
    sessionId: options.sessionId,
    workflowId: options.workflowId,
    nodeId: node.nodeId,
    type: node.type,
    pool,
    config: node.config,
    startPayload: options.startPayload,
  });
}

/** Fails each message (or, for a trigger, its stream) with `failure`, never retried. */
function failingRuntime(node: PlannedNode, failure: string): NodeRuntime {
  const fail = (): never => {
    throw StepFailure.nonRetryable(failure);
  };
  return node.kind === 'trigger' ? { run: fail } : { process: fail };
}
