// The editor's draft: a workflow definition with where each node sits on the canvas, the
// changes the canvas, outline and text view make to it, and the undo/redo history.
import type { DefinitionEdge, DefinitionNode, WorkflowDefinition } from '../types';

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface Draft {
  readonly definition: WorkflowDefinition;
  /** Canvas positions by node id; a node without one is placed by the next layout. */
  readonly positions: Readonly<Record<string, Point>>;
}

export interface History {
  readonly past: readonly Draft[];
  readonly present: Draft;
  readonly future: readonly Draft[];
  /** While nodes are being dragged: the draft before the drag began, which undo goes back to. */
  readonly moving?: Draft;
}

/** Undo goes back this many changes at most. */
const HISTORY_LIMIT = 200;

/** The port a node emits on unless an edge names another. */
export const DEFAULT_PORT = 'out';

export function emptyDraft(workflowId: string): Draft {
  return { definition: { workflowId, description: '', nodes: [], edges: [] }, positions: {} };
}

export function startHistory(draft: Draft): History {
  return { past: [], present: draft, future: [] };
}

/** The object without one key. */
export function withoutKey<T>(object: Readonly<Record<string, T>>, key: string): Record<string, T> {
  return Object.fromEntries(Object.entries(object).filter(([name]) => name !== key));
}

/** A change that undo can take back. */
export function record(history: History, next: Draft): History {
  if (next === history.present) return history;
  return {
    past: [...history.past, history.present].slice(-HISTORY_LIMIT),
    present: next,
    future: [],
  };
}

/**
 * Nodes moved to new places. While a drag goes on (`done` false) every step replaces the
 * present, so undo does not walk back through each mouse step; the step that ends it (the end
 * of a drag, or one press of an arrow key) records one change from where the nodes were before
 * the drag began. A drag that ends where it began records nothing.
 */
export function moveNodes(
  history: History,
  moved: Readonly<Record<string, Point>>,
  done: boolean,
): History {
  const before = history.moving ?? history.present;
  const present = {
    ...history.present,
    positions: { ...history.present.positions, ...moved },
  };
  if (!done) return { ...history, present, moving: before };
  const settled = { past: history.past, present, future: history.future };
  return samePositions(before.positions, present.positions)
    ? { ...settled, present: before }
    : record({ ...settled, present: before }, present);
}

export function samePositions(
  a: Readonly<Record<string, Point>>,
  b: Readonly<Record<string, Point>>,
): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    const [p, q] = [a[key], b[key]];
    return p !== undefined && q !== undefined && p.x === q.x && p.y === q.y;
  });
}

/**
 * A layout computed for `definition` while the present had the places `start`, landing now.
 * It is dropped if the definition changed meanwhile (another layout follows); a node moved
 * meanwhile stays where it was put, since a layout is computed apart from the page's events
 * and a user may drag before it lands. Steps of undo and redo with the same definition get
 * the layout's places for the nodes they had not placed, so going back to them stacks nothing.
 */
export function settleLayout(
  history: History,
  definition: WorkflowDefinition,
  start: Readonly<Record<string, Point>>,
  laidOut: Readonly<Record<string, Point>>,
): History {
  if (history.present.definition !== definition) return history;
  const positions: Record<string, Point> = { ...laidOut };
  for (const [nodeId, point] of Object.entries(history.present.positions)) {
    const was = start[nodeId];
    if (was === undefined || was.x !== point.x || was.y !== point.y) positions[nodeId] = point;
  }
  const placed = (draft: Draft): Draft =>
    draft.definition === definition
      ? { ...draft, positions: { ...laidOut, ...draft.positions } }
      : draft;
  return {
    past: history.past.map(placed),
    present: { ...history.present, positions },
    future: history.future.map(placed),
    ...(history.moving === undefined ? {} : { moving: placed(history.moving) }),
  };
}

/** The positions of the draft's nodes: what is saved as the workflow's layout. */
export function layoutOf(draft: Draft): Record<string, Point> {
  const layout: Record<string, Point> = {};
  for (const { nodeId } of draft.definition.nodes) {
    const point = draft.positions[nodeId];
    if (point !== undefined) layout[nodeId] = { x: point.x, y: point.y };
  }
  return layout;
}

/**
 * Whether two definitions say the same, whatever the order of their keys: the text view and
 * the forms build equal objects with keys in different orders.
 */
export function sameDefinition(a: WorkflowDefinition, b: WorkflowDefinition): boolean {
  return a === b || canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : item,
  );
}

export function undo(history: History): History {
  const previous = history.past.at(-1);
  if (previous === undefined) return history;
  return {
    past: history.past.slice(0, -1),
    present: previous,
    future: [history.present, ...history.future],
  };
}

export function redo(history: History): History {
  const [next, ...rest] = history.future;
  if (next === undefined) return history;
  return { past: [...history.past, history.present], present: next, future: rest };
}

