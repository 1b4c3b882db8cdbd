import { describe, expect, it } from 'vitest';
import { LaneHost, type HostedLane, type LaneStartMessage } from './lane-host.js';
import { WorkerClient } from './client.js';
import type { FromWorker, ToWorker } from './api.js';

/** The page's side of the lanes (lane-host.ts): what it starts, hands over, ends and reports. */
class FakeLane implements HostedLane {
  onerror: ((event: ErrorEvent) => void) | null = null;
  given: LaneStartMessage[] = [];
  transferred: Transferable[][] = [];
  terminated = false;
  postMessage(message: LaneStartMessage, transfer: Transferable[]): void {
    this.given.push(message);
    this.transferred.push(transfer);
  }
  terminate(): void {
    this.terminated = true;
  }
  fail(message: string): boolean {
    let prevented = false;
    this.onerror?.({ message, preventDefault: () => void (prevented = true) } as unknown as ErrorEvent);
    return prevented;
  }
}

describe('the page starts the decode worker’s comparison lanes (lane-host.ts)', () => {
  it('lane-open starts a lane and hands it the port (transferred); lane-close and endAll end it', () => {
    const lanes: FakeLane[] = [];
    const host = new LaneHost(
      () => (lanes.push(new FakeLane()), lanes.at(-1)!),
      () => {},
    );
    const { port1, port2 } = new MessageChannel();
    host.open(1, port1);
    host.open(2, port2);
    expect(lanes).toHaveLength(2);
    expect(lanes[0].given).toEqual([{ port: port1 }]);
    expect(lanes[0].transferred).toEqual([[port1]]);
    host.end(1);
    expect(lanes.map((l) => l.terminated)).toEqual([true, false]);
    expect(host.size).toBe(1);
    host.endAll();
    expect(lanes[1].terminated).toBe(true);
    expect(host.size).toBe(0);
    port1.close();
  });

  it('a lane that fails is ended and reported with its reason; one that cannot start is reported too', () => {
    const reports: [number, string][] = [];
    const lane = new FakeLane();
    let startable = true;
    const host = new LaneHost(
      () => {
        if (!startable) throw new Error('blocked by the CSP');
        return lane;
      },
      (id, reason) => reports.push([id, reason]),
    );
    const { port1, port2 } = new MessageChannel();
    host.open(3, port1);
    expect(lane.fail('out of memory')).toBe(true);
    expect(lane.terminated).toBe(true);
    startable = false;
    host.open(4, port2);
    expect(reports).toEqual([
      [3, 'out of memory'],
      [4, 'it could not start (blocked by the CSP)'],
    ]);
    expect(host.size).toBe(0);
  });
});

describe('the WorkerClient hosts the lanes its worker asks for', () => {
  const fakeWorker = () => {
    const sent: ToWorker[] = [];
    const worker = {
      onmessage: null as ((e: MessageEvent<FromWorker>) => void) | null,
      onerror: null as unknown,
      postMessage: (m: ToWorker) => sent.push(m),
      terminated: false,
      terminate: () => (worker.terminated = true),
    };
    const say = (m: FromWorker) => worker.onmessage?.({ data: m } as MessageEvent<FromWorker>);
    return { worker, sent, say };
  };

  it('starts, ends, and ends every lane with the worker', () => {
    const { worker, say } = fakeWorker();
    const lanes: FakeLane[] = [];
    const client = new WorkerClient(worker as unknown as Worker, () => (lanes.push(new FakeLane()), lanes.at(-1)!));
    const { port1, port2 } = new MessageChannel();
    say({ type: 'lane-open', laneId: 1, port: port1 });
    say({ type: 'lane-open', laneId: 2, port: port2 });
    say({ type: 'lane-close', laneId: 1 });
    expect(lanes.map((l) => l.terminated)).toEqual([true, false]);
    client.terminate();
    expect(lanes.map((l) => l.terminated)).toEqual([true, true]);
    expect(worker.terminated).toBe(true);
  });

  it('a lane that fails is reported to the worker; a page without lanes answers every lane-open so', () => {
    const hosting = fakeWorker();
    const lane = new FakeLane();
    new WorkerClient(hosting.worker as unknown as Worker, () => lane);
    const { port1, port2 } = new MessageChannel();
    hosting.say({ type: 'lane-open', laneId: 5, port: port1 });
    lane.fail('SyntaxError in the lane script');
    expect(hosting.sent).toEqual([{ type: 'lane-failed', laneId: 5, reason: 'SyntaxError in the lane script' }]);

    const bare = fakeWorker();
    new WorkerClient(bare.worker as unknown as Worker);
    bare.say({ type: 'lane-open', laneId: 1, port: port2 });
    expect(bare.sent).toEqual([{ type: 'lane-failed', laneId: 1, reason: 'this page starts no lanes' }]);
  });
});
