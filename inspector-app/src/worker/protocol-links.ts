/**
 * Links between frames of one connection that a framing protocol implies, built as frames
 * arrive (in order per connection):
 * - Socket.IO BINARY_EVENT / BINARY_ACK `451-[…{"_placeholder":true,"num":0}]` is followed,
 *   in the same direction, by its N attachments as binary frames. Each attachment row says
 *   whose it is; the event's tree shows each placeholder as "attachment #n → frame m".
 * - GraphQL over WebSocket (graphql-ws, subscriptions-transport-ws): frames carrying one
 *   operation id (subscribe / start → next / data … → complete / error) are one operation;
 *   each of its frames' detail says where the others are.
 * - Engine.IO's version per connection (v3 = socket.io 2.x, v4 = 3 and later): from the
 *   connection URL's `EIO=` when the host gives it, else from the first frame that shows it
 *   (who pings, whether the server's CONNECT carries a sid); its Socket.IO frames say so.
 * - MQTT packets split across frames, put back together (mqtt-links.ts).
 */
import {
  Kind,
  type DecodedFrame,
  type DecodeError,
  type FrameFormat,
  type FrameVerdict,
  type ProtocolInfo,
  type SpanIndex,
} from '../../../codecs/index.js';
import {
  engineIoVersionFromUrl,
  versionEvidence,
  type VersionEvidence,
} from '../../../codecs/protocols/engineio-version.js';
import type { FrameSummary, IngestFrame, TreeNode } from './api.js';
import { formatBytes } from '../components/shell/format.js';
import { MqttLinks } from './mqtt-links.js';
import { type Attachment, SocketIoAttachments } from '../../../codecs/protocols/socketio-attachments.js';

export type AttachmentOf = Attachment;

/** One GraphQL operation on a connection, as its frames arrive. */
interface Operation {
  readonly id: string;
  start: { frameId: number; type: string } | null;
  readonly results: number[];
  end: { frameId: number; type: string } | null;
}

/** A line in the frame detail about the frames this one belongs with. */
export interface FrameLinkLine {
  readonly text: string;
  /** Frames the line names, to open. */
  readonly frameIds: readonly number[];
}

/** A frame read with what the frames around it say (an MQTT part, a Socket.IO attachment). */
export interface FrameReading {
  readonly format: FrameFormat | null;
  readonly index: SpanIndex | null;
  readonly error: DecodeError | null;
  readonly verdict: FrameVerdict;
  readonly candidates: readonly string[];
  readonly nearMisses?: readonly { readonly format: string; readonly offset: number; readonly message: string }[];
}

const GRAPHQL_START = new Set(['subscribe', 'start']);
const GRAPHQL_RESULT = new Set(['next', 'data']);
const GRAPHQL_END = new Set(['complete', 'error', 'stop']);

export class ProtocolLinks {
  /** Subprotocols the host named, by connection (before the lookup passed in). */
  private readonly subprotocols = new Map<string, string>();
  private readonly mqtt: MqttLinks;

  /** `subprotocolOf`: the connection's negotiated subprotocol, where the worker keeps it. */
  constructor(subprotocolOf: (connectionId: string) => string | undefined = () => undefined) {
    this.mqtt = new MqttLinks((id) => this.subprotocols.get(id) ?? subprotocolOf(id));
  }

  /** The connection's negotiated subprotocol (`mqtt` turns on MQTT reassembly from its first frame). */
  setSubprotocol(connectionId: string, subprotocol: string): void {
    this.subprotocols.set(connectionId, subprotocol);
  }

  /** Engine.IO version by connection from its URL (kept through `clear`, like the subprotocols). */
  private readonly urlVersions = new Map<string, VersionEvidence>();
  /** Engine.IO version by connection, with what showed it (and in which frame). */
  private readonly engineVersions = new Map<string, VersionEvidence & { frameId?: number }>();
  /** Socket.IO / Engine.IO frames → their connection. */
  private readonly engineConnection = new Map<number, string>();
  /** Operations by `connection id`, the newest one per id. */
  private readonly operations = new Map<string, Operation>();
  private readonly operationOf = new Map<number, Operation>();

  /** Attachments still expected, by `connection direction` (the rule the CLI uses too). */
  private readonly attachments = new SocketIoAttachments();
  private readonly attachmentOf = new Map<number, AttachmentOf>();
  /** Event frame → its attachment frames, in order (with their sizes). */
  private readonly attachmentsOf = new Map<number, { frameId: number; size: number }[]>();

