/**
 * Debugger capture mode against a fake `chrome.debugger`: what it attaches to, that only
 * worker sessions report sockets (no duplicates of the hook's), and the exact frames.
 */
import { describe, expect, it } from 'vitest';
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import { DEBUGGER_CLOSE_REASON } from './cdp-sockets.js';
import {
  DebuggerCapture,
  INFOBAR_NOTE,
  type Debuggee,
  type DebuggerApi,
  type DebuggerTarget,
} from './debugger-capture.js';

function fakeApi(
  options: { attachError?: string; commandErrors?: Record<string, string>; targets?: DebuggerTarget[] } = {},
) {
  const commands: [Debuggee, string, object | undefined][] = [];
  const eventListeners = new Set<(s: Debuggee, m: string, p?: object) => void>();
  const detachListeners = new Set<(s: Debuggee, r: string) => void>();
  const state = { attached: [] as Debuggee[], detached: [] as Debuggee[] };
  const api: DebuggerApi = {
    attach: async (t) => {
      if (options.attachError) throw new Error(options.attachError);
      state.attached.push(t);
    },
    detach: async (t) => void state.detached.push(t),
    getTargets: async () => options.targets ?? [],
    sendCommand: async (t, method, params) => {
      commands.push([t, method, params]);
      if (options.commandErrors?.[method]) throw new Error(options.commandErrors[method]);
      if (method === 'Target.getTargetInfo') return { targetInfo: { url: 'http://a.test/page.html', type: 'page' } };
      return {};
    },
    onEvent: { addListener: (f) => void eventListeners.add(f), removeListener: (f) => void eventListeners.delete(f) },
    onDetach: {
      addListener: (f) => void detachListeners.add(f),
      removeListener: (f) => void detachListeners.delete(f),
    },
  };
  return {
    api,
    commands,
    state,
    fire: (source: Debuggee, method: string, params: object) =>
      eventListeners.forEach((f) => {
        f(source, method, params);
      }),
    detachNow: (reason: string) =>
      detachListeners.forEach((f) => {
        f({ tabId: 7 }, reason);
      }),
    listening: () => eventListeners.size,
  };
}

