import { PROTOCOL_VERSION, type HostMessage, type LostFrame, type WireFrame } from '../protocol/messages.js';
import { KIND_DROPPED, KIND_HELD, KIND_SENT, KIND_WIRESCOPE, type PackedFrames } from '../protocol/packed-frames.js';
import type { Transport } from '../protocol/transport.js';
import type { IngestFrame } from '../worker/api.js';
import type { WorkerClient } from '../worker/client.js';
import { CaptureModel, type ListFilters } from './capture-model.js';

/** Whether these filters look at what rows say (format, protocol, event, keep-alives). */
function filtersReadRows(f: ListFilters): boolean {
  return f.format !== 'all' || f.protocol !== 'all' || f.event !== '' || f.hideQuiet;
}

/**
 * Where a frame enters the app: host messages from the Transport. Frames get an id and go
 * to the decode worker (bytes transferred); connection states, drops and navigations go to
 * the capture model. The worker's list rows come back into the same model.
 */
export class InspectorSession {
  readonly model: CaptureModel;
  private nextFrameId = 1;
  /** Live tail frames get ids of their own, negative (the frames' numbering stays whole). */
  private nextSampleId = -1;
  private readonly unsubscribes: (() => void)[] = [];
  keepOnNavigate: boolean;
  hostVersion: number | null = null;

  constructor(
    readonly transport: Transport,
    readonly worker: WorkerClient,
    options: { keepOnNavigate?: boolean; model?: CaptureModel } = {},
  ) {
    this.model = options.model ?? new CaptureModel();
    this.keepOnNavigate = options.keepOnNavigate ?? true;
  }

  /**
   * Starts listening to the worker and the host, and says hello; returns the stop. Building the
   * session does neither, so React may build it during render and start it in an effect: under
   * StrictMode the effect starts, stops and starts the same session again, which keeps its model.
   */
  start(): () => void {
    this.dispose();
    const { worker, transport } = this;
    this.unsubscribes.push(worker.onSummaries((batch) => this.model.applySummaries(batch)));
    this.unsubscribes.push(worker.onFilterProgress((progress) => this.model.applySearchProgress(progress)));
    this.unsubscribes.push(worker.onReread((batch) => this.model.applyReread(batch)));
    this.unsubscribes.push(worker.onTailRows((rows) => this.model.applyTail(rows)));
    this.unsubscribes.push(transport.listen((message) => this.receive(message)));
    transport.send({ type: 'hello', protocolVersion: PROTOCOL_VERSION });
    return () => this.dispose();
  }

  private receive(message: HostMessage): void {
    switch (message.type) {
      case 'hello':
        this.hostVersion = message.protocolVersion;
        return;
      case 'frames':
        this.ingest(message.frames);
        return;
      case 'frames-packed':
        this.ingestPacked(message.packed);
        return;
      case 'navigated':
        this.model.applyHostMessage(message);
        if (!this.keepOnNavigate) void this.clear();
        return;
      case 'lost-frames':
        this.ingestLost(message.frames);
        return;
      case 'tail':
        this.worker.tail(
          message.frames.map((f) => ({
            frameId: this.nextSampleId--,
            connectionId: f.connectionId,
            direction: f.direction,
            time: f.time,
            opcode: f.opcode,
            data: f.data,
          })),
        );
        return;
      case 'connection-opened':
        // Before the connection's frames (messages to the worker keep their order): its subprotocol is detection evidence.
        this.worker.connection(message.connectionId, message.protocol, message.url);
        this.model.applyHostMessage(message);
        return;
      default:
        this.model.applyHostMessage(message);
    }
  }

  /** Frames from any source (transport, file import) enter here. */
  ingest(frames: readonly WireFrame[]): void {
    if (!frames.length) return;
    const batch: IngestFrame[] = frames.map((f) => ({
      frameId: this.markIntercepted(this.markOrigin(this.nextFrameId++, f.origin === 'wirescope'), f),
      connectionId: f.connectionId,
      direction: f.direction,
      time: f.time,
      opcode: f.opcode,
      data: f.data,
    }));
    this.worker.ingest(batch);
  }

