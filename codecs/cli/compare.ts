import { FRAME_FORMATS, type FrameFormat } from '../index.js';
import { readInputFrame } from '../input-reading.js';
import {
  CODEC_NAMES,
  formatJson,
  formatKeyOverhead,
  formatMarkdown,
  formatText,
  frameValue,
  keyOverhead,
  runComparison,
} from '../compare/index.js';
import type { CompareArgs } from './args.js';
import { compareSessionCommand } from './compare-session.js';
import type { SessionProto } from './session-proto.js';
import type { MachineInfo } from '../compare/session/report.js';
import { schemaActuals } from '../compare/schema/actuals.js';
import { nodeLanes } from '../compare/node-lane.js';
import type { LanePool } from '../compare/lanes.js';
import type { CompareResult } from './compare-result.js';
import { grouped } from '../core/grouped.js';
export type { CompareResult } from './compare-result.js';

/**
 * `wirescope compare`: the frame's value re-encoded in every codec — sizes, compressed
 * sizes, speed, losslessness — plus the frame's own key overhead. Progress goes to stderr.
 * A large value is measured on two worker-thread lanes (compare/lanes.ts), a small one here.
 */
export async function compare(
  raw: Uint8Array,
  args: CompareArgs,
  progress: (text: string) => void = () => {},
  proto?: SessionProto,
  machine?: MachineInfo,
  lanes: LanePool = nodeLanes(),
): Promise<CompareResult> {
  if (args.session) return compareSessionCommand(raw, args, progress, proto, machine);
  if (args.protos.length || args.message !== null)
    return {
      stdout: '',
      stderr: 'wirescope: --proto and --message need --session (they add a row to the session comparison)\n',
      code: 2,
    };
  if (args.connection !== null)
    return {
      stdout: '',
      stderr: 'wirescope: --connection needs --session (it picks a connection of a capture)\n',
      code: 2,
    };
  if (args.report !== null)
    return { stdout: '', stderr: 'wirescope: --report needs --session (it reports a whole capture)\n', code: 2 };
  if (args.brotliQuality !== null)
    return {
      stdout: '',
      stderr: "wirescope: --brotli-quality needs --session (it sets the session's brotli column)\n",
      code: 2,
    };
  if (args.format !== 'auto' && !FRAME_FORMATS.includes(args.format as FrameFormat)) {
    return {
      stdout: '',
      stderr: `wirescope: --format must be auto or one of ${FRAME_FORMATS.join(', ')}, not ${args.format}\n`,
      code: 2,
    };
  }
  const unknown = (args.codecs ?? []).filter((c) => !CODEC_NAMES.includes(c));
  if (unknown.length)
    return {
      stdout: '',
      stderr: `wirescope: unknown codec ${unknown.join(', ')}; codecs: ${CODEC_NAMES.join(', ')}\n`,
      code: 2,
    };
  const input = readInputFrame(raw, args.input, { format: args.format, isText: args.text });
  if (!input.ok)
    return {
      stdout: '',
      stderr: `wirescope: input is not ${args.input}: ${input.error} at character ${input.offset}\n`,
      code: 2,
    };
  // A 0-byte frame (a WebSocket frame may be empty) is verdict `empty`, as `inspect` says:
  // nothing to re-encode, not malformed (exit 0). A forced --format keeps that format's error.
  if (input.bytes.length === 0 && args.format === 'auto') {
    if (args.output === 'json')
      return {
        stdout: formatJson([], { frame: { format: null, bytes: 0, verdict: 'empty' } }) + '\n',
        stderr: '',
        code: 0,
      };
    return { stdout: `empty, 0 bytes — ${EMPTY_INPUT}\n`, stderr: '', code: 0 };
  }
  let frame: ReturnType<typeof frameValue>;
  try {
    frame = frameValue(input.bytes, {
      format: args.format as 'auto' | FrameFormat,
      isText: args.text || input.textFrame === true,
    });
  } catch (e) {
    return { stdout: '', stderr: `wirescope: ${(e as Error).message}\n`, code: 1 };
  }
  const rows = await runComparison(frame.value, {
    runs: args.runs,
    codecs: args.codecs ?? undefined,
    budgetMs: 200,
    lanes,
    onProgress: (p) => progress(`compare: ${p.done}/${p.total} ${p.codec}\n`),
  });
  const keys =
    frame.format === 'cbor' || frame.format === 'msgpack' || frame.format === 'json' ? keyOverhead(frame.index) : null;
  const actuals = keys ? schemaActuals(frame.value) : [];
  const title = `${frame.format} frame, ${grouped(input.bytes.length)} bytes`;
  if (args.output === 'json')
    return {
      stdout:
        formatJson(rows, { frame: { format: frame.format, bytes: input.bytes.length }, keys, schemaActuals: actuals }) +
        '\n',
      stderr: '',
      code: 0,
    };
  if (args.output === 'markdown') return { stdout: formatMarkdown(rows, title) + '\n', stderr: '', code: 0 };
  const out = [title, '', formatText(rows)];
  if (keys) out.push('', formatKeyOverhead(keys, actuals));
  return { stdout: out.join('\n') + '\n', stderr: '', code: 0 };
}

/** `inspect`'s wording for a 0-byte input (the paste page's), for compare. */
const EMPTY_INPUT = 'nothing to compare: the input is empty';
