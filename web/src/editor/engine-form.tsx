// The engine's settings of a node (CONTRACT section 2), kept in its configuration beside the
// plugin's keys: idle timeout, error handling, retries, trigger rule, edge buffer, placement.
import type { FieldProblem } from '../types';
import { NumberField, SelectField, TextField } from './form-fields';
import type { Value } from './form-fields';
import { withoutKey } from './model';
import { problemsOf } from './validation';

const ON_ERROR = ['FAIL', 'SKIP', 'ERROR_PORT', 'DEAD_LETTER'];
const TRIGGER = ['ALL_SUCCESS', 'ALL_DONE', 'ONE_SUCCESS'];
const OVERFLOW = ['DROP_OLDEST', 'DROP_NEWEST'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function read(config: Readonly<Record<string, unknown>>, path: readonly string[]): Value {
  let value: unknown = config;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return value;
}

/** Sets the value at `path`; an undefined value removes the key, and emptied objects go too. */
export function writePath(
  config: Readonly<Record<string, unknown>>,
  path: readonly string[],
  value: Value,
): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined) return { ...config };
  const before = config[key];
  const inner = rest.length === 0 ? value : writePath(isObject(before) ? before : {}, rest, value);
  if (inner === undefined || (isObject(inner) && Object.keys(inner).length === 0)) {
    return withoutKey(config, key);
  }
  return { ...config, [key]: inner };
}

interface Setting {
  readonly path: readonly string[];
  readonly label: string;
  readonly help: string;
  readonly options?: readonly string[];
  readonly unset?: string;
  readonly text?: boolean;
}

const SETTINGS: readonly Setting[] = [
  {
    path: ['timeoutSeconds'],
    label: 'Idle timeout (s)',
    help: "Without it the plugin's default applies",
  },
  {
    path: ['onError'],
    label: 'On error',
    help: 'What happens after the retries',
    options: ON_ERROR,
    unset: '(default: FAIL)',
  },
  {
    path: ['engine', 'retry', 'maxAttempts'],
    label: 'Attempts per message',
    help: '1 to 10; the first attempt counts',
  },
  {
    path: ['engine', 'retry', 'backoffMs'],
    label: 'Retry backoff (ms)',
    help: 'Wait between attempts',
  },
  {
    path: ['engine', 'trigger'],
    label: 'Trigger rule',
    help: 'How the node reacts to a failed parent',
    options: TRIGGER,
    unset: '(default: ALL_SUCCESS)',
  },
  {
    path: ['engine', 'edgeBuffer', 'size'],
    label: 'Edge buffer size',
    help: '1 to 100000; without a buffer delivery is lossless and paces the parents',
  },
  {
    path: ['engine', 'edgeBuffer', 'overflow'],
    label: 'Edge buffer overflow',
    help: 'Which message a full buffer drops',
    options: OVERFLOW,
    unset: '(default: DROP_OLDEST)',
  },
  {
    path: ['engine', 'placement'],
    label: 'Placement',
    help: 'A remote worker pool for a processor',
    text: true,
  },
  { path: ['engine', 'deadlineMs'], label: 'Deadline (ms)', help: 'For the whole node' },
  {
    path: ['engine', 'elementTimeoutMs'],
    label: 'Time per message (ms)',
    help: 'An attempt that takes longer fails',
  },
];

export function EngineForm(props: {
  readonly config: Readonly<Record<string, unknown>>;
  readonly problems: readonly FieldProblem[];
  readonly onChange: (config: Record<string, unknown>) => void;
}) {
  return (
    <>
      {SETTINGS.map((setting) => {
        const field = {
          label: setting.label,
          help: setting.help,
          value: read(props.config, setting.path),
          problems: problemsOf(props.problems, `config.${setting.path.join('.')}`),
          onChange: (value: Value) => {
            props.onChange(writePath(props.config, setting.path, value));
          },
        };
        const key = setting.path.join('.');
        if (setting.options !== undefined) {
          return (
            <SelectField
              key={key}
              {...field}
              options={setting.options}
              unset={setting.unset ?? ''}
            />
          );
        }
        return setting.text === true ? (
          <TextField key={key} {...field} />
        ) : (
          <NumberField key={key} {...field} />
        );
      })}
    </>
  );
}