function capture(fake: ReturnType<typeof fakeApi>) {
  const out: HostMessage[] = [];
  const dc = new DebuggerCapture({ api: fake.api, tabId: 7, emit: (m) => out.push(m), now: () => 1000 });
  return { dc, out };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');

describe('DebuggerCapture', () => {
  it('attaches to the tab, follows its workers, and says so (with the infobar explained)', async () => {
    const fake = fakeApi();
    const { dc, out } = capture(fake);
    await dc.start();
    expect(fake.state.attached).toEqual([{ tabId: 7 }]);
    expect(fake.commands.map(([t, m]) => [t, m])).toEqual([
      [{ tabId: 7 }, 'Target.getTargetInfo'],
      [{ tabId: 7 }, 'Target.setAutoAttach'],
    ]);
    // New targets wait until their Network events are on (then resumed): no socket opens unseen.
    expect(fake.commands[1]![2]).toEqual({ autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
    expect(out.map((m) => m.type === 'debugger-capture' && m.state)).toEqual(['starting', 'on']);
    expect(out[1]!.type === 'debugger-capture' && out[1]!.message).toContain(INFOBAR_NOTE);
    expect(dc.state).toBe('on');
  });

  it("captures a worker's socket byte-exact; the page's and an iframe's sockets are the hook's (no Network events enabled there, none reported)", async () => {
    const fake = fakeApi();
    const { dc, out } = capture(fake);
    await dc.start();
    out.length = 0;
    fake.fire({ tabId: 7 }, 'Target.attachedToTarget', {
      sessionId: 'W',
      waitingForDebugger: true,
      targetInfo: { targetId: 't1', type: 'worker', url: 'http://a.test/w.js' },
    });
    fake.fire({ tabId: 7 }, 'Target.attachedToTarget', {
      sessionId: 'F',
      waitingForDebugger: true,
      targetInfo: { targetId: 't2', type: 'iframe', url: 'http://b.test/f.html' },
    });
    await tick();
    await tick();
    const enabled = fake.commands.filter(([, m]) => m === 'Network.enable').map(([t]) => t);
    expect(enabled).toEqual([{ tabId: 7, sessionId: 'W' }]);
    const autoAttached = fake.commands
      .filter(([t, m]) => m === 'Target.setAutoAttach' && t.sessionId)
      .map(([t]) => t.sessionId);
    expect(autoAttached).toEqual(['W', 'F']);
    // Both resumed, each after its own setup.
    const order = fake.commands.filter(([t]) => t.sessionId === 'W').map(([, m]) => m);
    expect(order).toEqual(['Network.enable', 'Target.setAutoAttach', 'Runtime.runIfWaitingForDebugger']);
    expect(
      fake.commands.filter(([t, m]) => t.sessionId === 'F' && m === 'Runtime.runIfWaitingForDebugger'),
    ).toHaveLength(1);

    const W = { tabId: 7, sessionId: 'W' };
    fake.fire(W, 'Network.webSocketCreated', { requestId: 'r1', url: 'ws://a.test/sock' });
    fake.fire(W, 'Network.webSocketWillSendHandshakeRequest', {
      requestId: 'r1',
      timestamp: 100,
      wallTime: 1_700_000_000,
    });
    fake.fire(W, 'Network.webSocketHandshakeResponseReceived', {
      requestId: 'r1',
      timestamp: 100.5,
      response: {
        status: 101,
        headers: { 'Sec-WebSocket-Protocol': 'chat', 'Sec-WebSocket-Extensions': 'permessage-deflate' },
      },
    });
    fake.fire(W, 'Network.webSocketFrameSent', {
      requestId: 'r1',
      timestamp: 101,
      response: { opcode: 1, mask: true, payloadData: 'héllo' },
    });
    fake.fire(W, 'Network.webSocketFrameReceived', {
      requestId: 'r1',
      timestamp: 102,
      response: { opcode: 2, mask: false, payloadData: b64([0xa1, 0x61, 0x61, 0x01]) },
    });
    fake.fire(W, 'Network.webSocketFrameReceived', {
      requestId: 'r1',
      timestamp: 102,
      response: { opcode: 9, mask: false, payloadData: '' },
    }); // a ping: not a message
    fake.fire(W, 'Network.webSocketClosed', { requestId: 'r1', timestamp: 103 });
    const F = { tabId: 7, sessionId: 'F' };
    fake.fire(F, 'Network.webSocketCreated', { requestId: 'r9', url: 'ws://b.test/' }); // never enabled there; ignored if it came
    fake.fire({ tabId: 7 }, 'Network.webSocketCreated', { requestId: 'r8', url: 'ws://a.test/page' });

    const id = 'debugger:W:r1';
    const wall = (t: number) => 1_700_000_000_000 + (t - 100) * 1000;
    expect(out).toEqual([
      {
        type: 'connection-opening',
        connectionId: id,
        url: 'ws://a.test/sock',
        time: 1000,
        documentUrl: 'worker http://a.test/w.js',
      },
      {
        type: 'connection-opened',
        connectionId: id,
        url: 'ws://a.test/sock',
        protocol: 'chat',
        extensions: 'permessage-deflate',
        time: wall(100.5),
      },
      {
        type: 'frames',
        frames: [
          {
            connectionId: id,
            direction: 'sent',
            time: wall(101),
            opcode: 'text',
            data: new TextEncoder().encode('héllo'),
          },
        ],
      },
      {
        type: 'frames',
        frames: [
          {
            connectionId: id,
            direction: 'received',
            time: wall(102),
            opcode: 'binary',
            data: new Uint8Array([0xa1, 0x61, 0x61, 0x01]),
          },
        ],
      },
      {
        type: 'connection-closed',
        connectionId: id,
        code: 1005,
        reason: DEBUGGER_CLOSE_REASON,
        wasClean: true,
        time: wall(103),
      },
    ]);
  });

  it("a frame of a socket opened before capture began opens its connection (URL unknown); another tab's events are ignored", async () => {
    const fake = fakeApi();
    const { dc, out } = capture(fake);
    await dc.start();
    fake.fire({ tabId: 7 }, 'Target.attachedToTarget', {
      sessionId: 'W',
      targetInfo: { targetId: 't1', type: 'shared_worker', url: 'http://a.test/s.js' },
    });
    out.length = 0;
    fake.fire({ tabId: 8, sessionId: 'W' }, 'Network.webSocketFrameSent', {
      requestId: 'r0',
      response: { opcode: 1, payloadData: 'other tab' },
    });
    fake.fire({ tabId: 7, sessionId: 'W' }, 'Network.webSocketFrameSent', {
      requestId: 'r0',
      response: { opcode: 1, payloadData: 'late' },
    });
    expect(out.map((m) => m.type)).toEqual(['connection-opening', 'frames']);
    expect(out[0]).toMatchObject({ url: '', documentUrl: 'shared_worker http://a.test/s.js' });
  });

  it("attaches by target id to shared and service workers of the page's origin, at start and when asked; their frames come through", async () => {
    const targets: DebuggerTarget[] = [
      { id: 's1', type: 'worker', url: 'http://a.test/s.js', attached: false },
      { id: 's2', type: 'worker', url: 'http://evil.test/s.js', attached: false },
      { id: 'bg', type: 'worker', url: 'chrome-extension://x/background.js', attached: true },
      { id: 'p', type: 'page', url: 'http://a.test/other', attached: false },
    ];
    const fake = fakeApi({ targets });
    const { dc, out } = capture(fake);
    await dc.start();
    expect(fake.state.attached).toEqual([{ tabId: 7 }, { targetId: 's1' }]);
    expect(fake.commands.filter(([t]) => t.targetId).map(([t, m]) => [t.targetId, m])).toEqual([
      ['s1', 'Network.enable'],
    ]);
    targets.push({ id: 's3', type: 'worker', url: 'http://a.test/later.js', attached: false });
    await dc.lookForWorkers();
    await dc.lookForWorkers();
    expect(fake.state.attached).toEqual([{ tabId: 7 }, { targetId: 's1' }, { targetId: 's3' }]);
    out.length = 0;
    fake.fire({ targetId: 's3' }, 'Network.webSocketFrameReceived', {
      requestId: 'r',
      response: { opcode: 1, payloadData: 'hi' },
    });
    expect(out.map((m) => m.type)).toEqual(['connection-opening', 'frames']);
    expect(out[0]).toMatchObject({ documentUrl: 'shared or service worker http://a.test/later.js' });
    await dc.stop();
    expect(fake.state.detached).toEqual([{ targetId: 's1' }, { targetId: 's3' }, { tabId: 7 }]);
  });

  it('reports why it could not start; goes off when the infobar is cancelled; stop() detaches', async () => {
    const failing = fakeApi({ attachError: 'Another debugger is already attached to the tab with id: 7.' });
    const f = capture(failing);
    await f.dc.start();
    expect(f.out.at(-1)).toEqual({
      type: 'debugger-capture',
      state: 'error',
      message: 'debugger capture could not start: Another debugger is already attached to the tab with id: 7.',
    });

    const fake = fakeApi();
    const { dc, out } = capture(fake);
    await dc.start();
    fake.detachNow('canceled_by_user');
    expect(out.at(-1)).toMatchObject({ type: 'debugger-capture', state: 'off' });
    expect((out.at(-1) as { message: string }).message).toMatch(/Cancel/);
    expect(fake.listening()).toBe(0);
    await dc.start();
    await dc.stop();
    expect(fake.state.detached).toEqual([{ tabId: 7 }]);
    expect(out.at(-1)).toEqual({ type: 'debugger-capture', state: 'off', message: 'debugger capture off' });
  });
});
