// Renders docs/errors.md from the error catalogue and the HTTP mapping, so the three agree.
import { ERROR_CATALOGUE, ERROR_CODES } from '../core/index.js';
import { reasonPhrase } from './envelope.js';
import { HTTP_STATUS_BY_CODE } from './error-mapping.js';

export function renderErrorsDoc(): string {
  const rows = ERROR_CODES.map((code) => {
    const spec = ERROR_CATALOGUE[code];
    const status = HTTP_STATUS_BY_CODE[code];
    const message = code === 'INTERNAL' ? spec.template : spec.template.replace(/\|/g, '\\|');
    return `| \`${code}\` | ${status} ${reasonPhrase(status)} | ${spec.kind} | ${spec.retryable ? 'yes' : 'no'} | ${message} |`;
  });
  return [
    '# Errors',
    '',
    '<!-- Generated from src/core/errors.ts and src/http/error-mapping.ts by `npm run docs`. -->',
    '',
    'Every error answer is the SPEC envelope: `timestamp`, `status`, `error` (the reason phrase),',
    '`message`, `path`, and `errors` (a list of `{ field, message }`) only when the problem is tied',
    'to fields. Branch on `status`, never on the message text. `{name}` in a message stands for',
    'a value of the request. Every answer carries `X-Request-ID`; a `500` names it as its',
    'reference, and no stack trace ever reaches a client. Every `503` carries `Retry-After`',
    '(`svc.ha.renew-interval` in whole seconds, at least 1): try again after it, or at the other',
    'server of a high-availability pair.',
    '',
    '| Code | HTTP status | Kind | Retry can help | Message |',
    '| - | - | - | - | - |',
    ...rows,
    '',
    'Kinds: `user` (fix the request), `operational` (the server cannot do its work: storage,',
    'settings), `unexpected` (a defect; report the reference).',
    '',
  ].join('\n');
}
