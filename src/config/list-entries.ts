// Entries of the object-list settings (svc.api-keys, svc.supervisors): one zod schema per entry,
// and the field layout derived from it that lets the loader read indexed entries from flat names.
import { z } from 'zod';
import { splitList } from './kinds.js';
import type { Codec, Parsed } from './kinds.js';

export const API_KEY_ROLES = ['VIEWER', 'OPERATOR', 'ADMIN'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

export interface ApiKeyEntry {
  readonly name: string;
  /** Plain text, or `sha256:` followed by 64 lower-case hexadecimal digits. */
  readonly key: string;
  readonly role: ApiKeyRole;
  /** Session ids the key may reach; `null` reaches every session. */
  readonly sessions: readonly string[] | null;
}

/** A command matching every field given (non-null) in one entry is refused. */
export interface SupervisorDenyEntry {
  readonly command: string | null;
  readonly actor: string | null;
  readonly sessionId: string | null;
  readonly nodeId: string | null;
}

export interface SupervisorRule {
  /** Event kind, e.g. `node.failed`. */
  readonly on: string;
  /** JSONata over the event; `null` matches every event of the kind. */
  readonly when: string | null;
  readonly command: string;
  readonly target: 'run' | 'node';
}

export type SupervisorEntry =
  | { readonly id: string; readonly type: 'review'; readonly deny: readonly SupervisorDenyEntry[] }
  | { readonly id: string; readonly type: 'rule'; readonly rules: readonly SupervisorRule[] };

/** Where indexed names may lead inside a list setting: fields, nested lists and their docs. */
export type FieldShape =
  | { readonly kind: 'scalar'; readonly doc: string | null }
  | { readonly kind: 'list'; readonly doc: string | null; readonly item: FieldShape }
  | {
      readonly kind: 'object';
      readonly doc: string | null;
      readonly fields: ReadonlyMap<string, FieldShape>;
    };

// YAML reads `id: 7` as a number; an entry field is text whatever it looks like.
const scalarAsText = (value: unknown): unknown =>
  typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;

const requiredText = z.preprocess(
  scalarAsText,
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'expected text') })
    .min(1, 'must not be empty'),
);

const optionalText = requiredText.nullable().default(null);

const commandName = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
  requiredText,
);

function word<const TWords extends readonly [string, ...string[]]>(
  words: TWords,
  spell: (value: string) => string,
) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? spell(value.trim()) : value),
    z.enum(words, {
      error: (issue) =>
        issue.input === undefined ? 'is required' : `expected one of ${words.join(', ')}`,
    }),
  );
}

function listOf<TItem extends z.ZodType>(item: TItem) {
  return z.array(item, { error: 'expected a list' });
}

function entry<TShape extends z.core.$ZodLooseShape>(shape: TShape) {
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        return `unknown field ${issue.keys.map((key) => `'${key}'`).join(', ')}`;
      }
      return 'expected an entry with named fields';
    },
  });
}

const SHA256_KEY = /^sha256:([0-9a-f]{64})$/i;

const apiKeyEntry = entry({
  name: requiredText.default('unnamed').describe('Name recorded in the audit; default `unnamed`'),
  key: requiredText
    .refine(
      (key) => !/^sha256:/i.test(key) || SHA256_KEY.test(key),
      "expected plain text, or 'sha256:' followed by exactly 64 hexadecimal digits",
    )
    // Digests compare as lower-case text.
    .transform((key) => {
      const digest = SHA256_KEY.exec(key)?.[1];
      return digest === undefined ? key : `sha256:${digest.toLowerCase()}`;
    })
    .describe(
      'Required. The key in plain text, or `sha256:` and the 64 hexadecimal digits of its SHA-256 digest (clients still send the real key)',
    ),
  role: word(API_KEY_ROLES, (value) => value.toUpperCase())
    .default('VIEWER')
    .describe('`VIEWER`, `OPERATOR` or `ADMIN`; default `VIEWER`'),
  sessions: z
    .preprocess(
      (value) => (typeof value === 'string' ? splitList(value) : value),
      listOf(requiredText).min(1, 'must name at least one session; leave it out for every session'),
    )
    .nullable()
    .default(null)
    .describe('Session ids the key may reach (string list); unset means every session'),
}) satisfies z.ZodType<ApiKeyEntry>;

const denyEntry = entry({
  command: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
      optionalText,
    )
    .describe('Command to refuse, e.g. `STOP` (any case)'),
  actor: optionalText.describe('Actor sending the command, e.g. `key:ci`'),
  sessionId: optionalText.describe('Session the command is aimed at'),
  nodeId: optionalText.describe('Node the command is aimed at'),
}) satisfies z.ZodType<SupervisorDenyEntry>;

