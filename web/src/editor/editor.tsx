// The editor of one workflow: palette, canvas, outline, the selected node's form and the text
// view, all showing one draft; every change goes through the undo history and is validated live.
import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { PluginView, WorkflowDefinition } from '../types';
import { Canvas, NOTHING_SELECTED } from './canvas';
import type { Selection } from './canvas';
import { layout } from './layout';
import {
  addNode,
  connect,
  copyNodes,
  makeEdge,
  moveNodes,
  nextFreePoint,
  paste,
  record,
  redo,
  removeEdges,
  removeNodes,
  renameNode,
  settleLayout,
  setNodeConfig,
  startHistory,
  undo,
  withDefinition,
} from './model';
import type { Clipboard, Draft, History, Point } from './model';
import { NodeForm } from './node-form';
import { Outline } from './outline';
import { Palette } from './palette';
import { portsOf } from './ports';
import { SaveBar } from './save-bar';
import { TextView } from './text-view';
import { useLiveValidation } from './validation';

/** Gives every node without a place one below the others. */
function placeAll(draft: Draft): Draft {
  let positions = draft.positions;
  for (const node of draft.definition.nodes) {
    if (positions[node.nodeId] === undefined) {
      positions = { ...positions, [node.nodeId]: nextFreePoint({ ...draft, positions }) };
    }
  }
  return positions === draft.positions ? draft : { ...draft, positions };
}

/** Shortcuts are the editor's only outside text fields, where the keys keep their meaning. */
function typingIn(target: EventTarget): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/** Whether some node of the draft has no place yet: a layout must give it one. */
function unplaced(draft: Draft): boolean {
  return draft.definition.nodes.some((node) => draft.positions[node.nodeId] === undefined);
}

