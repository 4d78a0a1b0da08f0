// The worker protocol on its own: lines, messages and payloads (docs/workers.md, "Protocol").
import { describe, expect, it } from 'vitest';
import {
  LineDecoder,
  ProtocolError,
  encodeLine,
  fromWireEmit,
  fromWireMessage,
  parseControlMessage,
  parseWorkerMessage,
  toWireEmit,
  toWireMessage,
} from './protocol.js';

describe('worker protocol lines', () => {
  it('writes one line per message: a line break inside a string is escaped', () => {
    const line = encodeLine({ type: 'failed', call: 'c1', error: 'two\nlines', retryable: false });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(parseWorkerMessage(line.slice(0, -1))).toEqual({
      type: 'failed',
      call: 'c1',
      error: 'two\nlines',
      retryable: false,
    });
  });

  it('splits a byte stream into lines, also when a line or a character is split between chunks', () => {
    const decoder = new LineDecoder();
    const bytes = Buffer.from('{"a":"é"}\n\n{"b":2}\n{"c"', 'utf8');
    // Cut inside the two bytes of é and inside the last line.
    const cut = bytes.indexOf(0xa9);
    expect(decoder.push(bytes.subarray(0, cut))).toEqual([]);
    expect(decoder.push(bytes.subarray(cut))).toEqual(['{"a":"é"}', '{"b":2}']);
    expect(decoder.push(Buffer.from(':3}\n'))).toEqual(['{"c":3}']);
  });

  it('refuses a line longer than its limit rather than buffering it', () => {
    const decoder = new LineDecoder(8);
    expect(decoder.push(Buffer.from('12345678\n'))).toEqual(['12345678']);
    expect(() => decoder.push(Buffer.from('123456789'))).toThrow(ProtocolError);
    expect(() => decoder.push(Buffer.from('1234\n123456789\n'))).toThrow(
      'A line is longer than 8 characters',
    );
  });
});

describe('worker protocol messages', () => {
  it('refuses a message that does not follow the protocol, naming where', () => {
    expect(() => parseWorkerMessage('not json')).toThrow('A line is not valid JSON');
    expect(() => parseWorkerMessage('{"type":"hello","protocol":1}')).toThrow(
      /^Unexpected message at token: /,
    );
    expect(() => parseControlMessage('{"type":"launch"}')).toThrow(ProtocolError);
  });

  it('reads every message a control plane sends', () => {
    const open = {
      type: 'open',
      node: 'n1',
      executionId: 'e',
      sessionId: 's',
      workflowId: 'w',
      nodeId: 'map',
      nodeType: 'MAPPER',
      config: { mode: 'TEMPLATE', template: '${env.X}' },
      startPayload: { a: 1 },
    } as const;
    expect(parseControlMessage(JSON.stringify(open))).toEqual(open);
    expect(parseControlMessage('{"type":"cancel","call":"c9"}')).toEqual({
      type: 'cancel',
      call: 'c9',
    });
    expect(parseControlMessage('{"type":"refused","reason":"token","message":"no"}')).toEqual({
      type: 'refused',
      reason: 'token',
      message: 'no',
    });
  });

  it('carries byte payloads as base64 and every other payload as JSON', () => {
    const bytes = new Uint8Array([0, 1, 2, 255]).subarray(1, 4);
    const wire = toWireMessage({ id: 'm1', headers: { attempt: 2, note: 'x' }, payload: bytes });
    expect(wire).toEqual({ id: 'm1', headers: { attempt: 2, note: 'x' }, bytes: 'AQL/' });
    const back = fromWireMessage(JSON.parse(JSON.stringify(wire)) as typeof wire);
    expect(Buffer.isBuffer(back.payload)).toBe(true);
    expect([...(back.payload as Uint8Array)]).toEqual([1, 2, 255]);
    expect(back.headers).toEqual({ attempt: 2, note: 'x' });

    const emit = toWireEmit({ payload: { n: [1, 2] }, port: 'error', headers: { index: 0 } });
    expect(fromWireEmit(emit)).toEqual({
      payload: { n: [1, 2] },
      port: 'error',
      headers: { index: 0 },
    });
  });
});
