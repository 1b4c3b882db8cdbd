/**
 * The panel's transport with debugger capture beside it: the app's toggle reaches the
 * DebuggerCapture (never the inner transport), a refused permission is reported, the inner
 * transport's messages pass through, and a reported shared worker makes it look for targets.
 */
import { describe, expect, it } from 'vitest';
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import { MemoryTransport } from '../../inspector-app/src/protocol/transport.js';
import type { DebuggerApi } from './debugger-capture.js';
import { withDebuggerCapture } from './with-debugger.js';

const tick = () => new Promise((r) => setTimeout(r, 0));

function api(calls: string[]): DebuggerApi {
  return {
    attach: async () => void calls.push('attach'),
    detach: async () => void calls.push('detach'),
    getTargets: async () => (calls.push('getTargets'), []),
    sendCommand: async (_t, m) => (
      calls.push(m), m === 'Target.getTargetInfo' ? { targetInfo: { url: 'http://a.test/' } } : {}
    ),
    onEvent: { addListener() {}, removeListener() {} },
    onDetach: { addListener() {}, removeListener() {} },
  };
}

describe('withDebuggerCapture', () => {
  it('turns debugger capture on and off from the app; other messages go to the inner transport', async () => {
    const inner = new MemoryTransport();
    const calls: string[] = [];
    const t = withDebuggerCapture(inner, { tabId: 3, openDebugger: async () => api(calls), now: () => 1 });
    const got: HostMessage[] = [];
    t.listen((m) => got.push(m));
    t.send({ type: 'set-debugger-capture', on: true });
    await tick();
    await tick();
    expect(calls.slice(0, 3)).toEqual(['attach', 'Target.getTargetInfo', 'Target.setAutoAttach']);
    expect(
      got.filter((m) => m.type === 'debugger-capture').map((m) => m.type === 'debugger-capture' && m.state),
    ).toEqual(['starting', 'starting', 'on']);
    inner.emit({ type: 'uncaptured', kind: 'shared-worker', url: 'http://a.test/s.js', time: 1, reason: 'r' });
    expect(got.at(-1)).toMatchObject({ type: 'uncaptured' });
    await tick();
    expect(calls.filter((c) => c === 'getTargets').length).toBeGreaterThanOrEqual(2);
    t.send({ type: 'set-debugger-capture', on: false });
    await tick();
    expect(calls).toContain('detach');
    t.send({ type: 'hello', protocolVersion: 1 });
    expect(inner.sent).toEqual([{ type: 'hello', protocolVersion: 1 }]);
  });

  it('a refused permission is an error the panel shows', async () => {
    const t = withDebuggerCapture(new MemoryTransport(), {
      tabId: 3,
      openDebugger: async () => Promise.reject(new Error('the debugger permission was not granted')),
      now: () => 1,
    });
    const got: HostMessage[] = [];
    t.listen((m) => got.push(m));
    t.send({ type: 'set-debugger-capture', on: true });
    await tick();
    expect(got.at(-1)).toEqual({
      type: 'debugger-capture',
      state: 'error',
      message: 'debugger capture could not start: the debugger permission was not granted',
    });
  });
});
