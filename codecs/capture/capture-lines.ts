/**
 * The line layout of a wirescope capture: what a recorder writes while traffic flows, one
 * complete JSON object per line, so a recording cut short (the recorder killed, the disk
 * full) still reads up to its last complete line.
 *
 *   {"format":"wirescope-capture","version":1,"layout":"lines"}
 *   {"connection":{"connectionId","url","protocol","extensions",["extensionsRecorded":true,]"time"}}
 *   {"c":connectionId,"d":"s"|"r","t":time,"o":"t"|"b","b64":base64[,"w":[clientLegBytes,upstreamLegBytes]]}
 *   {"closed":{"c":connectionId,"code":1000,"reason":"","t":time}}
 *
 * A connection line comes before its frames. Frame lines are the same objects as in the
 * whole-file layout (capture-file.ts), so both layouts share one frame reader.
 */
import type { ConnectionInfo, WireFrame } from './types.js';
import { encodeBase64 } from '../core/base64.js';

export const LINES_LAYOUT = 'lines';

export function captureLinesHeader(): string {
  return `{"format":"wirescope-capture","version":1,"layout":"${LINES_LAYOUT}"}\n`;
}

export function connectionLine(c: ConnectionInfo): string {
  const { connectionId, url, protocol, extensions, time } = c;
  const recorded = c.extensionsRecorded ? { extensionsRecorded: true } : {};
  const upstream = c.upstreamExtensions !== undefined ? { upstreamExtensions: c.upstreamExtensions } : {};
  return `${JSON.stringify({ connection: { connectionId, url, protocol, extensions, ...recorded, ...upstream, time } })}\n`;
}

export function frameLine(f: WireFrame): string {
  return `${JSON.stringify({
    c: f.connectionId,
    d: f.direction === 'sent' ? 's' : 'r',
    t: f.time,
    o: f.opcode === 'text' ? 't' : 'b',
    b64: encodeBase64(f.data),
    ...(f.legBytes ? { w: [f.legBytes.client, f.legBytes.upstream] } : {}),
  })}\n`;
}

export function closedLine(connectionId: string, code: number, reason: string, time: number): string {
  return `${JSON.stringify({ closed: { c: connectionId, code, reason, t: time } })}\n`;
}

/** True when the file's first line says it is in the line layout. */
export function isLinesLayout(text: string): boolean {
  const end = text.indexOf('\n');
  const first = (end < 0 ? text : text.slice(0, end)).replace(/^\uFEFF/, '').trim();
  try {
    const head = JSON.parse(first) as Record<string, unknown>;
    return head?.format === 'wirescope-capture' && head.layout === LINES_LAYOUT;
  } catch {
    return false;
  }
}
