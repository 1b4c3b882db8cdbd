import { Kind } from '../core/kinds.js';
import { SpanIndex } from '../core/span-index.js';
import { field, initParts, openContainer, closeContainer, protocolWalker } from './frame-parts.js';
import type { MqttPiece } from './mqtt-stream.js';

/**
 * A frame of an MQTT stream that holds parts of packets split over frames (mqtt.js writes each
 * part of a packet as its own WebSocket message): its bytes alone read as nothing, or as a
 * guessed format. Read with the pieces the stream cut it into, it is a map of those pieces,
 * each a leaf spanning its bytes and named by its packet and part, so the hex shows which
 * bytes are which part.
 */

/** True when some piece is a part of a packet that took more than one frame. */
export function holdsSplitPart(pieces: readonly MqttPiece[]): boolean {
  return pieces.some((p) => p.part > 0 || !p.completes);
}

/** At or above this, a frame's own reading is convincing (as detection ranks a near miss). */
const CONVINCING = 0.5;

/**
 * Whether a frame the stream cut into pieces reads as those parts: when it goes on with a
 * packet an earlier frame began, or when its bytes alone read as nothing convincing (`32`, a
 * PUBLISH's first byte, is the JSON number 50; `10` is CBOR 16). A frame that only starts a
 * packet and reads whole and plausibly as another format (CBOR's `a2` map is an UNSUBSCRIBE's
 * first byte) keeps that reading: the stream only guesses there.
 */
export function readsAsParts(
  pieces: readonly MqttPiece[],
  own: {
    readonly verdict: string;
    readonly detection?: { readonly candidates: readonly { readonly confidence: number }[] } | null;
  },
): boolean {
  if (!holdsSplitPart(pieces)) return false;
  if (pieces.some((p) => p.part > 0)) return true;
  return own.verdict !== 'decoded' || (own.detection?.candidates[0]?.confidence ?? 0) < CONVINCING;
}

/** `MQTT, part of CONNECT packet` (`MQTT, parts of PUBACK and PUBLISH packets` for several). */
export function mqttPartLabel(pieces: readonly MqttPiece[]): string {
  const types = [...new Set(pieces.filter((p) => p.part > 0 || !p.completes).map((p) => p.type))];
  if (!types.length) return 'MQTT';
  const many = pieces.filter((p) => p.part > 0 || !p.completes).length > 1;
  return `MQTT, ${many ? 'parts' : 'part'} of ${types.join(' and ')} packet${types.length > 1 ? 's' : ''}`;
}

function pieceName(piece: MqttPiece): string {
  const where = `packet bytes ${piece.at}–${piece.at + piece.end - piece.start}`;
  if (piece.part === 0 && piece.completes) return `${piece.type} packet ${piece.packet} (whole)`;
  const last = piece.completes ? ', last' : '';
  return `${piece.type} packet ${piece.packet}, part ${piece.part + 1}${last} (${where})`;
}

/** The frame's bytes read as the stream's pieces of packets (format mqtt, no error). */
export function mqttPartsIndex(bytes: Uint8Array, pieces: readonly MqttPiece[]): SpanIndex {
  const walker = protocolWalker(
    'mqtt',
    (index) => {
      initParts(index);
      const root = openContainer(index, -1, null, Kind.map, 0);
      for (const piece of pieces)
        field(
          index,
          root,
          pieceName(piece),
          piece.start,
          piece.end,
          index.bytes.slice(piece.start, piece.end),
          Kind.bytes,
        );
      closeContainer(index, root, index.bytes.length);
    },
    () => mqttPartLabel(pieces),
  );
  return new SpanIndex(bytes, walker, { depth: 1 });
}