  /**
   * Sees a frame as it arrives; returns the row's protocol info and preview when the frame is
   * an attachment (which its own bytes cannot say).
   */
  observe(frame: IngestFrame, protocol: ProtocolInfo | null): Pick<FrameSummary, 'protocol' | 'preview'> | null {
    const mqtt = this.mqtt.observe(frame, protocol);
    if (mqtt) return mqtt;
    const attachment = this.attachments.observe(
      `${frame.connectionId} ${frame.direction}`,
      frame.frameId,
      frame.opcode,
      protocol,
    );
    if (protocol && (protocol.protocol === 'socket.io' || protocol.protocol === 'engine.io'))
      this.engineFrame(frame, protocol);
    if (attachment) {
      const { eventFrame, event, num } = attachment;
      this.engineConnection.set(frame.frameId, frame.connectionId);
      this.attachmentOf.set(frame.frameId, attachment);
      this.attachmentsOf.get(eventFrame)?.push({ frameId: frame.frameId, size: frame.data.byteLength });
      return {
        protocol: { name: 'socket.io', message: 'attachment', event, id: String(eventFrame) },
        preview: `attachment ${num} of frame ${eventFrame}${event ? ` (${event})` : ''}`,
      };
    }
    if (
      protocol &&
      (protocol.protocol === 'graphql-ws' || protocol.protocol === 'subscriptions-transport-ws') &&
      protocol.id !== undefined
    )
      this.operation(frame, protocol.message, protocol.id);
    if (protocol?.protocol === 'socket.io' && protocol.attachments) this.attachmentsOf.set(frame.frameId, []);
    return null;
  }

  /** The connection's URL, when the host knows it: its `EIO=` query settles the version. */
  setConnectionUrl(connectionId: string, url: string): void {
    const version = engineIoVersionFromUrl(url);
    if (version) this.urlVersions.set(connectionId, { version, reason: `the URL says EIO=${version}` });
  }

  private engineFrame(frame: IngestFrame, protocol: ProtocolInfo): void {
    this.engineConnection.set(frame.frameId, frame.connectionId);
    if (
      frame.opcode !== 'text' ||
      this.urlVersions.has(frame.connectionId) ||
      this.engineVersions.has(frame.connectionId)
    )
      return;
    const evidence = versionEvidence(protocol, frame.data, frame.direction);
    if (evidence) this.engineVersions.set(frame.connectionId, { ...evidence, frameId: frame.frameId });
  }

  /**
   * Whether a frame's list row says what its own bytes cannot (a Socket.IO attachment, an MQTT
   * packet reassembled from split frames or one of its parts): a re-read keeps such a row.
   */
  ownsRow(frameId: number): boolean {
    return this.attachmentOf.has(frameId) || this.mqtt.ownsRow(frameId);
  }

  attachment(frameId: number): AttachmentOf | undefined {
    return this.attachmentOf.get(frameId);
  }

  /** A Socket.IO binary packet's attachment frames, in order (none for any other frame). */
  attachmentFrames(frameId: number): number[] {
    return this.attachmentsOf.get(frameId)?.map((a) => a.frameId) ?? [];
  }

  private operation(frame: IngestFrame, type: string, id: string): void {
    const key = `${frame.connectionId} ${id}`;
    let op = this.operations.get(key);
    // An id comes back for a new operation once the last one with it ended.
    if (!op || (GRAPHQL_START.has(type) && (op.start || op.end)))
      this.operations.set(key, (op = { id, start: null, results: [], end: null }));
    if (GRAPHQL_START.has(type)) op.start = { frameId: frame.frameId, type };
    else if (GRAPHQL_RESULT.has(type)) op.results.push(frame.frameId);
    else if (GRAPHQL_END.has(type) && !op.end) op.end = { frameId: frame.frameId, type };
    this.operationOf.set(frame.frameId, op);
  }

  /** What the frame detail says about a frame's linked frames (attachments, the GraphQL operation). */
  linesFor(frameId: number): FrameLinkLine[] {
    const lines: FrameLinkLine[] = [];
    const connection = this.engineConnection.get(frameId);
    const version: (VersionEvidence & { frameId?: number }) | undefined =
      connection !== undefined ? (this.urlVersions.get(connection) ?? this.engineVersions.get(connection)) : undefined;
    if (version) {
      const where = version.frameId !== undefined ? ` at frame ${version.frameId}` : '';
      lines.push({
        text: `Engine.IO v${version.version} (${version.version === 3 ? 'socket.io 2.x' : 'socket.io 3 or later'}): ${version.reason}${where}`,
        frameIds: version.frameId !== undefined ? [version.frameId] : [],
      });
    }
    const att = this.attachmentOf.get(frameId);
    if (att)
      lines.push({
        text: `attachment ${att.num} of ${att.total} of frame ${att.eventFrame}${att.event ? ` (${att.event})` : ''}`,
        frameIds: [att.eventFrame],
      });
    const own = this.attachmentsOf.get(frameId);
    if (own?.length)
      lines.push({
        text: `attachments: ${own.map((a, i) => `#${i} frame ${a.frameId}`).join(', ')}`,
        frameIds: own.map((a) => a.frameId),
      });
    const op = this.operationOf.get(frameId);
    if (op) {
      const parts: string[] = [];
      const ids: number[] = [];
      if (op.start) {
        parts.push(`${op.start.type} at frame ${op.start.frameId}`);
        ids.push(op.start.frameId);
      }
      if (op.results.length) {
        parts.push(
          `${op.results.length} ${op.start?.type === 'start' ? 'data' : 'next'} (frames ${op.results[0]}${op.results.length > 1 ? `–${op.results[op.results.length - 1]}` : ''})`,
        );
        ids.push(op.results[0]);
      }
      if (op.end) {
        parts.push(`${op.end.type} at frame ${op.end.frameId}`);
        ids.push(op.end.frameId);
      } else parts.push('still open');
      lines.push({ text: `operation ${op.id}: ${parts.join(', ')}`, frameIds: ids });
    }
    lines.push(...this.mqtt.linesFor(frameId));
    return lines;
  }

