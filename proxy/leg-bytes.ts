/**
 * Pairs each relayed message with the bytes it took on both legs, for one direction of one
 * proxied connection. The leg it arrived on is measured as it is read (the k-th message
 * read is the k-th the meter completes); the leg it leaves on once `ws` has written it (the
 * k-th forwarded message is the k-th the outgoing meter completes; with permessage-deflate
 * that is after compression). A message's record goes out when both are known, in arrival
 * order; `flush` sends what waits with null for what never came (the connection ended).
 */
import type { Direction, LegBytes, Opcode, WireFrame } from '../codecs/capture/types.js';

export interface DirectionLegs {
  /** A message arrived (its time, opcode, bytes); `forwarded`: it is being sent on (the other side is open). */
  arrived(time: number, opcode: Opcode, data: Uint8Array, forwarded: boolean): void;
  /** The arriving leg's meter completed a message of this many bytes. */
  inMeasured(bytes: number): void;
  /** The leaving leg's meter completed a message of this many bytes. */
  outMeasured(bytes: number): void;
  /** Sends every waiting record with what is known. */
  flush(): void;
}

interface Waiting {
  /** Until its message event, data is null. */
  data: Uint8Array | null;
  time: number;
  opcode: Opcode;
  inBytes: number | null | undefined;
  outBytes: number | null | undefined;
}

export function directionLegs(
  connectionId: string,
  direction: Direction,
  emit: (frame: WireFrame) => void,
): DirectionLegs {
  // Entries by arrival number − `base`, from `head` on (earlier ones went out); an entry may
  // be measured before its message event. The array is compacted now and then, not per record.
  let waiting: Waiting[] = [];
  let head = 0;
  let base = 0;
  let arrivedCount = 0;
  let inCount = 0;
  let forwardedSeqs: number[] = [];
  let forwardedRead = 0;
  // After `flush` (the connection is ending) nothing waits: records go out with what is known.
  let ended = false;

  const entry = (seq: number): Waiting => {
    const at = head + (seq - base);
    while (waiting.length <= at)
      waiting.push({ data: null, time: 0, opcode: 'binary', inBytes: undefined, outBytes: undefined });
    return waiting[at];
  };
  const legs = (w: Waiting): LegBytes => {
    const arrivedOn = w.inBytes ?? null;
    const leftOn = w.outBytes ?? null;
    return direction === 'sent' ? { client: arrivedOn, upstream: leftOn } : { client: leftOn, upstream: arrivedOn };
  };
  const release = (all: boolean): void => {
    while (head < waiting.length) {
      const w = waiting[head];
      if (!w.data) break;
      if (!all && !ended && (w.inBytes === undefined || w.outBytes === undefined)) break;
      emit({ connectionId, direction, time: w.time, opcode: w.opcode, data: w.data, legBytes: legs(w) });
      w.data = null;
      head++;
      base++;
    }
    if (head > 1024 && head * 2 > waiting.length) {
      waiting = waiting.slice(head);
      head = 0;
    }
  };

  return {
    arrived(time, opcode, data, forwarded) {
      const seq = arrivedCount++;
      const w = entry(seq);
      w.data = data;
      w.time = time;
      w.opcode = opcode;
      if (forwarded) forwardedSeqs.push(seq);
      else w.outBytes = null;
      release(false);
    },
    inMeasured(bytes) {
      const seq = inCount++;
      if (seq < base) return; // its record already went out (flushed)
      entry(seq).inBytes = bytes;
      release(false);
    },
    outMeasured(bytes) {
      if (forwardedRead >= forwardedSeqs.length) return; // not a relayed message (nothing else sends data)
      const seq = forwardedSeqs[forwardedRead++];
      if (forwardedRead > 1024 && forwardedRead * 2 > forwardedSeqs.length) {
        forwardedSeqs = forwardedSeqs.slice(forwardedRead);
        forwardedRead = 0;
      }
      if (seq < base) return;
      entry(seq).outBytes = bytes;
      release(false);
    },
    flush() {
      ended = true;
      release(true);
    },
  };
}
