// `svc.workers.ssl-bundle`: a directory holding the PEM files both sides of a worker
// connection need (docs/workers.md, "TLS").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../core/index.js';

/** This side's certificate and key, and the CA its peer's certificate must be signed by. */
export interface TlsBundle {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly ca: Buffer;
}

export const BUNDLE_FILES = ['cert.pem', 'key.pem', 'ca.pem'] as const;

/** Reads the bundle; a missing or unreadable file stops start-up, naming it. */
export function readTlsBundle(dir: string): TlsBundle {
  const read = (file: (typeof BUNDLE_FILES)[number]): Buffer => {
    const full = path.join(dir, file);
    try {
      return readFileSync(full);
    } catch (error) {
      throw new AppError('SETTINGS_INVALID', {
        params: {
          detail: `svc.workers.ssl-bundle '${dir}' needs ${BUNDLE_FILES.join(', ')}; cannot read ${full}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        },
        cause: error,
      });
    }
  };
  return { cert: read('cert.pem'), key: read('key.pem'), ca: read('ca.pem') };
}