  /**
   * Tree rows of an event frame with its placeholders `{"_placeholder":true,"num":n}` shown
   * as the attachment they stand for, linked to its frame.
   */
  linkPlaceholders(index: SpanIndex, frameId: number, nodes: readonly TreeNode[]): TreeNode[] {
    const attachments = this.attachmentsOf.get(frameId);
    if (!attachments) return nodes as TreeNode[];
    return nodes.map((node) => {
      const num = placeholderNumber(index, node.id);
      if (num === null) return node;
      const target = attachments[num];
      return {
        ...node,
        head: `attachment #${num}`,
        preview: target
          ? `→ frame ${target.frameId} (${formatBytes(target.size)})`
          : '→ not captured (the attachment frame never came)',
        link: target ? { frameId: target.frameId } : undefined,
      };
    });
  }

  /**
   * What a frame reads as from the frames around it, where its own bytes would guess: an MQTT
   * frame holding parts of split packets reads as those parts (unless it only starts one and
   * its bytes read whole as something else); a Socket.IO attachment reads as
   * the format its bytes decode as whole, else as plain binary (never a malformed guess).
   * `readBytes` reads the bytes alone. Null for every other frame.
   */
  reading(frame: IngestFrame, readBytes: () => DecodedFrame): FrameReading | null {
    let read: DecodedFrame | undefined;
    const readOwn = () => (read ??= readBytes());
    const parts = this.mqtt.partsIndex(frame, readOwn);
    if (parts) return { format: 'mqtt', index: parts, error: null, verdict: 'decoded', candidates: ['mqtt'] };
    if (!this.attachmentOf.has(frame.frameId)) return null;
    const own = readOwn();
    if (own.verdict === 'decoded' || own.verdict === 'empty')
      return { format: own.format, index: own.index, error: own.error, verdict: own.verdict, candidates: [] };
    return {
      format: null,
      index: null,
      error: {
        code: 'unsupported-format',
        offset: 0,
        message: 'a Socket.IO attachment: binary data no format reads whole',
      },
      verdict: 'unknown',
      candidates: own.detection?.candidates.map((c) => c.format) ?? [],
      nearMisses: (own.detection?.rejected ?? []).map((r) => ({
        format: r.format,
        offset: r.error.offset,
        message: r.error.message,
      })),
    };
  }

  /** The whole MQTT packet a frame completes when it was split across frames (from its parts' frames), else null. */
  reassembledMqtt(frameId: number, bytesOf: (frameId: number) => Uint8Array | undefined): Uint8Array | null {
    return this.mqtt.reassembled(frameId, bytesOf);
  }

  clear(): void {
    // Subprotocols and URLs stay: they belong to the connections, which outlive a cleared list.
    this.mqtt.clear();
    this.engineVersions.clear();
    this.engineConnection.clear();
    this.operations.clear();
    this.operationOf.clear();
    this.attachments.clear();
    this.attachmentOf.clear();
    this.attachmentsOf.clear();
  }
}

/** `n` when the node is the map {"_placeholder": true, "num": n}, else null. */
function placeholderNumber(index: SpanIndex, id: number): number | null {
  if (id < 0 || !index.has(id) || index.store.kind[id] !== Kind.map || index.store.arg[id] !== 2) return null;
  let placeholder = false;
  let num: number | null = null;
  for (const c of index.children(id)) {
    const k = index.keyOf(c);
    const name = k >= 0 ? index.value(k) : undefined;
    const value = index.isContainer(c) ? undefined : index.value(c);
    if (name === '_placeholder') placeholder = value === true;
    else if (name === 'num' && typeof value === 'number' && Number.isInteger(value) && value >= 0) num = value;
  }
  return placeholder ? num : null;
}