const ruleEntry = entry({
  on: requiredText.describe('Required. Event kind that fires the rule, e.g. `node.failed`'),
  when: optionalText.describe('JSONata condition over the event; unset fires on every such event'),
  command: commandName.describe('Required. Command to send, e.g. `PAUSE` or `STOP`'),
  target: word(['run', 'node'], (value) => value.toLowerCase()).describe(
    'Required. `run` (the whole execution) or `node` (the node of the event)',
  ),
}) satisfies z.ZodType<SupervisorRule>;

const supervisorEntry = z.preprocess(
  (value) =>
    typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string'
      ? { ...value, type: value.type.trim().toLowerCase() }
      : value,
  z.discriminatedUnion(
    'type',
    [
      entry({
        id: requiredText.describe('Required. Supervisor id, recorded as the actor of its commands'),
        type: z.literal('review').describe('Required. `review` or `rule`'),
        deny: listOf(denyEntry)
          .default([])
          .describe('For `review`: commands to refuse, reason `refused by supervisor <id>`'),
      }),
      entry({
        id: requiredText,
        type: z.literal('rule'),
        rules: listOf(ruleEntry).default([]).describe('For `rule`: commands sent on events'),
      }),
    ],
    { error: 'expected review or rule' },
  ),
) satisfies z.ZodType<SupervisorEntry>;

/** The element schemas, for tests and the documentation. */
export const ENTRY_SCHEMAS = { apiKey: apiKeyEntry, supervisor: supervisorEntry } as const;

export function pathText(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
}

/** A list of structured entries, validated by one schema per entry. */
export interface ObjectListCodec<TEntry> extends Codec<readonly TEntry[]> {
  readonly kind: 'object-list';
  readonly item: FieldShape;
}

export function isObjectListCodec(codec: Codec<unknown>): codec is ObjectListCodec<unknown> {
  return codec.kind === 'object-list';
}

export function objectList<TEntry>(
  element: z.ZodType<TEntry>,
  options: { uniqueField?: keyof TEntry & string } = {},
): ObjectListCodec<TEntry> {
  const { uniqueField } = options;
  const list = z.array(element).superRefine((entries, context) => {
    if (uniqueField === undefined) return;
    const seen = new Map<unknown, number>();
    for (const [index, item] of entries.entries()) {
      const value = item[uniqueField];
      const first = seen.get(value);
      if (first === undefined) seen.set(value, index);
      else {
        context.addIssue({
          code: 'custom',
          path: [index, uniqueField],
          message: `repeats the ${uniqueField} of entry [${first}]`,
        });
      }
    }
  });
  return {
    kind: 'object-list',
    type: 'list of entries',
    nullable: false,
    item: shapeOf(element),
    parse(raw, key): Parsed<readonly TEntry[]> {
      if (raw === null) return { ok: true, value: [] };
      if (!Array.isArray(raw)) {
        return {
          ok: false,
          reason: `expected a list of entries, e.g. ${key}[0].<field>`,
          hideValue: true,
        };
      }
      const parsed = list.safeParse(raw);
      if (parsed.success) return { ok: true, value: parsed.data };
      const reason = parsed.error.issues
        .map((issue) => `${key}${pathText(issue.path)}: ${issue.message}`)
        .join('; ');
      return { ok: false, reason, hideValue: true };
    },
    format: (value) => (value.length === 0 ? '' : JSON.stringify(value)),
  };
}

/** The fields and nested lists a schema accepts, read from the schema itself. */
export function shapeOf(schema: z.core.$ZodType): FieldShape {
  const doc = (schema instanceof z.ZodType ? schema.description : undefined) ?? null;
  const inner = structureOf(schema);
  return doc === null || inner.doc !== null ? inner : { ...inner, doc };
}

function structureOf(schema: z.core.$ZodType): FieldShape {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault
  ) {
    return shapeOf(schema.unwrap());
  }
  if (schema instanceof z.ZodPipe) {
    // A preprocess step reads its target's shape; a transform keeps its input's.
    return shapeOf(schema.in instanceof z.ZodTransform ? schema.out : schema.in);
  }
  if (schema instanceof z.ZodArray) {
    return { kind: 'list', doc: null, item: shapeOf(schema.element) };
  }
  if (schema instanceof z.ZodObject) {
    const fields = new Map<string, FieldShape>();
    const shape = schema.shape as Readonly<Record<string, z.core.$ZodType>>;
    for (const [name, field] of Object.entries(shape)) fields.set(name, shapeOf(field));
    return { kind: 'object', doc: null, fields };
  }
  if (schema instanceof z.ZodUnion) {
    // The variants of a discriminated union together name every field an entry may have.
    const fields = new Map<string, FieldShape>();
    for (const option of schema.options) {
      const shape = shapeOf(option);
      if (shape.kind !== 'object') continue;
      for (const [name, field] of shape.fields) {
        const known = fields.get(name);
        if (known === undefined || (known.doc === null && field.doc !== null)) {
          fields.set(name, field);
        }
      }
    }
    return { kind: 'object', doc: null, fields };
  }
  return { kind: 'scalar', doc: null };
}
