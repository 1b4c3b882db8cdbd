import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { flushOnExit, type ProcessLike } from './flush-on-exit.js';

function fakeProcess() {
  const events = new EventEmitter();
  const kills: string[] = [];
  const proc: ProcessLike = {
    pid: 42,
    on: (e, l) => events.on(e, l),
    off: (e, l) => events.off(e, l),
    listenerCount: (e) => events.listenerCount(e),
    kill: (_pid, signal) => kills.push(signal),
  };
  return { proc, events, kills };
}

describe('flushOnExit', () => {
  it('flushes at exit', () => {
    const { proc, events } = fakeProcess();
    let flushed = 0;
    flushOnExit(proc, () => flushed++);
    events.emit('exit', 0);
    expect(flushed).toBe(1);
  });

  it('flushes on a signal the app does not handle and gives the signal back its default action', () => {
    const { proc, events, kills } = fakeProcess();
    let flushed = 0;
    flushOnExit(proc, () => flushed++);
    events.emit('SIGTERM');
    expect(flushed).toBe(1);
    expect(kills).toEqual(['SIGTERM']);
    expect(events.listenerCount('SIGTERM')).toBe(0);
  });

  it('on a signal the app handles, only flushes (the app decides what happens)', () => {
    const { proc, events, kills } = fakeProcess();
    let flushed = 0;
    flushOnExit(proc, () => flushed++);
    let handled = 0;
    events.on('SIGINT', () => handled++);
    events.emit('SIGINT');
    expect([flushed, handled, kills.length]).toEqual([1, 1, 0]);
  });
});
