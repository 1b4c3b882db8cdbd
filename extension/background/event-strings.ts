/**
 * Socket events carry strings the page controls (a URL can be 25 MB, so can a server's
 * extensions header); the background keeps them for every tab, so each is capped to
 * `MAX_EVENT_STRING` characters, the cut marked, and every event is charged against its
 * tab's byte budget (`eventCost`). Pure functions, no browser API.
 */
import type { BatchEvent } from '../shared/messages.js';

/** Characters kept of a URL, protocol, extensions header or close reason. */
export const MAX_EVENT_STRING = 4096;
/** What an event costs besides its strings (object, fields, its place in the item). */
export const EVENT_OVERHEAD_BYTES = 64;

export const truncationMark = (length: number): string => `… [wirescope: truncated, ${length} characters in all]`;

/**
 * `s` when short enough, else its first `max` characters (never half a surrogate pair) and
 * the truncation mark. The kept part is copied into a fresh string: V8 may keep a slice as a
 * view into the original, which would keep the whole 25 MB alive.
 */
export function capString(s: string, max = MAX_EVENT_STRING): string {
  if (s.length <= max) return s;
  let end = max;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate whose pair is cut off
  const kept = JSON.parse(JSON.stringify(s.slice(0, end))) as string;
  return kept + truncationMark(s.length);
}

/** The event with every string capped (the same object when nothing needed it). */
export function capEvent(e: BatchEvent): BatchEvent {
  switch (e.type) {
    case 'opening': {
      const url = capString(e.url);
      return url === e.url ? e : { ...e, url };
    }
    case 'open': {
      const url = capString(e.url);
      const protocol = capString(e.protocol);
      const extensions = capString(e.extensions);
      return url === e.url && protocol === e.protocol && extensions === e.extensions
        ? e
        : { ...e, url, protocol, extensions };
    }
    case 'close': {
      const reason = capString(e.reason);
      return reason === e.reason ? e : { ...e, reason };
    }
    default:
      return e;
  }
}

/** Bytes an event holds (strings as UTF-16, the most V8 uses), for the tab's cap. */
export function eventCost(e: BatchEvent): number {
  switch (e.type) {
    case 'opening':
      return EVENT_OVERHEAD_BYTES + 2 * e.url.length;
    case 'open':
      return EVENT_OVERHEAD_BYTES + 2 * (e.url.length + e.protocol.length + e.extensions.length);
    case 'close':
      return EVENT_OVERHEAD_BYTES + 2 * e.reason.length;
    default:
      return EVENT_OVERHEAD_BYTES;
  }
}