  /** A host's packed batch: ids in order, and on to the worker packed (no object per frame). */
  private ingestPacked(packed: PackedFrames): void {
    const n = packed.ends.length;
    if (!n) return;
    const frameIds = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const kind = packed.kinds[k]!;
      const frameId = this.markOrigin(this.nextFrameId++, (kind & KIND_WIRESCOPE) !== 0);
      frameIds[k] = frameId;
      if (kind & (KIND_HELD | KIND_DROPPED))
        this.model.markIntercepted(
          frameId,
          packed.connections[packed.connectionOf[k]!]!,
          kind & KIND_SENT ? 'sent' : 'received',
          (kind & KIND_HELD) !== 0,
        );
    }
    this.worker.ingestPacked({ ...packed, frameIds });
  }

  /** Frames an intercept rule held or dropped are kept by id in the model (the list marks them, Forward finds them). */
  private markIntercepted(frameId: number, f: WireFrame): number {
    if (f.intercepted) this.model.markIntercepted(frameId, f.connectionId, f.direction, f.intercepted === 'held');
    return frameId;
  }

  /** Frames wirescope sent or delivered are kept by id in the model (the list marks them, exports keep the mark). */
  private markOrigin(frameId: number, byWirescope: boolean): number {
    if (byWirescope) this.model.markWirescope(frameId);
    return frameId;
  }

  /** A connection read from a file: listed, and its subprotocol told to the worker before its frames are ingested. */
  importConnection(info: Parameters<CaptureModel['addImportedConnection']>[0]): void {
    this.model.addImportedConnection(info);
    this.worker.connection(info.connectionId, info.protocol, info.url);
  }

  /** Placeholder rows for frames the host lost: ids in arrival order, through the worker like frames, so rows stay in order. */
  private ingestLost(frames: readonly LostFrame[]): void {
    if (!frames.length) return;
    const empty = new Uint8Array(0);
    this.worker.ingest(
      frames.map((f) => ({
        frameId: this.nextFrameId++,
        connectionId: f.connectionId,
        direction: f.direction,
        time: f.time,
        opcode: f.opcode,
        data: empty,
        lost: { size: f.size, reason: f.reason },
      })),
    );
  }

  private filterGeneration = 0;

  /**
   * A filter change. Direction, format and connection apply at once (the list has what they
   * need); a new text or path starts a worker search that streams its matches in, and a
   * newer one supersedes it. Changes merge into the newest filters, never a stale copy.
   */
  setFilters(patch: Partial<ListFilters>): void {
    const before = this.model.currentFilters();
    const next = { ...before, ...patch };
    const contentChanged = next.text !== before.text || next.path !== before.path;
    const generation = contentChanged ? ++this.filterGeneration : this.filterGeneration;
    this.model.setListFilters(next, contentChanged ? (next.text || next.path.trim() ? generation : null) : undefined);
    if (contentChanged) this.worker.filter(generation, next.text, next.path);
    // Filters on what rows say need every row read: no row waits (a flood) while one is set.
    // (A text or path filter says so itself: the worker's search reads every row first.)
    const needsRows = filtersReadRows(next);
    if (needsRows !== filtersReadRows(before)) this.worker.deferRows(!needsRows);
  }

  async clear(): Promise<void> {
    await this.worker.call('clear', {});
    this.model.clear();
  }

  async setCap(bytes: number): Promise<void> {
    const result = await this.worker.call('setCap', { bytes });
    this.model.applyEvictions(result.evictedIds, result.evictedTotal, result.bytesHeld);
  }

  /** Stops listening (start() listens again). */
  dispose(): void {
    for (const u of this.unsubscribes.splice(0)) u();
  }
}
