import { PAGE_LEFT, type ConnectionState } from '../../state/capture-model.js';

/**
 * Why Send again, Edit and send and Deliver to page cannot act on a frame's socket, when the
 * panel knows already (no round trip to the page): the host's options turned actions off
 * (`allowed` false), the socket closed or failed, its page was
 * left or reloaded, or it was read from a file. Undefined: they may try (the page has the
 * last word). A connection the panel has no state for (frames before its open event) may try.
 */
export function pageActionBlocked(connection: ConnectionState | undefined, allowed = true): string | undefined {
  if (!allowed) return 'actions on the page are turned off: turn on "Act on the page" in the extension\'s options';
  if (!connection) return undefined;
  switch (connection.status) {
    case 'closed':
      return connection.detail === PAGE_LEFT
        ? "its socket's page was left or reloaded: nothing can be sent or delivered on it"
        : `the socket is closed${connection.detail ? ` (${connection.detail})` : ''}: nothing can be sent or delivered on it`;
    case 'error':
      return `the socket failed${connection.detail ? ` (${connection.detail})` : ''}: nothing can be sent or delivered on it`;
    case 'imported':
      return 'read from a file: no page socket to act on';
    default:
      return undefined;
  }
}
