// Renders docs/configuration.md from the settings schema, so the reference cannot drift from
// what the loader accepts; a test compares the committed file with this output.
import type { FieldShape } from './list-entries.js';
import { isObjectListCodec } from './list-entries.js';
import { defaultSettings } from './load.js';
import { POSTGRES_OVERRIDES, SETTINGS, SETTING_KEYS } from './schema.js';
import type { SettingKey, SettingSpec, Settings } from './schema.js';
import { envSegment, readsFromEnvironment, settingEnvName } from './setting-names.js';

const INTRO = `# Configuration

<!-- Generated from the settings tables (src/config/settings-*.ts) by \`npm run docs\`; edit those, not this file. -->

Every setting of the service is named \`svc.*\`. This page lists them all with their defaults.

## Where settings come from

Lowest precedence first; each source replaces the values of the one before:

1. the defaults of the profile;
2. a YAML file named by \`--config FILE\` (or \`--config=FILE\`) or by \`SVC_CONFIG_FILE\`, with
   the settings nested under \`svc:\`. A key may also hold dots (\`svc: { server.port: 8080 }\`) or
   an index (\`svc: { api-keys[0].key: ... }\`). A relative path is read from the working
   directory;
3. environment variables: \`svc.a.b-c\` is \`SVC_A_B_C\` (dots and dashes become \`_\`, upper
   case);
4. command-line arguments \`--svc.a.b-c=value\` or \`--svc.a.b-c value\`.

A value is replaced as a whole, lists included: a list on the command line does not merge with
one from the file. The free-form maps \`svc.var.*\` and \`svc.llm.rate-limit.*\` gather names from
every source.

## Profiles

A profile is a named set of defaults. It is chosen by \`--profile NAME\`, \`--profile=NAME\` or a
bare \`dev\`, \`prod\` or \`postgres\` argument, else by \`SVC_PROFILES_ACTIVE\`, else \`dev\` (\`prod\`
for the single-file executable). The table shows the \`dev\` and \`prod\` defaults. \`postgres\` is
\`dev\` with these changes, and needs a build that includes the relational-database stores
(\`svc.persistence=postgres\`); without them it refuses to start:
${Object.entries(POSTGRES_OVERRIDES)
  .map(([key, value]) => `\n- \`${key}=${value}\``)
  .join('')}

## Values

- Durations: \`250ms\`, \`30s\`, \`5m\`, \`1h\`, \`2d\`, or a plain number of milliseconds.
- Sizes: a number of bytes, or \`512KB\`, \`4MB\`, \`1GB\`. KB, MB, GB and TB are powers of 1024;
  \`KiB\`, \`MiB\`, \`GiB\` and \`TiB\` mean the same.
- Booleans are \`true\` or \`false\`; words from a fixed set are matched in any case.
- Lists: comma separated (\`SVC_ALLOWED_HOSTS=a,b\`), a YAML list, or indexed entries
  (\`SVC_ALLOWED_HOSTS_0=a\`, \`--svc.allowed-hosts[0]=a\`). Only a plain string is split at
  commas, so an item holding a comma, such as a regular expression, is given as an indexed entry
  (\`--svc.llm.deny-input-patterns[0]=a{1,3}\`). One source gives a list either whole or as
  indexed entries, not both; indexes count up from 0 without gaps.
- Lists of entries (\`svc.api-keys\`, \`svc.supervisors\`): indexed fields (\`SVC_API_KEYS_0_KEY\`,
  \`--svc.api-keys[0].key=...\`) or a YAML list of mappings. Their fields are listed below the
  table.
- Free-form maps: \`--svc.llm.rate-limit.openai=60\`, \`svc: { llm: { rate-limit: { openai: 60 } } }\`
  in YAML, or \`SVC_LLM_RATE_LIMIT_OPENAI=60\`. From the environment the name is read in lower
  case with \`_\` as \`-\` (\`SVC_LLM_RATE_LIMIT_AZURE_OPENAI\` sets \`azure-openai\`). \`svc.var.*\`
  is not read from the environment, where \`SVC_VAR_*\` variables serve placeholders directly.
- Settings whose default is \`off\` are turned off again by an empty value (\`SVC_API_KEY=\`) or
  by \`null\` in YAML.
- Regular expressions use JavaScript syntax and must compile.

## Mistakes

An unknown \`svc.*\` key in the YAML file or on the command line, an unknown command-line
argument, a value that does not parse, an unknown profile, and a missing or unparsable YAML file
stop the start with a message naming the setting and where it came from. Messages leave out the
values of keys, tokens and database URLs. Top-level YAML keys other than \`svc\` are ignored with
a warning.

Environment variables are shared with other programs, so an \`SVC_*\` variable that names no
setting is only a warning in the log. These are not settings and are never warned about:
\`SVC_VAR_*\` and \`SVC_SECRET_*\` (read by placeholders in node configuration), \`SVC_TEST_*\`
(tests), \`SVC_CONFIG_FILE\`, \`SVC_PROFILES_ACTIVE\`, and the build properties \`SVC_PLUGINS\`,
\`SVC_PERSISTENCE\`, \`SVC_WORKERS\` and \`SVC_WORKERS_NATIVE\`.

Traces are not configured with \`svc.*\` settings but with the standard OpenTelemetry variables
(\`OTEL_EXPORTER_OTLP_ENDPOINT\`, \`OTEL_SERVICE_NAME\`, \`OTEL_TRACES_SAMPLER\`...), which are
not \`SVC_*\` variables and are never warned about; without them tracing is off
([tracing.md](tracing.md)).
`;

