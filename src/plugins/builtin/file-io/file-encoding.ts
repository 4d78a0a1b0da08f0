// Text encodings FILE_READ and FILE_WRITE accept: those Node.js can decode and encode.
import { z } from '../../../plugin-api/index.js';

export const FILE_ENCODINGS = [
  'utf8',
  'utf-8',
  'utf16le',
  'latin1',
  'ascii',
  'base64',
  'base64url',
  'hex',
] as const;

export type FileEncoding = (typeof FILE_ENCODINGS)[number];

export const fileEncoding = () =>
  z.enum(FILE_ENCODINGS).default('utf8').describe('Text encoding of the file content');
