// Form controls of the node forms. Each field has a label, its help text and the problems the
// validate call found in it, tied to the control (aria-invalid, aria-describedby). An empty
// control leaves its key out of the configuration.
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { FieldProblem } from '../types';

export type Value = unknown;

export interface FieldProps {
  readonly label: string;
  readonly help?: string | undefined;
  readonly required?: boolean;
  readonly problems: readonly FieldProblem[];
  readonly value: Value;
  readonly onChange: (value: Value) => void;
}

/** Problems with the field each names, when it is not the field they are shown under. */
export function ProblemList(props: {
  readonly label: string;
  readonly problems: readonly FieldProblem[];
}) {
  if (props.problems.length === 0) return null;
  return (
    <ul className="field-problems" aria-label={props.label}>
      {props.problems.map((problem) => (
        <li key={`${problem.field}:${problem.message}`}>
          <span aria-hidden="true">⚠ </span>
          {problem.field === '' ? '' : `${problem.field}: `}
          {problem.message}
        </li>
      ))}
    </ul>
  );
}

interface ControlAttributes {
  readonly id: string;
  readonly 'aria-invalid': boolean;
  readonly 'aria-describedby': string | undefined;
}

function FieldRow(props: FieldProps & { readonly control: (a: ControlAttributes) => ReactNode }) {
  const id = useId();
  const helpId = `${id}-help`;
  const problemsId = `${id}-problems`;
  const describedBy = [
    props.help === undefined ? undefined : helpId,
    props.problems.length > 0 ? problemsId : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(' ');
  return (
    <div className={`field${props.problems.length > 0 ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>
        {props.label}
        {props.required === true && <span aria-label="required"> *</span>}
      </label>
      {props.control({
        id,
        'aria-invalid': props.problems.length > 0,
        'aria-describedby': describedBy === '' ? undefined : describedBy,
      })}
      {props.help !== undefined && (
        <div id={helpId} className="help">
          {props.help}
        </div>
      )}
      {props.problems.length > 0 && (
        <ul id={problemsId} className="field-problems">
          {props.problems.map((problem) => (
            <li key={`${problem.field}:${problem.message}`}>
              <span aria-hidden="true">⚠ </span>
              {problem.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function TextField(props: FieldProps & { readonly multiline?: boolean }) {
  const text = typeof props.value === 'string' ? props.value : '';
  const change = (next: string) => {
    props.onChange(next === '' ? undefined : next);
  };
  return (
    <FieldRow
      {...props}
      control={(attributes) =>
        props.multiline === true ? (
          <textarea
            {...attributes}
            rows={3}
            value={text}
            onChange={(event) => {
              change(event.target.value);
            }}
          />
        ) : (
          <input
            {...attributes}
            type="text"
            value={text}
            onChange={(event) => {
              change(event.target.value);
            }}
          />
        )
      }
    />
  );
}

export function NumberField(props: FieldProps) {
  const text = typeof props.value === 'number' ? String(props.value) : '';
  return (
    <FieldRow
      {...props}
      control={(attributes) => (
        <input
          {...attributes}
          type="number"
          value={text}
          onChange={(event) => {
            const raw = event.target.value;
            props.onChange(raw === '' ? undefined : Number(raw));
          }}
        />
      )}
    />
  );
}

export function SelectField(
  props: FieldProps & { readonly options: readonly string[]; readonly unset: string },
) {
  const text = typeof props.value === 'string' ? props.value : '';
  return (
    <FieldRow
      {...props}
      control={(attributes) => (
        <select
          {...attributes}
          value={text}
          onChange={(event) => {
            props.onChange(event.target.value === '' ? undefined : event.target.value);
          }}
        >
          <option value="">{props.unset}</option>
          {props.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      )}
    />
  );
}

export function CheckField(props: FieldProps) {
  return (
    <FieldRow
      {...props}
      control={(attributes) => (
        <input
          {...attributes}
          type="checkbox"
          checked={props.value === true}
          onChange={(event) => {
            props.onChange(event.target.checked ? true : undefined);
          }}
        />
      )}
    />
  );
}

/** Text the user is typing that does not parse yet, kept until it does or the value changes. */
function useEditedText(value: Value, show: (value: Value) => string) {
  const shown = show(value);
  const [edit, setEdit] = useState<{ text: string; base: string } | null>(null);
  const text = edit !== null && edit.base === shown ? edit.text : shown;
  // The text stays while the value is the one it was typed for.
  const keep = (next: string, nextValue: Value) => {
    setEdit({ text: next, base: show(nextValue) });
  };
  return { text, keep };
}

function showJson(value: Value): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** Any JSON value (arrays of objects, payloads): the field says when the text is not JSON. */
export function JsonField(props: FieldProps) {
  const { text, keep } = useEditedText(props.value, showJson);
  const [syntax, setSyntax] = useState<string>();
  const problems: FieldProblem[] =
    syntax === undefined
      ? [...props.problems]
      : [{ field: '', message: syntax }, ...props.problems];
  return (
    <FieldRow
      {...props}
      problems={problems}
      help={props.help === undefined ? 'JSON' : `${props.help} (JSON)`}
      control={(attributes) => (
        <textarea
          {...attributes}
          className="code"
          rows={4}
          value={text}
          onChange={(event) => {
            const raw = event.target.value;
            if (raw.trim() === '') {
              keep(raw, undefined);
              setSyntax(undefined);
              props.onChange(undefined);
              return;
            }
            try {
              const parsed: unknown = JSON.parse(raw);
              keep(raw, parsed);
              setSyntax(undefined);
              props.onChange(parsed);
            } catch (error) {
              keep(raw, props.value);
              setSyntax(`Not JSON yet: ${error instanceof Error ? error.message : String(error)}`);
            }
          }}
        />
      )}
    />
  );
}

function showLines(value: Value): string {
  return Array.isArray(value) ? value.map(String).join('\n') : '';
}

/** A list of strings, one per line. */
export function LinesField(props: FieldProps) {
  const { text, keep } = useEditedText(props.value, showLines);
  return (
    <FieldRow
      {...props}
      help={props.help === undefined ? 'One per line' : `${props.help} (one per line)`}
      control={(attributes) => (
        <textarea
          {...attributes}
          rows={3}
          value={text}
          onChange={(event) => {
            const lines = event.target.value.split('\n').filter((line) => line.trim() !== '');
            const next = lines.length === 0 ? undefined : lines;
            keep(event.target.value, next);
            props.onChange(next);
          }}
        />
      )}
    />
  );
}
