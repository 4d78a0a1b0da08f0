// Answers are written by V8's JSON.stringify. The route's response schema is still the one the
// API description shows and the one every answer is held to: the tests turn on answer-check.ts,
// which parses each answer strictly (no field the description misses, every type right) and
// checks that what was written reads back as that value, so no route hands this writer a field
// it should not write.
//
// A schema-compiled writer (fast-json-stringify, Fastify's default) was used before. On Node 24
// it costs more than it saves: it builds the answer by concatenating many short strings, and
// the server then pays for joining them when Fastify counts the bytes for Content-Length, while
// JSON.stringify writes one flat string. Counted as the server pays (writer and byte count,
// `npm run bench -- http.answer`), JSON.stringify is about 1.35 times faster on one execution
// and 1.6 to 3 times on a page of a hundred; and no writer is compiled per route and status at start-up.
import type { FastifySerializerCompiler } from 'fastify';

/** Writes an answer; the same for every route and status. */
function writeAnswer(data: unknown): string {
  return JSON.stringify(data);
}

export const answerSerializerCompiler: FastifySerializerCompiler<unknown> = () => writeAnswer;
