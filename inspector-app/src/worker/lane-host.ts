/**
 * The page's side of the comparison lanes (compare-lanes.ts says why the page, not the
 * decode worker, starts them): on `lane-open` it starts a lane worker and hands it the
 * decode worker's port; on `lane-close` it ends it; a lane that fails is reported back
 * (`lane-failed`). Every lane ends with the decode worker (`endAll`). Pure: the worker
 * starter is passed in.
 */

/** The one message a lane worker gets from the page: the port to serve (compare-lane-worker.ts). */
export interface LaneStartMessage {
  readonly port: MessagePort;
}

/** A started lane worker as the host drives it (a Worker; a fake in tests). */
export interface HostedLane {
  postMessage(message: LaneStartMessage, transfer: Transferable[]): void;
  terminate(): void;
  onerror: ((event: ErrorEvent) => void) | null;
}

export class LaneHost {
  private readonly lanes = new Map<number, HostedLane>();

  /**
   * @param startLane starts one lane worker (startDecodeWorker: the bundled compare-lane-worker.ts).
   * @param failed tells the decode worker a lane failed (its `lane-failed`).
   */
  constructor(
    private readonly startLane: () => HostedLane,
    private readonly failed: (laneId: number, reason: string) => void,
  ) {}

  open(laneId: number, port: MessagePort): void {
    let lane: HostedLane;
    try {
      lane = this.startLane();
    } catch (e) {
      port.close();
      this.failed(laneId, `it could not start (${e instanceof Error ? e.message : String(e)})`);
      return;
    }
    lane.onerror = (event) => {
      event.preventDefault();
      this.end(laneId);
      this.failed(laneId, event.message || 'the worker could not run (an error or out of memory)');
    };
    this.lanes.set(laneId, lane);
    lane.postMessage({ port }, [port]);
  }

  end(laneId: number): void {
    this.lanes.get(laneId)?.terminate();
    this.lanes.delete(laneId);
  }

  endAll(): void {
    for (const lane of this.lanes.values()) lane.terminate();
    this.lanes.clear();
  }

  /** Lane workers running now. */
  get size(): number {
    return this.lanes.size;
  }
}
