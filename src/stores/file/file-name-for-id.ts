// Maps any record id to a file name that is safe on every common file system, including
// case-insensitive and Unicode-normalising ones, so two distinct ids never share a file.
import { createHash } from 'node:crypto';

/** Longer names fall back to a hash; leaves room for suffixes within the usual 255-byte limit. */
export const MAX_ENCODED_NAME_BYTES = 200;

/** Marks a hashed name; the encoding below never leaves `@` as is, so the two cannot clash. */
const HASHED_PREFIX = '@sha256-';

/** Names Windows reserves whatever the extension; escaping their first letter avoids them. */
const RESERVED_NAME = /^(?:con|prn|aux|nul|com\d|lpt\d)$/;

function percentEncode(character: string): string {
  return Array.from(
    Buffer.from(character, 'utf8'),
    (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('');
}

function hashedName(id: string): string {
  // UTF-16 code units keep even ill-formed strings distinct, unlike a UTF-8 conversion.
  return HASHED_PREFIX + createHash('sha256').update(id, 'utf16le').digest('hex');
}

/**
 * Percent-encodes everything but lower-case ASCII letters, digits, `-` and `_`. Upper-case
 * letters are escaped too, so the only upper-case characters left are hex digits after `%`,
 * and names differing only in case cannot come from different ids. The result is pure ASCII
 * and never `.`, `..` or a hidden name. Empty, over-long and ill-formed ids (lone surrogates,
 * which UTF-8 cannot carry) get a sha256-based name; the real id stays inside the file.
 */
export function fileNameForId(id: string): string {
  if (id === '' || /\p{Cs}/u.test(id)) return hashedName(id);
  let name = '';
  for (const character of id) {
    name += /^[a-z0-9_-]$/.test(character) ? character : percentEncode(character);
    if (name.length > MAX_ENCODED_NAME_BYTES) return hashedName(id);
  }
  return RESERVED_NAME.test(name) ? percentEncode(name.charAt(0)) + name.slice(1) : name;
}
