// The outline: the draft's nodes and edges as lists, doing with the keyboard what the canvas
// does with the mouse: choose a node to edit, delete it, connect an output port to a node.
import { useId, useState } from 'react';
import type { SubmitEvent } from 'react';
import type { PluginView } from '../types';
import { VirtualList } from '../virtual-list';
import { ProblemList } from './form-fields';
import { edgeLabel } from './model';
import type { Draft } from './model';
import { portsOf, takesInput } from './ports';
import type { Problems } from './validation';

/** Height of an outline row with its buttons, before it is measured. */
const ROW_ESTIMATE = 34;

function count(problems: readonly unknown[] | undefined): string {
  const n = problems?.length ?? 0;
  if (n === 0) return '✓ no problems';
  return n === 1 ? '⚠ 1 problem' : `⚠ ${n} problems`;
}

function Choice(props: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly unset?: string;
  readonly children: readonly string[];
}) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => {
          props.onChange(event.target.value);
        }}
      >
        {props.unset !== undefined && <option value="">{props.unset}</option>}
        {props.children.map((name) => (
          <option key={name}>{name}</option>
        ))}
      </select>
    </>
  );
}

function ConnectForm(props: {
  readonly draft: Draft;
  readonly problems: Problems;
  readonly plugins: ReadonlyMap<string, PluginView>;
  readonly onConnect: (source: string, port: string, target: string) => void;
}) {
  const id = useId();
  const { nodes, edges } = props.draft.definition;
  const [source, setSource] = useState('');
  const [port, setPort] = useState('');
  const [target, setTarget] = useState('');
  const from = nodes.find((node) => node.nodeId === source);
  const ports = from === undefined ? [] : portsOf(from, props.problems, props.plugins, edges);
  const chosenPort = ports.includes(port) ? port : (ports[0] ?? '');
  const targets = nodes.filter((node) => node.nodeId !== source && takesInput(node, props.plugins));
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (source === '' || target === '' || chosenPort === '') return;
    props.onConnect(source, chosenPort, target);
  };
  return (
    <form className="connect" onSubmit={submit} aria-label="Connect nodes">
      <Choice id={`${id}-from`} label="From" value={source} onChange={setSource} unset="(node)">
        {nodes.map((node) => node.nodeId)}
      </Choice>
      <Choice id={`${id}-port`} label="Port" value={chosenPort} onChange={setPort}>
        {ports}
      </Choice>
      <Choice id={`${id}-to`} label="To" value={target} onChange={setTarget} unset="(node)">
        {targets.map((node) => node.nodeId)}
      </Choice>
      <button type="submit" disabled={source === '' || target === '' || chosenPort === ''}>
        Connect
      </button>
    </form>
  );
}

export function Outline(props: {
  readonly draft: Draft;
  readonly problems: Problems;
  readonly plugins: ReadonlyMap<string, PluginView>;
  readonly selected: ReadonlySet<string>;
  readonly onEdit: (nodeId: string) => void;
  readonly onDeleteNode: (nodeId: string) => void;
  readonly onDeleteEdge: (index: number) => void;
  readonly onConnect: (source: string, port: string, target: string) => void;
}) {
  const { nodes, edges } = props.draft.definition;
  return (
    <section className="outline" aria-label="Outline">
      <ProblemList label="Problems of the workflow" problems={props.problems.general} />
      <h3>Nodes</h3>
      {nodes.length === 0 && <p className="muted">No nodes yet.</p>}
      <VirtualList
        label="Nodes"
        count={nodes.length}
        estimate={ROW_ESTIMATE}
        rowKey={(index) => nodes[index]?.nodeId ?? index}
        row={(index) => {
          const node = nodes[index];
          return node === undefined ? null : (
            <>
              <span>
                <strong>{node.nodeId}</strong> {node.type} ·{' '}
                {count(props.problems.byNode.get(node.nodeId))}
                {props.selected.has(node.nodeId) && ' · editing'}
              </span>
              <button
                type="button"
                onClick={() => {
                  props.onEdit(node.nodeId);
                }}
              >
                Edit {node.nodeId}
              </button>
              <button
                type="button"
                onClick={() => {
                  props.onDeleteNode(node.nodeId);
                }}
              >
                Delete {node.nodeId}
              </button>
            </>
          );
        }}
        className="outline-list"
      />
      <h3>Edges</h3>
      {edges.length === 0 && <p className="muted">No edges yet.</p>}
      <VirtualList
        label="Edges"
        count={edges.length}
        estimate={ROW_ESTIMATE}
        rowKey={(index) => {
          const edge = edges[index];
          return edge === undefined ? index : `${edgeLabel(edge)}#${String(index)}`;
        }}
        row={(index) => {
          const edge = edges[index];
          if (edge === undefined) return null;
          const problems = props.problems.byEdge.get(index);
          return (
            <>
              <span>
                {edgeLabel(edge)} · {count(problems)}
                {problems?.map((problem) => (
                  <span key={`${problem.field}:${problem.message}`} className="field-problems">
                    {' '}
                    {problem.message}
                  </span>
                ))}
              </span>
              <button
                type="button"
                onClick={() => {
                  props.onDeleteEdge(index);
                }}
              >
                Delete edge {edgeLabel(edge)}
              </button>
            </>
          );
        }}
        className="outline-list"
      />
      <ConnectForm
        draft={props.draft}
        problems={props.problems}
        plugins={props.plugins}
        onConnect={props.onConnect}
      />
    </section>
  );
}
