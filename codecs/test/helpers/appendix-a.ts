import fs from 'node:fs';
import path from 'node:path';
import { sharedDir } from './paths.js';

/**
 * RFC 8949 Appendix A, from the shared test vectors beside the repository
 * (`../shared/test-vectors`, or the folder WIRESCOPE_SHARED names, for a checkout elsewhere).
 */
export interface AppendixAVector {
  readonly hex: string;
}

export function appendixAVectors(): AppendixAVector[] {
  const file = path.join(sharedDir, 'test-vectors/cbor-appendix-a.json');
  if (!fs.existsSync(file)) throw new Error(`missing ${file}: the RFC 8949 Appendix A vectors live in ../shared`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as AppendixAVector[];
}
