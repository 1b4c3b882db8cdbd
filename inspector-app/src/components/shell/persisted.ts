import { createContext, useCallback, useContext, useState } from 'react';

/** What remembering a layout size needs of `localStorage` (tests pass a Map-backed one). */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

/** `localStorage`, or null where touching it throws (sandboxed frames, some file:// pages). */
export function defaultStorage(): StorageLike | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export const LAYOUT_KEY_PREFIX = 'wirescope.layout.';

/** A stored number, or `fallback` when absent, unparsable or outside [min, max]. */
export function readStoredNumber(
  storage: StorageLike | null,
  key: string,
  fallback: number,
  min = -Infinity,
  max = Infinity,
): number {
  try {
    const raw = storage?.getItem(LAYOUT_KEY_PREFIX + key);
    if (raw == null) return fallback;
    const n = Number(raw);
    return Number.isFinite(n) && n >= min && n <= max ? n : fallback;
  } catch {
    return fallback;
  }
}

/**
 * A layout number (a pane size, a bytes-per-row choice) kept across reloads. Writes are
 * best-effort: a full or refused storage only means the size is not remembered.
 */
export function usePersistentNumber(
  storage: StorageLike | null,
  key: string,
  fallback: number,
  min = -Infinity,
  max = Infinity,
): [number, (n: number) => void] {
  const [value, setValue] = useState(() => readStoredNumber(storage, key, fallback, min, max));
  const set = useCallback(
    (n: number) => {
      const v = Math.min(max, Math.max(min, n));
      setValue(v);
      try {
        storage?.setItem(LAYOUT_KEY_PREFIX + key, String(v));
      } catch {
        // not remembered; the layout still changes
      }
    },
    [storage, key, min, max],
  );
  return [value, set];
}

/** Where layout sizes are remembered; tests provide their own (or null) through this. */
export const LayoutStorageContext = createContext<StorageLike | null>(defaultStorage());

export const useLayoutStorage = (): StorageLike | null => useContext(LayoutStorageContext);

/** A remembered choice among `choices` (a pane's placement), `fallback` when absent or unknown. */
export function usePersistentChoice<T extends string>(
  storage: StorageLike | null,
  key: string,
  fallback: T,
  choices: readonly T[],
): [T, (v: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const raw = storage?.getItem(LAYOUT_KEY_PREFIX + key);
      return choices.find((c) => c === raw) ?? fallback;
    } catch {
      return fallback;
    }
  });
  const set = useCallback(
    (v: T) => {
      setValue(v);
      try {
        storage?.setItem(LAYOUT_KEY_PREFIX + key, v);
      } catch {
        // not remembered; the layout still changes
      }
    },
    [storage, key],
  );
  return [value, set];
}
