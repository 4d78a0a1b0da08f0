// The form of one node: its id, its plugin's settings (generated from the JSON Schema) and
// the engine's settings, each field with the problems the validate call found in it.
import { useId, useState } from 'react';
import type { DefinitionNode, FieldProblem, PluginView } from '../types';
import { EngineForm } from './engine-form';
import { ProblemList } from './form-fields';
import { ENGINE_KEYS, SchemaForm } from './schema-form';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Problems no field of the form shows: the node's type, or a key the schema does not name. */
function unplaced(problems: readonly FieldProblem[], plugin: PluginView | undefined) {
  const properties = isObject(plugin?.configSchema.properties)
    ? Object.keys(plugin.configSchema.properties)
    : [];
  const keys = [...properties, ...ENGINE_KEYS];
  return problems.filter(
    (problem) => !keys.some((key) => new RegExp(`^config\\.${key}(?:$|[.[])`).test(problem.field)),
  );
}

function NodeIdField(props: {
  readonly nodeId: string;
  readonly onRename: (nodeId: string) => boolean;
}) {
  const id = useId();
  const [text, setText] = useState(props.nodeId);
  const [refused, setRefused] = useState(false);
  const commit = () => {
    if (text === props.nodeId) return;
    const renamed = props.onRename(text);
    setRefused(!renamed);
  };
  return (
    <div className={`field${refused ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>Node id</label>
      <input
        id={id}
        type="text"
        value={text}
        aria-invalid={refused}
        aria-describedby={refused ? `${id}-refused` : undefined}
        onChange={(event) => {
          setText(event.target.value);
          setRefused(false);
        }}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      {refused && (
        <div id={`${id}-refused`} className="field-problems">
          <span aria-hidden="true">⚠ </span>
          {text === '' ? 'A node id is needed.' : `Another node is called ${text}.`}
        </div>
      )}
    </div>
  );
}

export function NodeForm(props: {
  readonly node: DefinitionNode;
  readonly plugin: PluginView | undefined;
  readonly problems: readonly FieldProblem[];
  readonly onConfig: (config: Record<string, unknown>) => void;
  readonly onRename: (nodeId: string) => boolean;
  readonly onDelete: () => void;
}) {
  const { node, plugin, problems } = props;
  const config = node.config ?? {};
  const elsewhere = unplaced(problems, plugin);
  return (
    <section className="node-form" aria-label={`Settings of ${node.nodeId}`}>
      <h3>
        {node.nodeId} <span className="muted">{node.type}</span>
      </h3>
      {plugin !== undefined && <p className="help">{plugin.description}</p>}
      <ProblemList label={`Problems of ${node.nodeId}`} problems={elsewhere} />
      <NodeIdField key={node.nodeId} nodeId={node.nodeId} onRename={props.onRename} />
      <fieldset>
        <legend>Plugin settings</legend>
        {plugin === undefined ? (
          <p className="muted">No plugin of type {node.type} on this server.</p>
        ) : (
          <SchemaForm
            schema={plugin.configSchema}
            config={config}
            problems={problems}
            onChange={props.onConfig}
          />
        )}
      </fieldset>
      <fieldset>
        <legend>Engine settings</legend>
        <EngineForm config={config} problems={problems} onChange={props.onConfig} />
      </fieldset>
      <button type="button" onClick={props.onDelete}>
        Delete node {node.nodeId}
      </button>
    </section>
  );
}
