// Every registered route by method and pattern, so a path that exists for other methods is
// answered 405 with an Allow header instead of 404.
import FindMyWay from 'find-my-way';
import type { HTTPMethod } from 'find-my-way';

const METHODS: readonly HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export interface RouteEntry {
  readonly method: string;
  readonly url: string;
}

export class RouteTable {
  readonly #router = FindMyWay();
  readonly #entries: RouteEntry[] = [];

  add(method: string, url: string): void {
    const upper = method.toUpperCase() as HTTPMethod;
    if (!METHODS.includes(upper)) return;
    this.#router.on(upper, url, () => undefined);
    this.#entries.push({ method: upper, url });
  }

  /** Methods served for this concrete path; empty when the path exists for none. */
  allowedMethods(path: string): string[] {
    return METHODS.filter((method) => this.#router.find(method, path) !== null);
  }

  entries(): readonly RouteEntry[] {
    return this.#entries;
  }
}
