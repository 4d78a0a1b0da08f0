// Answers as the server pays for them: a page of 100 execution records and one record, written by
// the server's answer writer and counted in bytes for Content-Length as Fastify does before the
// socket write (a writer that concatenates pays there for joining its pieces), against the
// schema-compiled writer the server used before (fast-json-stringify, Fastify's default) doing
// the same in the same run.
import { answerSerializerCompiler } from '../src/http/answer-serializer.js';
import { OPERATIONS } from '../src/http/api-contract/index.js';
import { successEnvelope } from '../src/http/api-contract/envelopes.js';
import type { Bench, BenchResult } from './harness.js';
import { medianPair, round } from './harness.js';
import { schemaWriter } from './schema-writer.js';

function record(index: number): Record<string, unknown> {
  const at = new Date(1_700_000_000_000 + index * 1000).toISOString();
  const node = (status: string) => ({
    status,
    startedAt: at,
    endedAt: at,
    messagesIn: 1,
    messagesOut: 1,
    retries: 0,
    error: null,
  });
  return {
    executionId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    sessionId: 'bench',
    workflowId: 'short',
    workflowVersion: 1,
    status: 'COMPLETED',
    priority: 0,
    createdAt: at,
    startedAt: at,
    endedAt: at,
    error: null,
    restartOf: null,
    resumedFrom: null,
    parentExecutionId: null,
    nodes: { in: node('COMPLETED'), map: node('COMPLETED'), out: node('COMPLETED') },
  };
}

/** Answers written and counted per second by `write`, over about half a second after a warm-up. */
function rate(write: () => number): number {
  for (let i = 0; i < 2_000; i++) write();
  let count = 0;
  const started = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < 0.5) {
    for (let i = 0; i < 200; i++) write();
    count += 200;
    elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  }
  return count / elapsed;
}

function dataSchemaOf(key: keyof typeof OPERATIONS): Parameters<typeof successEnvelope>[0] {
  const answer = OPERATIONS[key]?.answers[200];
  if (answer?.kind !== 'envelope') throw new Error(`${key} has no envelope answer`);
  return answer.data;
}

export const answerSerializeBench: Bench = {
  name: 'http.answer',
  async run(): Promise<BenchResult[]> {
    const cases = [
      {
        name: 'http.answer.execution-page',
        schema: successEnvelope(dataSchemaOf('GET /api/executions')),
        data: { items: Array.from({ length: 100 }, (_, index) => record(index)), nextCursor: null },
      },
      {
        name: 'http.answer.execution',
        schema: successEnvelope(dataSchemaOf('GET /api/executions/:id')),
        data: record(1),
      },
    ];
    const results: BenchResult[] = [];
    for (const { name, schema, data } of cases) {
      const write = answerSerializerCompiler({
        schema,
        method: 'GET',
        url: '/',
        httpStatus: '200',
      });
      const answer = { timestamp: new Date().toISOString(), status: 200, message: 'm', data };
      if (JSON.stringify(JSON.parse(write(answer))) !== JSON.stringify(answer)) {
        throw new Error(`${name}: the server's writer does not write what JSON.stringify writes`);
      }
      const before = schemaWriter(schema);
      if (JSON.stringify(JSON.parse(before(answer))) !== JSON.stringify(answer)) {
        throw new Error(`${name}: the schema writer does not write what JSON.stringify writes`);
      }
      const { value, baseline } = await medianPair(
        () =>
          Promise.resolve({
            value: rate(() => Buffer.byteLength(write(answer))),
            baseline: rate(() => Buffer.byteLength(before(answer))),
          }),
        (pair) => pair.value / pair.baseline,
      );
      results.push({
        name,
        value: round(value, 0),
        unit: 'answers/s',
        baseline: round(baseline, 0),
        ratio: value / baseline,
        goal: '>= 1 of the schema writer',
      });
    }
    return results;
  },
};
