/** Pusher, Action Cable and Nostr frames: named, with channel or subscription in the event / topic column. */
import { describe, expect, it } from 'vitest';
import { decodeFrame, recognizeProtocol } from '../index.js';
import { runCli } from '../test/helpers/cli.js';

const utf8 = new TextEncoder();

function info(text: string, subprotocol?: string) {
  const d = decodeFrame(utf8.encode(text), { isText: true, depth: 1, subprotocol });
  expect(d.verdict).toBe('decoded');
  return recognizeProtocol(d.index, d.format, { subprotocol });
}

const esc = (v: unknown) => JSON.stringify(JSON.stringify(v));

describe('Pusher protocol 7', () => {
  it('names pusher: and pusher_internal: events and app events, with their channel', () => {
    expect(info(`{"event":"pusher:connection_established","data":${esc({ socket_id: '1.2' })}}`)).toEqual({
      protocol: 'pusher',
      message: 'pusher:connection_established',
      event: undefined,
      quiet: false,
    });
    expect(info('{"event":"pusher:subscribe","data":{"auth":"","channel":"my-channel"}}')).toMatchObject({
      message: 'pusher:subscribe',
      event: 'my-channel',
    });
    expect(info(`{"event":"pusher_internal:subscription_succeeded","channel":"my-channel","data":"{}"}`)).toMatchObject(
      { message: 'pusher_internal:subscription_succeeded', event: 'my-channel' },
    );
    expect(info(`{"event":"my-event","channel":"my-channel","data":${esc({ message: 'hi' })}}`)).toMatchObject({
      protocol: 'pusher',
      message: 'my-event',
      event: 'my-channel',
    });
    expect(info('{"event":"pusher:ping","data":{}}')).toMatchObject({ quiet: true });
  });

  it('an object with an event key alone is not Pusher', () => {
    expect(info('{"event":"click","x":1}')).toBeNull();
  });
});

describe('Action Cable', () => {
  const identifier = esc({ channel: 'ChatChannel', room: 'lobby' });
  it("names the server's and the client's messages, with the identifier's channel", () => {
    expect(info('{"type":"welcome"}')).toMatchObject({ protocol: 'actioncable', message: 'welcome' });
    expect(info('{"type":"ping","message":1700000000}')).toMatchObject({ message: 'ping', quiet: true });
    expect(info(`{"command":"subscribe","identifier":${identifier}}`)).toMatchObject({
      message: 'subscribe',
      event: 'ChatChannel room=lobby',
    });
    expect(info(`{"identifier":${identifier},"type":"confirm_subscription"}`)).toMatchObject({
      message: 'confirm_subscription',
      event: 'ChatChannel room=lobby',
    });
    expect(
      info(`{"command":"message","identifier":${identifier},"data":${esc({ action: 'speak', text: 'hi' })}}`),
    ).toMatchObject({ message: 'message (speak)', event: 'ChatChannel room=lobby' });
    expect(info(`{"identifier":${identifier},"message":{"text":"hi"}}`)).toMatchObject({
      message: 'broadcast',
      event: 'ChatChannel room=lobby',
    });
    expect(info('{"type":"disconnect","reason":"unauthorized","reconnect":false}')).toMatchObject({
      message: 'disconnect',
    });
  });

  it('the actioncable-v1-json subprotocol names the protocol of any of its messages', () => {
    expect(info('{"type":"confirm_subscription"}')).toBeNull();
    expect(info('{"type":"confirm_subscription"}', 'actioncable-v1-json')).toMatchObject({
      protocol: 'actioncable',
    });
  });
});

