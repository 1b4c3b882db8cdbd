import { Flag } from './kinds.js';
import type { SpanIndex } from './span-index.js';

/**
 * Reports keys of one recorded map that repeat an earlier key byte for byte. Runs when a
 * map's entries are recorded (so a full index reports every duplicate; a shallow one, those
 * of the maps expanded so far). Keys are compared by their encoded bytes. Runs for every
 * map of a full index, so the common small map allocates nothing.
 */
export function reportDuplicateKeys(index: SpanIndex, mapId: number): void {
  const { store, bytes } = index;
  const { flags, start, end, nextSibling } = store;
  let keys = 0;
  for (let c = store.firstChild[mapId]; c >= 0; c = nextSibling[c]) if (flags[c] & Flag.key) keys++;
  if (keys < 2) return;
  if (keys <= 16) {
    for (let a = store.firstChild[mapId]; a >= 0; a = nextSibling[a]) {
      if (!(flags[a] & Flag.key) || flags[a] & Flag.incomplete) continue;
      for (let b = store.firstChild[mapId]; b !== a; b = nextSibling[b]) {
        if (flags[b] & Flag.key && !(flags[b] & Flag.incomplete) && sameBytes(bytes, start[a], end[a], start[b], end[b])) {
          report(index, a, b);
          break;
        }
      }
    }
    return;
  }
  const seen = new Map<string, number>();
  for (let k = store.firstChild[mapId]; k >= 0; k = nextSibling[k]) {
    if (!(flags[k] & Flag.key) || flags[k] & Flag.incomplete) continue;
    const sig = signature(bytes, start[k], end[k]);
    const first = seen.get(sig);
    if (first === undefined) seen.set(sig, k);
    else report(index, k, first);
  }
}

function report(index: SpanIndex, dup: number, first: number): void {
  const { store } = index;
  store.flags[dup] |= Flag.duplicateKey;
  index.warn({
    code: 'duplicate-key',
    offset: store.start[dup],
    node: dup,
    message: `duplicate map key at byte ${store.start[dup]} (first at byte ${store.start[first]})`,
  });
}

function sameBytes(bytes: Uint8Array, a0: number, a1: number, b0: number, b1: number): boolean {
  if (a1 - a0 !== b1 - b0) return false;
  for (let i = 0; i < a1 - a0; i++) if (bytes[a0 + i] !== bytes[b0 + i]) return false;
  return true;
}

function signature(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]);
  return s;
}
