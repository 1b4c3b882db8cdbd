/**
 * The one mark for a frame's direction, wherever a frame is shown (the list's row, the frame's
 * header, `wirescope inspect`'s lines): ↑ sent and ↓ received by the page; ⇡ sent and ⇣
 * delivered to the page by wirescope itself, with the words a screen reader says for it.
 */
import type { Direction } from './types.js';

export function directionMark(direction: Direction, byWirescope: boolean): string {
  if (byWirescope) return direction === 'sent' ? '⇡' : '⇣';
  return direction === 'sent' ? '↑' : '↓';
}

/** What the mark means in words: "sent", "received", "sent by wirescope", "delivered to the page by wirescope". */
export function directionName(direction: Direction, byWirescope: boolean): string {
  if (!byWirescope) return direction;
  return `${direction === 'sent' ? 'sent' : 'delivered to the page'} by wirescope`;
}
