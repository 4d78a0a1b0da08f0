// MAPPER: reshapes each payload by projection, template or script (CONTRACT section 2).
// SCRIPT mode exists only in builds with the script-js optional plugin (SPEC Build-time choices).
import { definePlugin, z } from '../../../plugin-api/index.js';
import { handlebarsTemplate, jsonataExpression } from '../schemas.js';

export const MAPPER_MODES = ['PROJECTION', 'TEMPLATE', 'SCRIPT'] as const;

export const SCRIPT_NOT_INCLUDED =
  'MAPPER mode SCRIPT needs the script-js plugin, which this build does not include';

/** The key each mode cannot work without. */
const KEY_OF_MODE = { PROJECTION: 'expression', TEMPLATE: 'template', SCRIPT: 'script' } as const;

export interface MapperOptions {
  /** Whether the build includes the script-js optional plugin. */
  readonly scripts: boolean;
}

export function createMapperPlugin(options: MapperOptions) {
  return definePlugin({
    type: 'MAPPER',
    kind: 'processor',
    description:
      'Replaces each payload by a JSONata projection, a Handlebars template rendering or a script result.',
    configSchema: z
      .looseObject({
        mode: z.enum(MAPPER_MODES).default('PROJECTION').describe('How the new payload is made'),
        expression: jsonataExpression()
          .optional()
          .describe('PROJECTION: JSONata whose value becomes the payload'),
        template: handlebarsTemplate()
          .optional()
          .describe('TEMPLATE: Handlebars template rendered with the payload'),
        script: z.string().min(1).optional().describe('SCRIPT: JavaScript returning the payload'),
      })
      .superRefine((config, ctx) => {
        if (config.mode === 'SCRIPT' && !options.scripts) {
          ctx.addIssue({ code: 'custom', path: ['mode'], message: SCRIPT_NOT_INCLUDED });
          return;
        }
        const key = KEY_OF_MODE[config.mode];
        if (config[key] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `MAPPER mode ${config.mode} needs '${key}'`,
          });
        }
      }),
    outputPorts: () => ['out'],
  });
}
