/**
 * The demo server's WebSocket URL on the host that served the page (`npm start` serves both
 * on one port, whichever it is); ws://localhost:8080/demo when the page has no http(s) host.
 */
export function demoUrlFor(location: { readonly protocol: string; readonly host: string }): string {
  if ((location.protocol === 'http:' || location.protocol === 'https:') && location.host)
    return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/demo`;
  return 'ws://localhost:8080/demo';
}