describe('Nostr NIP-01', () => {
  const event = {
    id: 'a'.repeat(64),
    pubkey: 'b'.repeat(64),
    created_at: 1700000000,
    kind: 0,
    tags: [],
    content: JSON.stringify({ name: 'ada', about: 'engines' }),
    sig: 'c'.repeat(128),
  };
  it('names client and relay messages; the subscription id or event kind fills the topic', () => {
    expect(info(JSON.stringify(['EVENT', event]))).toMatchObject({
      protocol: 'nostr',
      message: 'EVENT',
      event: 'kind 0',
      id: event.id,
    });
    expect(info(JSON.stringify(['EVENT', 'sub1', event]))).toMatchObject({ event: 'sub1 kind 0' });
    expect(info(JSON.stringify(['REQ', 'sub1', { kinds: [1], limit: 10 }, { authors: ['b'] }]))).toMatchObject({
      message: 'REQ',
      event: 'sub1',
    });
    expect(info(JSON.stringify(['EOSE', 'sub1']))).toMatchObject({ message: 'EOSE', event: 'sub1' });
    expect(info(JSON.stringify(['OK', event.id, true, '']))).toMatchObject({ message: 'OK', id: event.id });
    expect(info(JSON.stringify(['NOTICE', 'slow down']))).toMatchObject({ message: 'NOTICE' });
    expect(info(JSON.stringify(['CLOSED', 'sub1', 'error: shutting down']))).toMatchObject({ event: 'sub1' });
    expect(info(JSON.stringify(['CLOSE', 'sub1']))).toMatchObject({ message: 'CLOSE' });
    expect(info(JSON.stringify(['AUTH', 'challenge-string']))).toMatchObject({ message: 'AUTH' });
    expect(info(JSON.stringify(['COUNT', 'sub1', { count: 3 }]))).toMatchObject({ message: 'COUNT' });
  });

  it('arrays that only start with a Nostr word are not Nostr', () => {
    expect(info('["OK", "fine", 1]')).toBeNull();
    expect(info('["EVENT", 1]')).toBeNull();
  });
});

describe('CLI inspect names them', () => {
  it('SignalR, SockJS, Pusher, Action Cable and Nostr', () => {
    const line = (f: string | Uint8Array, ...args: string[]) =>
      runCli(['inspect', 'f', ...args], { f }).stdout.split('\n')[1];
    expect(line('{"type":1,"target":"Send","arguments":[],"invocationId":"3"}\x1e', '--text')).toBe(
      'protocol: signalr Invocation · Send · id 3',
    );
    expect(line(new Uint8Array([0x02, 0x91, 0x06]))).toBe('protocol: signalr Ping · keep-alive');
    expect(line('c[3000,"Go away!"]', '--text')).toBe('protocol: sockjs close · 3000 Go away!');
    expect(line('{"event":"my-event","channel":"ch","data":"{}"}', '--text')).toBe('protocol: pusher my-event · ch');
    expect(line('{"type":"welcome"}', '--text', '--subprotocol', 'actioncable-v1-json')).toBe(
      'protocol: actioncable welcome',
    );
    expect(line('["EOSE","sub1"]', '--text')).toBe('protocol: nostr EOSE · sub1');
  });
});

describe('a Nostr event carried by a frame', () => {
  const event = {
    id: 'ab'.repeat(32),
    pubkey: 'cd'.repeat(32),
    created_at: 1700000000,
    kind: 0,
    tags: [['p', 'ef'.repeat(32)]],
    content: JSON.stringify({ name: 'ada', about: 'engines' }),
    sig: '01'.repeat(64),
  };

  it('has id, pubkey and sig checked as hex of 32, 32 and 64 bytes', () => {
    const good = decodeFrame(utf8.encode(JSON.stringify(['EVENT', 'sub1', event])), { isText: true });
    expect(good.detection!.candidates[0].reason).toMatch(/Nostr event, 7 of its 7 fields/);
    expect(good.index!.warnings).toEqual([]);
    const bad = decodeFrame(
      utf8.encode(JSON.stringify(['EVENT', { ...event, id: 'ab'.repeat(31), sig: 'EF'.repeat(64), kind: 1.5 }])),
      { isText: true },
    );
    expect(bad.verdict).toBe('decoded');
    expect(bad.index!.warnings.map((w) => [w.message, bad.index!.bytes[w.offset]])).toEqual([
      ['Nostr event: id is 62 hex digits, not 64 (32 bytes)', 0x22],
      ['Nostr event: sig is not lowercase hex (64 bytes of it)', 0x22],
      ['Nostr event: kind is not an integer', 0x31],
    ]);
  });

  it("opens a kind-0 event's content (the profile, JSON in a string)", () => {
    const r = runCli(['inspect', 'f', '--text'], { f: JSON.stringify(['EVENT', 'sub1', event]) });
    expect(r.stdout).toMatch(/"content": text\(\d+\) .*\n.*decoded as json\n.*map\(2\).*\n.*"name": text\(3\) "ada"/);
  });
});
