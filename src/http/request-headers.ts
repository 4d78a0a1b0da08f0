// Request headers the routes read, one value each.

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** A header given once and not empty; undefined otherwise. */
export function headerText(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** SPEC: an optional `Idempotency-Key` header on a start. */
export function idempotencyKey(headers: Headers): string | undefined {
  return headerText(headers, 'idempotency-key');
}
