// The two answer shapes of SPEC "Response envelope", as schemas: every documented answer is one
// of them, and Fastify serialises answers from them.
import { z } from 'zod';

type Metadata = Record<string, unknown>;

/**
 * What the registry knows of a schema, and else what `.meta()` wrote of it in zod's global
 * registry (descriptions, formats). The document's generator hands the registry to zod as the
 * only source of metadata, so without this it would keep the names and lose every description.
 * A global `id` is left out: only this registry names components.
 */
class MetadataWithGlobal extends WeakMap<z.core.$ZodType, Metadata> {
  override get(schema: z.core.$ZodType): Metadata | undefined {
    const own = super.get(schema);
    const global = z.globalRegistry.get(schema);
    if (global === undefined) return own;
    const { id: _id, ...described } = global;
    return { ...described, ...own };
  }

  override has(schema: z.core.$ZodType): boolean {
    return super.has(schema) || z.globalRegistry.has(schema);
  }
}

/**
 * Schemas with a name of their own in the API description (`components.schemas`); the
 * generated client calls its types by these names.
 */
export const apiSchemas = z.registry<{ id: string }>();
apiSchemas._map = new MetadataWithGlobal() as typeof apiSchemas._map;

/** Registers a schema under a component name and answers it. */
export function named<T extends z.ZodType>(id: string, schema: T): T {
  apiSchemas.add(schema, { id });
  return schema;
}

/** An ISO-8601 instant as the server writes it (`Date.prototype.toISOString`). */
export const instant = z
  .string()
  .refine((text) => !Number.isNaN(Date.parse(text)), 'Expected an ISO-8601 date-time')
  .meta({ format: 'date-time' });

export const FieldErrorSchema = named(
  'FieldError',
  z.strictObject({
    field: z.string().meta({ description: 'The field, as a path (`nodes[0].config.x`)' }),
    message: z.string(),
  }),
);

export const ErrorEnvelopeSchema = named(
  'ErrorEnvelope',
  z
    .strictObject({
      timestamp: instant,
      status: z.int(),
      error: z.string().meta({ description: 'The HTTP reason phrase of `status`' }),
      message: z.string(),
      path: z.string().meta({ description: 'The request path, without its query' }),
      errors: z
        .array(FieldErrorSchema)
        .optional()
        .meta({ description: 'Only when the problem is tied to fields' }),
    })
    .meta({ description: 'Every error answer' }),
);

/** The success envelope around `data`. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.strictObject({
    timestamp: instant,
    status: z.int(),
    message: z.string(),
    data,
  });
}
