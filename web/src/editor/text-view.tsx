// The draft as text, JSON or YAML, kept in step with the canvas both ways: a change on the
// canvas rewrites the text, and text that parses into a workflow changes the canvas.
import { useId, useState } from 'react';
import { parse, stringify } from 'yaml';
import type { WorkflowDefinition } from '../types';

type Format = 'JSON' | 'YAML';

function show(definition: WorkflowDefinition, format: Format): string {
  return format === 'JSON' ? JSON.stringify(definition, null, 2) : stringify(definition);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the outline of a workflow; the validate call checks the rest. */
function asDefinition(value: unknown): WorkflowDefinition {
  if (!isObject(value)) throw new Error('The text is not an object.');
  const nodes: unknown = value.nodes;
  const edges: unknown = value.edges ?? [];
  // The rest (unknown keys, wrong types) is the validate call's to report.
  if (!Array.isArray(nodes)) throw new Error('The workflow needs a list of nodes.');
  if (!Array.isArray(edges)) throw new Error('The edges must be a list.');
  for (const node of nodes as unknown[]) {
    if (!isObject(node) || typeof node.nodeId !== 'string' || typeof node.type !== 'string') {
      throw new Error('Each node needs a nodeId and a type.');
    }
  }
  for (const edge of edges as unknown[]) {
    if (!isObject(edge) || typeof edge.source !== 'string' || typeof edge.target !== 'string') {
      throw new Error('Each edge needs a source and a target.');
    }
  }
  return { description: '', ...value } as WorkflowDefinition;
}

export function TextView(props: {
  readonly definition: WorkflowDefinition;
  readonly onChange: (definition: WorkflowDefinition) => void;
}) {
  const id = useId();
  const [format, setFormat] = useState<Format>('JSON');
  const shown = show(props.definition, format);
  // What the user is typing, kept while the draft is the one it was typed for.
  const [edit, setEdit] = useState<{ text: string; base: string; problem?: string } | null>(null);
  const current = edit !== null && edit.base === shown ? edit : null;
  const text = current?.text ?? shown;
  const change = (raw: string) => {
    try {
      const definition = asDefinition(format === 'JSON' ? JSON.parse(raw) : parse(raw));
      setEdit({ text: raw, base: show(definition, format) });
      props.onChange(definition);
    } catch (error) {
      setEdit({
        text: raw,
        base: shown,
        problem: error instanceof Error ? error.message : String(error),
      });
    }
  };
  return (
    <section className="text-view" aria-label="Text view">
      <fieldset className="formats">
        <legend>Format</legend>
        {(['JSON', 'YAML'] as const).map((option) => (
          <label key={option}>
            <input
              type="radio"
              name={`${id}-format`}
              checked={format === option}
              onChange={() => {
                setFormat(option);
                setEdit(null);
              }}
            />{' '}
            {option}
          </label>
        ))}
      </fieldset>
      <label htmlFor={id}>Workflow as {format}</label>
      <textarea
        id={id}
        className="code"
        spellCheck={false}
        rows={20}
        value={text}
        aria-invalid={current?.problem !== undefined}
        aria-describedby={current?.problem === undefined ? undefined : `${id}-problem`}
        onChange={(event) => {
          change(event.target.value);
        }}
      />
      {current?.problem !== undefined && (
        <p id={`${id}-problem`} className="field-problems" role="status">
          <span aria-hidden="true">⚠ </span>Not applied: {current.problem}
        </p>
      )}
    </section>
  );
}