/** A node id not yet in use: `base`, else `base-2`, `base-3`, ... */
export function freeNodeId(definition: WorkflowDefinition, base: string): string {
  const taken = new Set(definition.nodes.map((node) => node.nodeId));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The id a new node of a plugin type gets: the type in lower case with dashes. */
export function idForType(type: string): string {
  return type.toLowerCase().replaceAll('_', '-');
}

export function withDefinition(draft: Draft, definition: WorkflowDefinition): Draft {
  return { ...draft, definition };
}

export function addNode(draft: Draft, type: string, at: Point): { draft: Draft; nodeId: string } {
  const nodeId = freeNodeId(draft.definition, idForType(type));
  const node: DefinitionNode = { nodeId, type };
  return {
    nodeId,
    draft: {
      definition: { ...draft.definition, nodes: [...draft.definition.nodes, node] },
      positions: { ...draft.positions, [nodeId]: at },
    },
  };
}

export function removeNodes(draft: Draft, nodeIds: ReadonlySet<string>): Draft {
  if (nodeIds.size === 0) return draft;
  const positions = Object.fromEntries(
    Object.entries(draft.positions).filter(([nodeId]) => !nodeIds.has(nodeId)),
  );
  return {
    definition: {
      ...draft.definition,
      nodes: draft.definition.nodes.filter((node) => !nodeIds.has(node.nodeId)),
      edges: draft.definition.edges.filter(
        (edge) => !nodeIds.has(edge.source) && !nodeIds.has(edge.target),
      ),
    },
    positions,
  };
}

/** Renames a node and the ends of its edges; refused (unchanged) when the id is taken or empty. */
export function renameNode(draft: Draft, from: string, to: string): Draft {
  if (to === '' || to === from || draft.definition.nodes.some((node) => node.nodeId === to)) {
    return draft;
  }
  const rename = (id: string) => (id === from ? to : id);
  const positions: Record<string, Point> = {};
  for (const [id, point] of Object.entries(draft.positions)) positions[rename(id)] = point;
  return {
    definition: {
      ...draft.definition,
      nodes: draft.definition.nodes.map((node) =>
        node.nodeId === from ? { ...node, nodeId: to } : node,
      ),
      edges: draft.definition.edges.map((edge) => ({
        ...edge,
        source: rename(edge.source),
        target: rename(edge.target),
      })),
    },
    positions,
  };
}

export function setNodeConfig(
  draft: Draft,
  nodeId: string,
  config: Readonly<Record<string, unknown>>,
): Draft {
  return withDefinition(draft, {
    ...draft.definition,
    nodes: draft.definition.nodes.map((node) => {
      if (node.nodeId !== nodeId) return node;
      const { config: _old, ...rest } = node;
      return Object.keys(config).length === 0 ? rest : { ...rest, config: { ...config } };
    }),
  });
}

/** An edge as the definition keeps it: the default port is left out. */
export function makeEdge(source: string, port: string, target: string): DefinitionEdge {
  return port === DEFAULT_PORT ? { source, target } : { source, target, sourcePort: port };
}

export function portOf(edge: DefinitionEdge): string {
  return edge.sourcePort ?? DEFAULT_PORT;
}

export function sameEdge(a: DefinitionEdge, b: DefinitionEdge): boolean {
  return a.source === b.source && a.target === b.target && portOf(a) === portOf(b);
}

/** Adds an edge unless the same one is already there. */
export function connect(draft: Draft, edge: DefinitionEdge): Draft {
  if (draft.definition.edges.some((existing) => sameEdge(existing, edge))) return draft;
  return withDefinition(draft, {
    ...draft.definition,
    edges: [...draft.definition.edges, edge],
  });
}

export function removeEdges(draft: Draft, indexes: ReadonlySet<number>): Draft {
  if (indexes.size === 0) return draft;
  return withDefinition(draft, {
    ...draft.definition,
    edges: draft.definition.edges.filter((_edge, index) => !indexes.has(index)),
  });
}

/** A stable name for an edge on the canvas and in the outline. */
export function edgeKey(edge: DefinitionEdge, index: number): string {
  return `${edge.source}:${portOf(edge)}->${edge.target}#${index}`;
}

export function edgeLabel(edge: DefinitionEdge): string {
  return `${edge.source} (${portOf(edge)}) → ${edge.target}`;
}

/** What copy keeps: the nodes and the edges between them. */
export interface Clipboard {
  readonly nodes: readonly DefinitionNode[];
  readonly edges: readonly DefinitionEdge[];
  readonly positions: Readonly<Record<string, Point>>;
}

export function copyNodes(draft: Draft, nodeIds: ReadonlySet<string>): Clipboard | null {
  const nodes = draft.definition.nodes.filter((node) => nodeIds.has(node.nodeId));
  if (nodes.length === 0) return null;
  const positions: Record<string, Point> = {};
  for (const node of nodes) {
    const point = draft.positions[node.nodeId];
    if (point !== undefined) positions[node.nodeId] = point;
  }
  const edges = draft.definition.edges.filter(
    (edge) => nodeIds.has(edge.source) && nodeIds.has(edge.target),
  );
  return { nodes: structuredClone(nodes), edges: structuredClone(edges), positions };
}

/** Pastes copies under new ids, shifted down and right; answers the draft and the new ids. */
export function paste(draft: Draft, clipboard: Clipboard): { draft: Draft; nodeIds: string[] } {
  let definition = draft.definition;
  const positions = { ...draft.positions };
  const renamed = new Map<string, string>();
  for (const node of clipboard.nodes) {
    const nodeId = freeNodeId(definition, `${node.nodeId}-copy`);
    renamed.set(node.nodeId, nodeId);
    definition = { ...definition, nodes: [...definition.nodes, { ...node, nodeId }] };
    const point = clipboard.positions[node.nodeId];
    if (point !== undefined) positions[nodeId] = { x: point.x + 40, y: point.y + 40 };
  }
  const edges = clipboard.edges.map((edge) => ({
    ...edge,
    source: renamed.get(edge.source) ?? edge.source,
    target: renamed.get(edge.target) ?? edge.target,
  }));
  definition = { ...definition, edges: [...definition.edges, ...edges] };
  return { draft: { definition, positions }, nodeIds: [...renamed.values()] };
}

/** Where a node added without a place goes: below the lowest node. */
export function nextFreePoint(draft: Draft): Point {
  const points = Object.values(draft.positions);
  if (points.length === 0) return { x: 40, y: 40 };
  return { x: Math.min(...points.map((p) => p.x)), y: Math.max(...points.map((p) => p.y)) + 140 };
}