export function Editor(props: {
  readonly sessionId: string;
  readonly initial: Draft;
  readonly isNew: boolean;
  readonly plugins: readonly PluginView[];
}) {
  const [history, setHistory] = useState<History>(() => startHistory(props.initial));
  const [selection, setSelection] = useState<Selection>(NOTHING_SELECTED);
  const [clipboard, setClipboard] = useState<Clipboard | null>(null);
  const [layouts, setLayouts] = useState(0);
  /** Layouts asked for and not landed yet; the first is asked for as the editor opens. */
  const [placesOnOpen] = useState(() => unplaced(props.initial));
  const [arranging, setArranging] = useState(() => (placesOnOpen ? 1 : 0));
  const draft = history.present;
  const { definition } = draft;
  const problems = useLiveValidation(definition);
  const plugins = useMemo(
    () => new Map(props.plugins.map((plugin) => [plugin.type, plugin])),
    [props.plugins],
  );

  const change = (next: Draft) => {
    setHistory((before) => record(before, placeAll(next)));
  };
  // What the page opened, with the places the first layout gave: saving compares with it.
  const [opened, setOpened] = useState(props.initial);
  /**
   * Lays the graph out; positions in `kept` stay where they are. Counted in `arranging` by the
   * caller: as the editor opens for the first, by `arrange` for the others.
   */
  const lay = (kept: Draft['positions'], first: boolean) => {
    const counts = (nodeId: string) => {
      const node = definition.nodes.find((candidate) => candidate.nodeId === nodeId);
      return node === undefined ? 1 : portsOf(node, problems, plugins, definition.edges).length;
    };
    const start = draft.positions;
    const landed = () => {
      setArranging((count) => count - 1);
    };
    void layout(definition, counts).then(
      (laidOut) => {
        const positions = { ...laidOut, ...kept };
        setHistory((before) => settleLayout(before, definition, start, positions));
        if (first) setOpened({ ...props.initial, positions });
        setLayouts((count) => count + 1);
        landed();
      },
      (error: unknown) => {
        landed();
        throw error;
      },
    );
  };
  /** Lays out every node again: the Arrange button. */
  const arrange = () => {
    setArranging((count) => count + 1);
    lay({}, false);
  };
  // The first layout, once, for the nodes the saved layout does not place.
  const firstLayout = useEffectEvent(() => {
    if (unplaced(props.initial)) lay(props.initial.positions, true);
  });
  useEffect(() => {
    firstLayout();
  }, []);

  const add = (type: string, at?: Point) => {
    const added = addNode(draft, type, at ?? nextFreePoint(draft));
    change(added.draft);
    setSelection({ nodes: new Set([added.nodeId]), edges: new Set() });
  };
  const remove = (chosen: Selection) => {
    change(removeEdges(removeNodes(draft, chosen.nodes), chosen.edges));
    setSelection(NOTHING_SELECTED);
  };
  const link = (source: string, port: string, target: string) => {
    change(connect(draft, makeEdge(source, port, target)));
  };
  const copy = () => {
    const copied = copyNodes(draft, selection.nodes);
    if (copied !== null) setClipboard(copied);
  };
  const pasteNow = () => {
    if (clipboard === null) return;
    const pasted = paste(draft, clipboard);
    change(pasted.draft);
    setSelection({ nodes: new Set(pasted.nodeIds), edges: new Set() });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (typingIn(event.target) || !(event.ctrlKey || event.metaKey)) return;
    const key = event.key.toLowerCase();
    const actions: Record<string, (() => void) | undefined> = {
      z: () => {
        setHistory(event.shiftKey ? redo : undo);
      },
      y: () => {
        setHistory(redo);
      },
      c: copy,
      v: pasteNow,
    };
    const action = actions[key];
    if (action === undefined) return;
    event.preventDefault();
    action();
  };

  const [editing] = [...selection.nodes];
  const selectedNode = definition.nodes.find((node) => node.nodeId === editing);
  return (
    <div className="editor" onKeyDown={onKeyDown}>
      <SaveBar
        sessionId={props.sessionId}
        draft={draft}
        opened={opened}
        isNew={props.isNew}
        problems={problems}
        canUndo={history.past.length > 0}
        canRedo={history.future.length > 0}
        canCopy={selection.nodes.size > 0}
        canPaste={clipboard !== null}
        onUndo={() => {
          setHistory(undo);
        }}
        onRedo={() => {
          setHistory(redo);
        }}
        onCopy={copy}
        onPaste={pasteNow}
        onArrange={() => {
          arrange();
        }}
        onDescription={(description) => {
          change(withDefinition(draft, { ...definition, description }));
        }}
      />
      <div className="editor-body">
        <Palette
          plugins={props.plugins}
          onAdd={(type) => {
            add(type);
          }}
        />
        <Canvas
          draft={draft}
          problems={problems}
          plugins={plugins}
          selection={selection}
          onSelect={setSelection}
          onMove={(moved, done) => {
            setHistory((before) => moveNodes(before, moved, done));
          }}
          onAdd={add}
          onConnect={link}
          onRemove={remove}
          layouts={layouts}
          arranging={arranging > 0}
          placesOnOpen={placesOnOpen}
        />
        <aside className="inspector" aria-label="Inspector">
          {selectedNode === undefined ? (
            <p className="muted">Choose a node on the canvas or in the outline to edit it.</p>
          ) : (
            <NodeForm
              key={selectedNode.nodeId}
              node={selectedNode}
              plugin={plugins.get(selectedNode.type)}
              problems={problems.byNode.get(selectedNode.nodeId) ?? []}
              onConfig={(config) => {
                change(setNodeConfig(draft, selectedNode.nodeId, config));
              }}
              onRename={(nodeId) => {
                const renamed = renameNode(draft, selectedNode.nodeId, nodeId);
                if (renamed === draft) return false;
                change(renamed);
                setSelection({ nodes: new Set([nodeId]), edges: new Set() });
                return true;
              }}
              onDelete={() => {
                remove({ nodes: new Set([selectedNode.nodeId]), edges: new Set() });
              }}
            />
          )}
        </aside>
      </div>
      <div className="editor-lower">
        <Outline
          draft={draft}
          problems={problems}
          plugins={plugins}
          selected={selection.nodes}
          onEdit={(nodeId) => {
            setSelection({ nodes: new Set([nodeId]), edges: new Set() });
          }}
          onDeleteNode={(nodeId) => {
            remove({ nodes: new Set([nodeId]), edges: new Set() });
          }}
          onDeleteEdge={(index) => {
            remove({ nodes: new Set(), edges: new Set([index]) });
          }}
          onConnect={link}
        />
        <TextView
          definition={definition}
          onChange={(next: WorkflowDefinition) => {
            change(withDefinition(draft, next));
          }}
        />
      </div>
    </div>
  );
}
