/** HAR files as Chrome writes them for WebSocket connections (one entry per socket), for CLI tests. */

/** A HAR entry: one WebSocket connection, the response headers it got (its subprotocol, its extensions) and its messages. */
export const harEntry = (
  url: string,
  messages: readonly object[],
  responseHeaders: readonly { name: string; value: string }[] = [],
  startedDateTime = '2026-11-24T12:00:00.000Z',
) => ({
  startedDateTime,
  _resourceType: 'websocket',
  request: { method: 'GET', url, headers: [] },
  response: { status: 101, headers: responseHeaders },
  _webSocketMessages: messages,
});

/** A HAR file's text holding `entries`. */
export const harText = (entries: readonly object[]): string =>
  JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } });

/** A HAR file's bytes holding `entries`. */
export const harBytes = (entries: readonly object[]): Uint8Array => new TextEncoder().encode(harText(entries));
