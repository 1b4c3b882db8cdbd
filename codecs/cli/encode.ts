import { encodeBase64 } from '../core/base64.js';
import { hex } from '../core/diagnostic.js';
import { editErrorText, encodeEdit } from '../edit/index.js';
import type { LoadedSchema } from '../protobuf/schema/load.js';
import type { EncodeArgs } from './args.js';

export interface EncodeResult {
  /** The encoded bytes as they go to standard output (raw, or hex / base64 text and a newline). */
  readonly stdout: Uint8Array;
  readonly stderr: string;
  /** 0 encoded, 1 the input does not encode. */
  readonly code: 0 | 1;
}

/** `wirescope encode` without the process around it: the edit text's bytes in, the frame's bytes out. */
export function encode(raw: Uint8Array, args: EncodeArgs, schema: LoadedSchema | null, name: string): EncodeResult {
  const fail = (message: string): EncodeResult => ({ stdout: new Uint8Array(0), stderr: message + '\n', code: 1 });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return fail(`wirescope: ${name}: the input is not UTF-8 text`);
  }
  const r = encodeEdit(args.format, text, {
    from: args.from ?? undefined,
    schema: schema ?? undefined,
    type: args.type ?? undefined,
  });
  if (!r.ok) return fail(`wirescope: ${name}:${editErrorText(r.error)}`);
  if (args.output === 'raw') return { stdout: r.bytes, stderr: '', code: 0 };
  const out = args.output === 'hex' ? hex(r.bytes, 0, r.bytes.length) : encodeBase64(r.bytes);
  return { stdout: new TextEncoder().encode(out + '\n'), stderr: '', code: 0 };
}
