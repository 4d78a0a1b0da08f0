// What went wrong in a fetch, in words: fetch says "fetch failed" and puts the reason
// (ECONNREFUSED, a TLS problem, ...) in `cause`.

export function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
