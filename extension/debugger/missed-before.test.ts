/**
 * A worker socket that was already open when debugger capture attached (shared
 * and service workers are attached when found; a dedicated worker started before capture)
 * says from when its frames were seen (`seenFrom`); the app shows it (state/missed-before.test.tsx).
 */
import { expect, it } from 'vitest';
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import { CdpSockets } from './cdp-sockets.js';

const ATTACHED_AT = Date.UTC(2026, 10, 24, 18, 0, 5);

it('a socket first seen through a frame says from when its frames were seen', () => {
  let clock = ATTACHED_AT;
  const sockets = new CdpSockets('s1', { type: 'shared_worker', url: 'http://a.test/s.js' }, () => clock);
  clock += 2000;
  const out = sockets.event('Network.webSocketFrameReceived', {
    requestId: 'r1',
    timestamp: 5,
    response: { opcode: 1, payloadData: 'hi' },
  });
  const opening = out.find(
    (m): m is Extract<HostMessage, { type: 'connection-opening' }> => m.type === 'connection-opening',
  );
  expect(opening).toMatchObject({ connectionId: 'debugger:s1:r1', url: '', seenFrom: ATTACHED_AT });
  // A socket created while capture was on says nothing of the kind.
  const fresh = sockets.event('Network.webSocketCreated', { requestId: 'r2', url: 'wss://a.test/live' });
  expect(fresh[0]).not.toHaveProperty('seenFrom');
});
