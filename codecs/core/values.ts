/**
 * The value model that materialization produces. Plain JS where JSON can say it (objects,
 * arrays, strings, numbers, booleans, null); explicit wrappers where it cannot, so nothing
 * the frame said is lost or silently converted.
 *
 * - integers beyond 2^53 and CBOR bignums (tags 2/3): bigint
 * - byte strings: Uint8Array
 * - CBOR undefined: undefined; other simple values: SimpleValue
 * - CBOR tags other than 2/3: TaggedValue
 * - MessagePack extensions: ExtValue (type -1 also carries the decoded timestamp)
 * - maps with only string keys: a plain object whose keys never touch a prototype
 *   (`__proto__` becomes an own property); with non-string keys: Map; with duplicate keys or
 *   a -0.0 key (a Map stores it as 0): EntriesMap, all entries in order.
 */
export class TaggedValue {
  constructor(
    readonly tag: number | bigint,
    readonly value: unknown,
  ) {}
}

export class SimpleValue {
  constructor(readonly value: number) {}
}

export interface MsgPackTimestamp {
  readonly seconds: number | bigint;
  readonly nanoseconds: number;
  /** The instant as a Date (millisecond precision); null outside Date's range. */
  readonly date: Date | null;
}

export class ExtValue {
  constructor(
    readonly type: number,
    readonly data: Uint8Array,
    readonly timestamp: MsgPackTimestamp | null = null,
  ) {}
}

export class EntriesMap {
  constructor(readonly entries: ReadonlyArray<readonly [unknown, unknown]>) {}
}

/** Sets a property without ever invoking the `__proto__` setter. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** `timestamp 2026-11-21T22:24:02.123456789Z` (nanoseconds kept), or seconds when out of Date's range. */
export function timestampText(ts: MsgPackTimestamp): string {
  if (!ts.date) return `timestamp ${ts.seconds}s + ${ts.nanoseconds}ns`;
  const iso = ts.date.toISOString();
  return `timestamp ${iso.slice(0, 19)}.${String(ts.nanoseconds).padStart(9, '0')}Z`;
}
