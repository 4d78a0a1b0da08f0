// MAPPER: reshapes each payload by projection, template or script (CONTRACT section 2).
// SCRIPT mode exists only in builds with the script-js optional plugin (SPEC Build-time choices).
import {
  compileExpression,
  compileTemplate,
  definePlugin,
  handlebarsTemplate,
  jsonataExpression,
  pluginSettings,
  z,
} from '../../../plugin-api/index.js';
import type { MessageProcessor } from '../../../plugin-api/index.js';
import { ScriptPool } from './script-pool.js';
import { ScriptRunner, scriptProblem } from './script-runner.js';
import type { ScriptSettings } from './script-runner.js';

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
    pure: true,
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
        script: z
          .string()
          .min(1)
          .optional()
          .describe(
            'SCRIPT: JavaScript, the body of function (payload, message), returning the new payload',
          ),
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
          return;
        }
        const problem =
          config.mode === 'SCRIPT' && config.script !== undefined
            ? scriptProblem(config.script)
            : undefined;
        if (problem !== undefined)
          ctx.addIssue({ code: 'custom', path: ['script'], message: problem });
      }),
    outputPorts: () => ['out'],
    // The limits of every script run (SPEC Workflow-author safeguards), and the worker threads
    // the scripts of every SCRIPT node of the server share.
    settings: pluginSettings(
      [
        'svc.script.timeout-ms',
        'svc.script.max-statements',
        'svc.script.max-memory',
        'svc.script.workers',
      ],
      (values): ScriptSettings => ({
        limits: {
          timeoutMs: values['svc.script.timeout-ms'],
          maxStatements: values['svc.script.max-statements'],
          maxMemory: values['svc.script.max-memory'],
        },
        pool: new ScriptPool({ workers: values['svc.script.workers'] }),
      }),
      { close: (settings) => settings.pool.close() },
    ),
    create: (config, setup) => {
      const text = config[KEY_OF_MODE[config.mode]];
      // Validation refuses a mode without its key; this guards direct use.
      if (text === undefined) throw new Error(`MAPPER mode ${config.mode} needs its key`);
      switch (config.mode) {
        case 'PROJECTION':
          return project(text);
        case 'TEMPLATE':
          return render(text);
        case 'SCRIPT':
          return new ScriptRunner(text, setup.settings);
      }
    },
  });
}

/** The expression's value is the new payload; JSONata's undefined (no match) becomes null. */
function project(text: string): MessageProcessor {
  const expression = compileExpression(text);
  return {
    async process(message, ctx) {
      return { payload: (await expression.evaluate(message.payload, message, ctx)) ?? null };
    },
  };
}

/** The rendered string is the new payload; the payload is the template's context. */
function render(text: string): MessageProcessor {
  const template = compileTemplate(text, 'Template');
  return { process: (message) => ({ payload: template.render(message.payload) }) };
}
