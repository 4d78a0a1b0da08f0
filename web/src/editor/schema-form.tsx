// A node's plugin configuration as a form generated from the plugin's JSON Schema: text,
// numbers, choices, switches and lists of strings get controls of their own, anything else a
// JSON field. The keys the engine reads (timeoutSeconds, onError, engine) are in the engine
// settings form instead.
import type { FieldProblem } from '../types';
import {
  CheckField,
  JsonField,
  LinesField,
  NumberField,
  SelectField,
  TextField,
} from './form-fields';
import type { FieldProps, Value } from './form-fields';
import { withoutKey } from './model';
import { problemsOf } from './validation';

/** The parts of a JSON Schema the form reads. */
type PropertySchema = {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly description?: string;
  readonly default?: unknown;
  readonly items?: PropertySchema;
};

/** Keys of a node's configuration that the engine settings form shows. */
export const ENGINE_KEYS = new Set(['timeoutSeconds', 'onError', 'engine']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(schema: PropertySchema): string | undefined {
  return typeof schema.type === 'string' ? schema.type : undefined;
}

function Property(props: FieldProps & { readonly schema: PropertySchema }) {
  const { schema } = props;
  const values = schema.enum;
  if (values !== undefined && values.every((value) => typeof value === 'string')) {
    const unset = typeof schema.default === 'string' ? `(default: ${schema.default})` : '(not set)';
    return <SelectField {...props} options={values} unset={unset} />;
  }
  switch (typeOf(schema)) {
    case 'string':
      return <TextField {...props} multiline={/template|expression|script/i.test(props.label)} />;
    case 'integer':
    case 'number':
      return <NumberField {...props} />;
    case 'boolean':
      return <CheckField {...props} />;
    case 'array':
      if (schema.items !== undefined && typeOf(schema.items) === 'string') {
        return <LinesField {...props} />;
      }
      return <JsonField {...props} />;
    case 'object':
    case 'null':
    case undefined:
    default:
      return <JsonField {...props} />;
  }
}

export function SchemaForm(props: {
  readonly schema: Readonly<Record<string, unknown>>;
  readonly config: Readonly<Record<string, unknown>>;
  readonly problems: readonly FieldProblem[];
  readonly onChange: (config: Record<string, unknown>) => void;
}) {
  const properties = isObject(props.schema.properties) ? props.schema.properties : {};
  const required = Array.isArray(props.schema.required) ? props.schema.required : [];
  const keys = Object.keys(properties).filter((key) => !ENGINE_KEYS.has(key));
  if (keys.length === 0) return <p className="muted">This plugin has no settings of its own.</p>;
  const set = (key: string, value: Value) => {
    props.onChange(
      value === undefined ? withoutKey(props.config, key) : { ...props.config, [key]: value },
    );
  };
  return (
    <>
      {keys.map((key) => {
        const schema = properties[key];
        const property: PropertySchema = isObject(schema) ? schema : {};
        return (
          <Property
            key={key}
            label={key}
            help={property.description}
            required={required.includes(key)}
            schema={property}
            value={props.config[key]}
            problems={problemsOf(props.problems, `config.${key}`)}
            onChange={(value) => {
              set(key, value);
            }}
          />
        );
      })}
    </>
  );
}
