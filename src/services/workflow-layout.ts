// The rules of a workflow's layout (docs/ui.md, "Layout"): where an editor placed the nodes of
// the current version. A layout is refused whole rather than trimmed, so a client that sends a
// stale node id learns of it instead of losing a position silently.
import { z } from 'zod';
import type { FieldError } from '../core/index.js';
import type { NodePosition, WorkflowDefinition, WorkflowLayout } from '../engine/index.js';

/** As many entries as a workflow may have nodes (SPEC "Limits": 500 nodes per workflow). */
export const MAX_LAYOUT_ENTRIES = 500;

// JSON has no NaN or Infinity, but `1e999` parses to Infinity: zod's number refuses it too.
const coordinate = (axis: string) =>
  z.number({ error: `Position ${axis} must be a finite number` });

/** PUT body of a layout. Strict, as every request body: SPEC rejects unknown fields. */
export const workflowLayoutBodySchema = z.strictObject({
  positions: z.record(z.string(), z.strictObject({ x: coordinate('x'), y: coordinate('y') }), {
    error: 'Positions must be an object of positions by node id',
  }),
});

/** What reading or saving a layout answers. */
export interface LayoutView {
  readonly sessionId: string;
  readonly workflowId: string;
  /** The version whose nodes the positions belong to: the current one. */
  readonly version: number;
  readonly positions: WorkflowLayout;
}

/** Why `positions` cannot be the layout of `definition`; empty when it can. */
export function layoutErrors(
  positions: Readonly<Record<string, NodePosition>>,
  definition: WorkflowDefinition,
): FieldError[] {
  const entries = Object.keys(positions);
  if (entries.length > MAX_LAYOUT_ENTRIES) {
    return [
      {
        field: 'positions',
        message: `Positions must have at most ${MAX_LAYOUT_ENTRIES} entries, not ${entries.length}`,
      },
    ];
  }
  const nodes = new Set(definition.nodes.map((node) => node.nodeId));
  return entries
    .filter((nodeId) => !nodes.has(nodeId))
    .map((nodeId) => ({
      field: `positions.${nodeId}`,
      message: `Node '${nodeId}' is not in the current version of the workflow`,
    }));
}

/**
 * The positions of `layout` that belong to nodes of `definition`: a new version keeps where
 * its remaining nodes were and forgets the removed ones. Undefined stays undefined.
 */
export function layoutFor(
  layout: WorkflowLayout | undefined,
  definition: WorkflowDefinition,
): WorkflowLayout | undefined {
  if (layout === undefined) return undefined;
  const nodes = new Set(definition.nodes.map((node) => node.nodeId));
  return Object.fromEntries(Object.entries(layout).filter(([nodeId]) => nodes.has(nodeId)));
}
