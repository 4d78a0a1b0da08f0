// PROCESS_EXECUTOR (optional plugin process-executor): runs a command once per message.
// Which commands may run is a server safeguard (SPEC Workflow-author safeguards), checked at run time.
import { definePlugin, z } from '../../../plugin-api/index.js';

export const processExecutorPlugin = definePlugin({
  type: 'PROCESS_EXECUTOR',
  kind: 'processor',
  description:
    'Runs a command once per message and emits its output; a non-zero exit fails that message.',
  configSchema: z.looseObject({
    command: z.string().min(1).describe('Executable name, or a command line when useShell is set'),
    args: z.array(z.string()).optional().describe('Arguments passed to the command'),
    useShell: z.boolean().optional().describe('Run the command through a shell'),
    cwd: z.string().min(1).optional().describe('Working directory'),
    env: z.record(z.string(), z.string()).optional().describe('Extra environment variables'),
    stdin: z.string().optional().describe('Text written to the standard input'),
  }),
  outputPorts: () => ['out'],
  defaultTimeoutSeconds: 30,
});
