/**
 * The whole-session comparison in the worker: the held frames of a scope
 * (one connection, the list's filtered ids, or the whole capture) through
 * `compareSession`, rows streamed as each codec finishes, progress as it goes, then the
 * cumulative-bytes chart (from the sizes the comparison computed). Cancelled by its
 * AbortSignal; compareSession gives the worker's message loop a turn every few hundred
 * messages, so a cancel gets through.
 */
import type {
  CodecSizes,
  SessionMessage,
  SessionProgress,
  SessionRow,
} from '../../../codecs/compare/session/session.js';
import type { SessionChartData } from '../../../codecs/compare/session/cumulative.js';
import type { IngestFrame, SessionScope } from './api.js';
import type { FrameReader } from './session-frame-reading.js';
import type { SchemaCodec } from '../../../codecs/compare/schema/schema-codec.js';

export interface SessionSink {
  progress(p: SessionProgress): void;
  /** A codec's rows (per connection and direction, then its total), in one message: a capture with thousands of connections must not cost the page a render per row. */
  rows(rows: SessionRow[]): void;
  end(result: {
    cancelled: boolean;
    error: string | null;
    chart: SessionChartData | null;
    messages: number;
    workerMs: number;
  }): void;
}

/** The frames a scope names, in arrival order (lost placeholders hold no bytes and are not stored). */
export function framesOf(all: Iterable<IngestFrame>, scope: SessionScope): IngestFrame[] {
  const out: IngestFrame[] = [];
  if (scope.kind === 'frames') {
    const ids = new Set(scope.frameIds);
    for (const f of all) if (ids.has(f.frameId)) out.push(f);
  } else for (const f of all) if (scope.kind === 'all' || f.connectionId === scope.connectionId) out.push(f);
  return out;
}

/** `read`: how the list reads a frame (session-frame-reading.ts); without it the bytes are read by detection alone. */
export function sessionMessages(frames: readonly IngestFrame[], read?: FrameReader): SessionMessage[] {
  return frames.map((f) => ({
    connectionId: f.connectionId,
    direction: f.direction === 'sent' ? 'client-to-server' : 'server-to-client',
    opcode: f.opcode === 'text' ? 1 : 2,
    data: f.data,
    // Left-out messages are named by the list's frame number, whatever the scope, so they match the rows the user sees.
    number: f.frameId,
    ...(read ? { read: () => read(f) } : {}),
  }));
}

/** What a session comparison job is given besides its frames. */
export interface SessionCompareJob {
  /** Each connection's negotiated Sec-WebSocket-Extensions header ('' when none). */
  readonly negotiated: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  readonly sink: SessionSink;
  /** The clock of `workerMs` (default performance.now). */
  readonly now?: () => number;
  /**
   * How the comparison gives the worker's message loop a turn (the worker's MessageChannel;
   * default setTimeout 0, which a browser clamps to 4 ms after five links).
   */
  readonly yieldTurn?: () => Promise<void>;
  /** Each frame's value as the list reads it (the dispatcher passes `listReading`). */
  readonly read?: FrameReader;
  /**
   * The loaded `.proto`'s codec for these frames, or null (session-loaded-schema.ts): it adds
   * the row that writes every message with the real schema, as the CLI's `--proto` does.
   */
  readonly loadedSchema?: () => Promise<SchemaCodec | null>;
}

export async function runSessionCompare(frames: readonly IngestFrame[], job: SessionCompareJob): Promise<void> {
  const { negotiated, signal, sink, now = () => performance.now(), yieldTurn, read, loadedSchema } = job;
  const started = now();
  const messages = sessionMessages(frames, read);
  try {
    // Loaded on first use: the session comparison brings every codec (schema codecs included);
    // if one cannot load in this browser, this job reports why and the decode worker lives on.
    const [{ compareSession }, { sessionChart }] = await Promise.all([
      import('../../../codecs/compare/session/session.js'),
      import('../../../codecs/compare/session/cumulative.js'),
    ]);
    const protoCodec = (await loadedSchema?.()) ?? undefined;
    // The chart is drawn from the sizes the comparison computed (no second pass over the session).
    const perCodec: CodecSizes[] = [];
    const totalRows: SessionRow[] = [];
    const generator = compareSession(messages, {
      negotiated: new Map(Object.entries(negotiated)),
      protoCodec,
      signal,
      yieldTurn,
      onProgress: (p) => sink.progress(p),
      onCodecSizes: (s) => perCodec.push(s),
    });
    let batch: SessionRow[] = [];
    for await (const row of generator) {
      batch.push(row);
      if (row.connectionId === null) {
        totalRows.push(row);
        sink.rows(batch);
        batch = [];
      }
    }
    if (batch.length) sink.rows(batch);
    // The same chart the CLI's report draws (cumulative.ts sessionChart).
    const chart = signal.aborted ? null : sessionChart(perCodec, totalRows);
    sink.end({ cancelled: signal.aborted, error: null, chart, messages: messages.length, workerMs: now() - started });
  } catch (e) {
    sink.end({
      cancelled: signal.aborted,
      error: (e as Error).message,
      chart: null,
      messages: messages.length,
      workerMs: now() - started,
    });
  }
}
