// Holds every answer to its documented schema: the value a route answers must parse strictly
// (no field the description misses, every type right), and what the serialiser wrote must read
// back as that same value. Turned on by the tests, so every call they make proves the contract.
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';

/** A disagreement between an answer and its schema. */
export interface AnswerMismatch {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly problem: string;
}

const expected = new WeakMap<FastifyReply, unknown>();

export function installAnswerCheck(
  fastify: FastifyInstance,
  report: (mismatch: AnswerMismatch) => void,
): void {
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    const schema = responseSchemaOf(reply);
    if (schema === undefined) {
      done(null, payload);
      return;
    }
    const fail = (problem: string): void => {
      const mismatch = {
        method: request.method,
        url: request.routeOptions.url ?? request.url,
        status: reply.statusCode,
        problem,
      };
      report(mismatch);
      done(new Error(`The answer does not match its schema: ${JSON.stringify(mismatch)}`));
    };
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      fail(z.prettifyError(parsed.error));
      return;
    }
    expected.set(reply, JSON.parse(JSON.stringify(payload)) as unknown);
    done(null, payload);
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const value = expected.get(reply);
    if (value === undefined || typeof payload !== 'string') {
      done(null, payload);
      return;
    }
    expected.delete(reply);
    const written = JSON.parse(payload) as unknown;
    if (!isDeepStrictEqual(written, value)) {
      const mismatch = {
        method: request.method,
        url: request.routeOptions.url ?? request.url,
        status: reply.statusCode,
        problem: `written ${payload.slice(0, 2000)} instead of ${JSON.stringify(value).slice(0, 2000)}`,
      };
      report(mismatch);
      done(new Error(`The answer was not written as given: ${JSON.stringify(mismatch)}`));
      return;
    }
    done(null, payload);
  });
}

/** The zod schema the answer's status is documented with, if any. */
function responseSchemaOf(reply: FastifyReply): z.ZodType | undefined {
  const response = (reply.routeOptions.schema as { response?: Record<string, unknown> } | undefined)
    ?.response;
  if (response === undefined) return undefined;
  const status = reply.statusCode;
  const schema = response[String(status)] ?? response[`${String(status)[0]}XX`];
  return schema instanceof z.ZodType ? schema : undefined;
}
