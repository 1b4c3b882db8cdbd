import { Flag } from './kinds.js';
import type { SpanIndex } from './span-index.js';

/**
 * Reports keys of one recorded map that repeat an earlier key byte for byte. Runs when a
 * map's entries are recorded (so a full index reports every duplicate; a shallow one, those
 * of the maps expanded so far). Keys are compared by their encoded bytes.
 */
export function reportDuplicateKeys(index: SpanIndex, mapId: number): void {
  const { store, bytes } = index;
  const keys: number[] = [];
  for (let c = store.firstChild[mapId]; c >= 0; c = store.nextSibling[c]) {
    if (store.flags[c] & Flag.key && !(store.flags[c] & Flag.incomplete)) keys.push(c);
  }
  if (keys.length < 2) return;
  const report = (dup: number, first: number): void => {
    store.flags[dup] |= Flag.duplicateKey;
    index.warn({
      code: 'duplicate-key',
      offset: store.start[dup],
      node: dup,
      message: `duplicate map key at byte ${store.start[dup]} (first at byte ${store.start[first]})`,
    });
  };
  if (keys.length <= 8) {
    for (let i = 1; i < keys.length; i++) {
      for (let j = 0; j < i; j++) {
        if (sameBytes(bytes, store.start[keys[i]], store.end[keys[i]], store.start[keys[j]], store.end[keys[j]])) {
          report(keys[i], keys[j]);
          break;
        }
      }
    }
    return;
  }
  const seen = new Map<string, number>();
  for (const k of keys) {
    const sig = signature(bytes, store.start[k], store.end[k]);
    const first = seen.get(sig);
    if (first === undefined) seen.set(sig, k);
    else report(k, first);
  }
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
