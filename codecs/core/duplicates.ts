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
  // Packed reads (see SpanStore): this runs for every map while walkers record.
  const c = store.cap;
  const i32 = store.i32;
  const u8 = store.u8;
  // Small maps (most of them): collect the keys into a reused scratch array, compare pairs.
  let keys = 0;
  for (let n = i32[3 * c + mapId]; n >= 0; n = i32[4 * c + n]) {
    const flags = u8[c + n];
    if (!(flags & Flag.key) || flags & Flag.incomplete) continue;
    if (keys === SMALL_MAP) return reportInLargeMap(index, mapId);
    scratch[keys++] = n;
  }
  for (let i = 1; i < keys; i++) {
    const a = scratch[i];
    const a0 = i32[a];
    const size = i32[c + a] - a0;
    for (let j = 0; j < i; j++) {
      const b = scratch[j];
      if (i32[c + b] - i32[b] === size && sameBytes(bytes, a0, i32[b], size)) {
        report(index, a, b);
        break;
      }
    }
  }
}

const SMALL_MAP = 16;
const scratch = new Int32Array(SMALL_MAP);

function reportInLargeMap(index: SpanIndex, mapId: number): void {
  const { store, bytes } = index;
  const { flags, start, end, nextSibling } = store;
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

function sameBytes(bytes: Uint8Array, a: number, b: number, size: number): boolean {
  for (let i = 0; i < size; i++) if (bytes[a + i] !== bytes[b + i]) return false;
  return true;
}

function signature(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]);
  return s;
}
