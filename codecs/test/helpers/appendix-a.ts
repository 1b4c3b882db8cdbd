import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * RFC 8949 Appendix A, from the shared test vectors beside the repository
 * (`../shared/test-vectors`, or the folder WIRESCOPE_SHARED names, for a checkout elsewhere).
 */
export interface AppendixAVector {
  readonly hex: string;
}

export function appendixAVectors(): AppendixAVector[] {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
  const shared = process.env.WIRESCOPE_SHARED ?? path.resolve(repo, '../shared');
  const file = path.join(shared, 'test-vectors/cbor-appendix-a.json');
  if (!fs.existsSync(file)) throw new Error(`missing ${file}: the RFC 8949 Appendix A vectors live in ../shared`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as AppendixAVector[];
}
