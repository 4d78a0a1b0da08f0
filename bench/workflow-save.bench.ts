// Validating and saving the largest workflow SPEC allows (500 nodes, 2000 edges), through the
// service layer and through a real HTTP PUT, against a raw JSON round trip of the same draft.
import { createApp } from '../src/app.js';
import { defaultSettings } from '../src/config/index.js';
import { createSilentLoggers } from '../src/observability/index.js';
import { TEST_BUILD_INFO, call } from '../test/support/server.js';
import { largeWorkflow } from '../test/support/workflows.js';
import { medianMs } from './harness.js';
import type { Bench, BenchResult } from './harness.js';

export const workflowSaveBench: Bench = {
  name: 'workflow.validate-save',
  async run(): Promise<BenchResult[]> {
    const draft = largeWorkflow(500, 2000);
    const body = JSON.stringify(draft);
    const settings = { ...defaultSettings('dev'), 'svc.server.port': 0 };
    const app = await createApp({
      settings,
      profile: 'dev',
      buildInfo: TEST_BUILD_INFO,
      loggers: createSilentLoggers(),
    });
    try {
      await app.sessions.createSession(
        { sessionId: 'bench', name: 'bench', initiator: 'bench' },
        'bench',
      );
      const baseline = await medianMs(() => JSON.parse(JSON.stringify(JSON.parse(body))), 50);
      const service = await medianMs(
        () => app.sessions.defineWorkflow('bench', draft, 'bench'),
        50,
      );
      // Every expression new, as on the first save of a workflow: no syntax check is cached.
      let round = 0;
      const cold = await medianMs(
        () => {
          round++;
          const fresh = {
            ...draft,
            nodes: draft.nodes.map((node, index) =>
              node.type === 'FILTER'
                ? { ...node, config: { expression: `payload.n > ${round * 1000 + index}` } }
                : node,
            ),
          };
          return app.sessions.defineWorkflow('bench', fresh, 'bench');
        },
        20,
        2,
      );
      const { port } = await app.listen();
      const base = `http://127.0.0.1:${port}`;
      const http = await medianMs(async () => {
        const answer = await call(base, 'PUT', '/api/sessions/bench/workflows/large', { body });
        if (answer.status >= 300) throw new Error(`PUT failed with ${answer.status}`);
      }, 50);
      return [
        {
          name: 'workflow.validate-save.500x2000',
          value: service,
          unit: 'ms',
          baseline,
          ratio: service / baseline,
          goal: '< 20 ms',
        },
        {
          name: 'workflow.validate-save-cold.500x2000',
          value: cold,
          unit: 'ms',
          baseline,
          ratio: cold / baseline,
          goal: '< 20 ms',
        },
        {
          name: 'workflow.define-http.500x2000',
          value: http,
          unit: 'ms',
          baseline,
          ratio: http / baseline,
          goal: '< 20 ms',
        },
      ];
    } finally {
      await app.close();
    }
  },
};
