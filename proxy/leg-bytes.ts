/**
 * Pairs each relayed message with the bytes it took on both legs, for one direction of one
 * proxied connection. The leg it arrived on is measured as it is read (the k-th message
 * read is the k-th the meter completes); the leg it leaves on once `ws` has written it (the
 * k-th forwarded message is the k-th the outgoing meter completes; with permessage-deflate
 * that is after compression). A message's record goes out when both are known, in arrival
 * order; `flush` sends what waits with null for what never came (the connection ended).
 */
import type { Direction, LegBytes, WireFrame } from '../codecs/capture/types.js';

export interface DirectionLegs {
  /** A message arrived; `forwarded`: it is being sent on (the other side is open). */
  arrived(frame: WireFrame, forwarded: boolean): void;
  /** The arriving leg's meter completed a message of this many bytes. */
  inMeasured(bytes: number): void;
  /** The leaving leg's meter completed a message of this many bytes. */
  outMeasured(bytes: number): void;
  /** Sends every waiting record with what is known. */
  flush(): void;
}

interface Waiting {
  frame: WireFrame | null;
  inBytes: number | null | undefined;
  outBytes: number | null | undefined;
}

export function directionLegs(direction: Direction, emit: (frame: WireFrame) => void): DirectionLegs {
  // Entries by arrival number − `base`; an entry may be measured before its message event.
  const waiting: Waiting[] = [];
  let base = 0;
  let arrivedCount = 0;
  let inCount = 0;
  const forwardedSeqs: number[] = [];
  let forwardedRead = 0;
  // After `flush` (the connection is ending) nothing waits: records go out with what is known.
  let ended = false;

  const entry = (seq: number): Waiting => {
    while (waiting.length <= seq - base) waiting.push({ frame: null, inBytes: undefined, outBytes: undefined });
    return waiting[seq - base];
  };
  const legs = (w: Waiting): LegBytes => {
    const arrivedOn = w.inBytes ?? null;
    const leftOn = w.outBytes ?? null;
    return direction === 'sent' ? { client: arrivedOn, upstream: leftOn } : { client: leftOn, upstream: arrivedOn };
  };
  const release = (all: boolean): void => {
    let n = 0;
    while (n < waiting.length) {
      const w = waiting[n];
      if (!w.frame) break;
      if (!all && !ended && (w.inBytes === undefined || w.outBytes === undefined)) break;
      emit({ ...w.frame, legBytes: legs(w) });
      n++;
    }
    if (n > 0) {
      waiting.splice(0, n);
      base += n;
    }
  };

  return {
    arrived(frame, forwarded) {
      const seq = arrivedCount++;
      const w = entry(seq);
      w.frame = frame;
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
      if (forwardedRead > 1024) {
        forwardedSeqs.splice(0, forwardedRead);
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
