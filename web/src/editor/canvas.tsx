// The canvas: nodes and edges of the draft on @xyflow/react. Nodes are dragged into place,
// plugins dropped from the palette, edges drawn from a named output handle to an input handle;
// Delete removes what is selected.
import {
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import type { Connection, Edge, EdgeChange, NodeChange } from '@xyflow/react';
import { useEffect, useMemo, useState } from 'react';
import type { DragEvent } from 'react';
import type { PluginView } from '../types';
import { edgeKey, portOf } from './model';
import type { Draft, Point } from './model';
import { INPUT_HANDLE, NodeCard } from './node-card';
import type { CardNode } from './node-card';
import { portsOf, takesInput } from './ports';
import type { Problems } from './validation';

/** The drag data a palette entry carries: the plugin type. */
export const PLUGIN_DRAG_TYPE = 'application/x-workflow-plugin';

const NODE_TYPES = { card: NodeCard };

export interface Selection {
  readonly nodes: ReadonlySet<string>;
  readonly edges: ReadonlySet<number>;
}

export const NOTHING_SELECTED: Selection = { nodes: new Set(), edges: new Set() };

export interface CanvasProps {
  readonly draft: Draft;
  readonly problems: Problems;
  readonly plugins: ReadonlyMap<string, PluginView>;
  readonly selection: Selection;
  readonly onSelect: (selection: Selection) => void;
  /** Nodes moved; `done` when the drag (or the arrow key's move) has ended. */
  readonly onMove: (moved: Readonly<Record<string, Point>>, done: boolean) => void;
  readonly onAdd: (type: string, point: Point) => void;
  readonly onConnect: (source: string, port: string, target: string) => void;
  readonly onRemove: (selection: Selection) => void;
  /** Changes after each layout: the canvas then fits every node into view. */
  readonly layouts: number;
  /** A layout is being computed: nodes are about to move. */
  readonly arranging: boolean;
  /** The workflow opened with nodes its saved layout does not place: the first layout places them. */
  readonly placesOnOpen: boolean;
}

function Flow(props: CanvasProps) {
  const { draft, problems, plugins, selection } = props;
  const flow = useReactFlow();
  // A saved workflow is fitted into view once; an empty canvas keeps its scale as nodes come.
  const [fitOnOpen] = useState(draft.definition.nodes.length > 0);
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({});
  const { edges: definitionEdges } = draft.definition;
  const nodes = useMemo<CardNode[]>(
    () =>
      draft.definition.nodes.map((node) => {
        const size = measured[node.nodeId];
        return {
          id: node.nodeId,
          type: 'card',
          position: draft.positions[node.nodeId] ?? { x: 0, y: 0 },
          selected: selection.nodes.has(node.nodeId),
          ariaLabel: `Node ${node.nodeId}`,
          ...(size !== undefined && { measured: size }),
          data: {
            node,
            kind: plugins.get(node.type)?.kind,
            ports: portsOf(node, problems, plugins, definitionEdges),
            takesInput: takesInput(node, plugins),
            problems: problems.byNode.get(node.nodeId) ?? [],
          },
        };
      }),
    [draft, problems, plugins, selection, measured, definitionEdges],
  );
  const edges = useMemo<Edge[]>(
    () =>
      definitionEdges.map((edge, index) => {
        const port = portOf(edge);
        const faults = problems.byEdge.get(index) ?? [];
        const label = `${port === 'out' ? '' : port}${faults.length > 0 ? ' ⚠ problem' : ''}`;
        return {
          id: edgeKey(edge, index),
          source: edge.source,
          target: edge.target,
          sourceHandle: port,
          targetHandle: INPUT_HANDLE,
          selected: selection.edges.has(index),
          markerEnd: { type: MarkerType.ArrowClosed },
          ariaLabel: `Edge from ${edge.source} port ${port} to ${edge.target}`,
          className: faults.length > 0 ? 'edge-problem' : '',
          ...(label !== '' && { label }),
        };
      }),
    [definitionEdges, problems, selection],
  );
  // The layouts whose places the view has been fitted to: until then the view is about to jump.
  const [fitted, setFitted] = useState(0);
  useEffect(() => {
    const layouts = props.layouts;
    if (layouts === 0) return undefined;
    // After the nodes have moved to their new places.
    const frame = requestAnimationFrame(() => {
      void flow.fitView({ maxZoom: 1, duration: 0 }).then(() => {
        setFitted(layouts);
      });
    });
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [props.layouts, flow]);
  const edgeIndex = (id: string) => edges.findIndex((edge) => edge.id === id);

  const onNodesChange = (changes: NodeChange<CardNode>[]) => {
    const selected = new Set(selection.nodes);
    const removed = new Set<string>();
    let selectionChanged = false;
    const sizes: Record<string, { width: number; height: number }> = {};
    const moved: Record<string, Point> = {};
    let moving = false;
    for (const change of changes) {
      if (change.type === 'position' && change.position !== undefined) {
        // Whole pixels: what is saved then reads back exactly as the canvas showed it.
        moved[change.id] = { x: Math.round(change.position.x), y: Math.round(change.position.y) };
        moving ||= change.dragging === true;
      } else if (change.type === 'select') {
        selectionChanged = true;
        if (change.selected) selected.add(change.id);
        else selected.delete(change.id);
      } else if (change.type === 'remove') removed.add(change.id);
      else if (change.type === 'dimensions' && change.dimensions !== undefined) {
        sizes[change.id] = change.dimensions;
      }
    }
    if (Object.keys(moved).length > 0) props.onMove(moved, !moving);
    if (Object.keys(sizes).length > 0) setMeasured((before) => ({ ...before, ...sizes }));
    if (removed.size > 0) props.onRemove({ nodes: removed, edges: new Set() });
    else if (selectionChanged) props.onSelect({ nodes: selected, edges: selection.edges });
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    const selected = new Set(selection.edges);
    const removed = new Set<number>();
    let selectionChanged = false;
    for (const change of changes) {
      if (change.type !== 'select' && change.type !== 'remove') continue;
      const index = edgeIndex(change.id);
      if (index < 0) continue;
      if (change.type === 'select') {
        selectionChanged = true;
        if (change.selected) selected.add(index);
        else selected.delete(index);
      } else removed.add(index);
    }
    if (removed.size > 0) props.onRemove({ nodes: new Set(), edges: removed });
    else if (selectionChanged) props.onSelect({ nodes: selection.nodes, edges: selected });
  };
  const onConnect = (connection: Connection) => {
    props.onConnect(connection.source, connection.sourceHandle ?? 'out', connection.target);
  };
  const onDragOver = (event: DragEvent) => {
    if (event.dataTransfer.types.includes(PLUGIN_DRAG_TYPE)) {
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    }
  };
  const onDrop = (event: DragEvent) => {
    const type = event.dataTransfer.getData(PLUGIN_DRAG_TYPE);
    if (type === '') return;
    event.preventDefault();
    props.onAdd(type, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }));
  };
  // Until the first layout has placed them and the view has been fitted to it, nodes without a
  // saved place would show stacked at the origin: nothing is shown then. A layout that failed
  // shows them as they are.
  const placing = props.placesOnOpen && fitted === 0 && (props.arranging || props.layouts > 0);
  return (
    <div
      className="canvas"
      // Busy while nodes and view are about to move, so that nothing aims at them meanwhile.
      aria-busy={props.arranging || fitted !== props.layouts}
      data-placing={placing ? 'true' : undefined}
      onDragOver={onDragOver}
      onDrop={onDrop}
    >
      <ReactFlow<CardNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        deleteKeyCode={['Delete', 'Backspace']}
        isValidConnection={(connection) => connection.source !== connection.target}
        fitView={fitOnOpen}
        fitViewOptions={{ maxZoom: 1 }}
        defaultViewport={{ x: 0, y: 0, zoom: 1 }}
        minZoom={0.2}
        aria-label="Canvas"
      >
        <Background />
        <Controls />
      </ReactFlow>
      {draft.definition.nodes.length === 0 && (
        <p className="canvas-empty">
          The canvas is empty: drag a plugin here from the palette, or use its Add button.
        </p>
      )}
    </div>
  );
}

export function Canvas(props: CanvasProps) {
  return (
    <ReactFlowProvider>
      <Flow {...props} />
    </ReactFlowProvider>
  );
}
