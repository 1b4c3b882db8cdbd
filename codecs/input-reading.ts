/**
 * Which reading of typed or pasted text is the frame: the characters themselves, or the bytes
 * they spell as hex / base64. `parseInput` (input.ts) reads the notation; this decides, by
 * decoding, when both readings exist. Shared by the CLI (`inspect`, `compare`) and the paste
 * page (through its worker), so a text reads the same everywhere.
 *
 * The rule, for text that is printable and also reads as hex or base64 (`auto` input):
 * 1. hex written as hex — byte tokens apart (`83 01 02`), a `0x` prefix or a `#` comment — is hex;
 * 2. with `isText` (the frame was a WebSocket text frame) base64 is never taken: the text is the frame;
 * 3. the hex / base64 reading is taken when it decodes cleanly: whole, with confidence 0.5 or
 *    more (a 1–2 byte frame's confidence is halved by detection, so it counts doubled), or,
 *    with a format forced, whole in that format;
 * 4. else the text itself is the frame when it reads whole (as text it always does; with a
 *    binary format forced it seldom does, and the hex / base64 reading stays).
 * So `ping` (base64 for a broken CBOR head), `cafe` (hex for a broken MessagePack float) and
 * `hello world` (base64 for 7 bytes only schema-less Protobuf guesses at) are text, while
 * `gwECAw==` (a CBOR array), `a0` (an empty CBOR map) and `83 01 02` stay bytes.
 */
import { decodeFrame, type FrameFormat } from './index.js';
import { parseInput, type InputMode, type ParsedInput } from './input.js';
import { TINY_BINARY_BYTES } from './detect.js';

export interface InputReadingOptions {
  /** The format the frame will be read as ('auto' by default). */
  readonly format?: string;
  /** The frame was a WebSocket text frame (`--text`). */
  readonly isText?: boolean;
  /** The connection's negotiated subprotocol, as the frame will be decoded with it. */
  readonly subprotocol?: string | null;
}

/** A reading at least this confident is a clean decode; below it, a guess the text beats. */
const FIRM_CONFIDENCE = 0.5;

/** The frame a file, stdin or a paste holds: parseInput's reading, settled against the text itself. */
export function readInputFrame(
  input: Uint8Array | string,
  mode: InputMode = 'auto',
  options: InputReadingOptions = {},
): ParsedInput {
  const parsed = parseInput(input, mode, { format: options.format });
  if (mode !== 'auto' || !parsed.ok || parsed.encoding === 'raw') return parsed;
  const text = typeof input === 'string' ? input : new TextDecoder('latin1').decode(input);
  return settleTextReading(text, parsed, options);
}

/**
 * `parsed` is a hex / base64 reading of `text` (already known to be printable: parseInput reads
 * notation from nothing else): that reading, or the text as the frame, by the rule above.
 */
export function settleTextReading(text: string, parsed: ParsedInput, options: InputReadingOptions = {}): ParsedInput {
  if (!parsed.ok || parsed.encoding === 'raw') return parsed;
  if (parsed.encoding === 'hex' && isHexNotation(text)) return parsed;
  const asText: ParsedInput = { ok: true, bytes: new TextEncoder().encode(text), encoding: 'raw', textFrame: true };
  if (options.isText && parsed.encoding !== 'hex') return asText;
  const format = (options.format ?? 'auto') as 'auto' | FrameFormat;
  const decodeOptions = { format, isText: options.isText, subprotocol: options.subprotocol, depth: 1 };
  if (decodesCleanly(parsed.bytes, decodeOptions)) return parsed;
  if (format === 'auto') return asText;
  return decodeFrame(asText.bytes, { ...decodeOptions, isText: true }).verdict === 'decoded' ? asText : parsed;
}

function decodesCleanly(
  bytes: Uint8Array,
  options: { format: 'auto' | FrameFormat; isText?: boolean; subprotocol?: string | null; depth: number },
): boolean {
  const frame = decodeFrame(bytes, options);
  if (frame.verdict !== 'decoded') return false;
  // A forced format has no confidence: reading whole in it is what the user asked for.
  if (options.format !== 'auto') return true;
  const best = frame.detection?.candidates[0];
  if (!best) return false;
  const tiny = !options.isText && bytes.length <= TINY_BINARY_BYTES;
  // To the hundredth, as confidences are printed: a Protobuf reading's 0.49999999999999994 is 0.5.
  const confidence = Math.round((tiny ? best.confidence * 2 : best.confidence) * 100) / 100;
  return confidence >= FIRM_CONFIDENCE;
}

/**
 * Text written as hex on purpose: byte tokens (`a1`, `0x61`, `6161`) apart by spaces or commas,
 * a `0x` prefix or a cbor.me-style `#` comment. A bare run of digits (`cafe`, `deadbeef`)
 * may as well be a word.
 */
export function isHexNotation(text: string): boolean {
  const hasComment = text.includes('#');
  const tokens = text
    .replace(/#[^\n]*/g, ' ')
    .split(/[\s,]+/)
    .filter(Boolean);
  if (!tokens.every((t) => /^(0[xX])?([0-9a-fA-F]{2})+$/.test(t))) return false;
  return hasComment || tokens.length >= 2 || tokens.some((t) => /^0[xX]/.test(t));
}