/** Markdown table cells may not hold a raw pipe or line break. */
function cell(value: string): string {
  return value.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function code(value: string): string {
  return `\`${value}\``;
}

function formatDefault(key: SettingKey, settings: Settings): string {
  const spec: SettingSpec<unknown> = SETTINGS[key];
  const value = settings[key];
  if (value === null) return 'off';
  const text = spec.codec.format(value);
  return text === '' ? 'empty' : code(text);
}

function settingRow(key: SettingKey, dev: Settings, prod: Settings): string {
  const spec = SETTINGS[key];
  let env = readsFromEnvironment(key) ? code(settingEnvName(key)) : '-';
  if (isObjectListCodec(spec.codec)) env = code(`${settingEnvName(key)}_<i>_<FIELD>`);
  return `| ${[
    code(key),
    env,
    spec.codec.type,
    formatDefault(key, dev),
    formatDefault(key, prod),
    spec.doc,
  ]
    .map(cell)
    .join(' | ')} |`;
}

const INDEX_NAMES = ['i', 'j', 'k'] as const;

function fieldRows(name: string, env: string, shape: FieldShape, depth: number): string[] {
  if (shape.kind === 'list' && shape.item.kind === 'object') {
    const index = INDEX_NAMES[depth] ?? `i${depth}`;
    return fieldRows(`${name}[${index}]`, `${env}_<${index}>`, shape.item, depth + 1);
  }
  if (shape.kind !== 'object') return [];
  const rows: string[] = [];
  for (const [field, fieldShape] of shape.fields) {
    const fieldName = `${name}.${field}`;
    const fieldEnv = `${env}_${envSegment(field)}`;
    rows.push(
      `| ${[code(fieldName), code(fieldEnv), fieldShape.doc ?? ''].map(cell).join(' | ')} |`,
    );
    rows.push(...fieldRows(fieldName, fieldEnv, fieldShape, depth));
  }
  return rows;
}

export function renderConfigurationDoc(): string {
  const dev = defaultSettings('dev');
  const prod = defaultSettings('prod');
  const lines = [
    INTRO,
    '## Settings',
    '',
    '| Key | Environment variable | Type | `dev` default | `prod` default | Description |',
    '| - | - | - | - | - | - |',
    ...SETTING_KEYS.map((key) => settingRow(key, dev, prod)),
    '',
    '## List entries',
  ];
  for (const key of SETTING_KEYS) {
    const codec = SETTINGS[key].codec;
    if (!isObjectListCodec(codec)) continue;
    const env = settingEnvName(key);
    lines.push(
      '',
      `### ${code(`${key}[i]`)}`,
      '',
      '| Field | Environment variable | Description |',
      '| - | - | - |',
      ...fieldRows(`${key}[i]`, `${env}_<i>`, codec.item, 1),
    );
  }
  return `${lines.join('\n')}\n`;
}
