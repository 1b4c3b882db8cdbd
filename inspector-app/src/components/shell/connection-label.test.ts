import { expect, it } from 'vitest';
import { shortConnectionUrl } from './connection-label.js';

it('keeps the host and the path’s last segment, drops the query and the segments between', () => {
  expect(
    shortConnectionUrl('wss://realtime.example-exchange.test/demo/market-data/level2?symbols=BTC-USD,ETH-USD'),
  ).toBe('realtime.example-exchange.test/…/level2');
  expect(shortConnectionUrl('ws://127.0.0.1:8080/echo')).toBe('127.0.0.1:8080/echo');
  expect(shortConnectionUrl('wss://a.test/')).toBe('a.test');
  expect(shortConnectionUrl('wss://a.test')).toBe('a.test');
  expect(shortConnectionUrl('wss://a.test/x/y/?q=1')).toBe('a.test/…/y');
});

it('a connection id that is no URL stays as it is', () => {
  expect(shortConnectionUrl('har-3')).toBe('har-3');
});

it('after a label of the same host, the host is not said again', () => {
  const first = 'wss://realtime.example-exchange.test/demo/market-data/level2?symbols=BTC-USD';
  expect(shortConnectionUrl('wss://realtime.example-exchange.test/demo/nested/compressed-streams?s=1', first)).toBe(
    '…/compressed-streams',
  );
  expect(shortConnectionUrl('wss://realtime.example-exchange.test/echo', first)).toBe('…/echo');
  expect(shortConnectionUrl('wss://other.test/a/b', first)).toBe('other.test/…/b');
});
