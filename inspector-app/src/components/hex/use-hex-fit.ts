import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useLayoutStorage, usePersistentNumber } from '../shell/persisted.js';
import { useElementWidth } from '../shell/use-element-size.js';
import { fitRows, hexWidthPx, offsetDigits, ROW_CHOICES, rowsForWidth, type BytesPerRow } from './hexFormat.js';

/**
 * The tree keeps at least this much beside the hex pane before the hex drops to 8 per row:
 * its columns' floors (tree.css and TreeView.tsx treeColumnWidths: key 88, kind 56, value 48,
 * then 48 + 42 + 28 + 42 + 28, gaps 7 × 4, padding 6, a scrollbar) and room for a longer key or kind.
 */
export const TREE_MIN_PX = 490;
/** Width of one character of the hex font where nothing can be measured (jsdom). */
const FALLBACK_CHAR_PX = 6.6;

export interface HexFit {
  /** Bytes per row actually shown (the remembered choice, fewer when the room is narrow). */
  readonly bytesPerRow: BytesPerRow;
  /** The pane's width in px for those rows (the splitter's value). */
  readonly widthPx: number;
  readonly minPx: number;
  readonly maxPx: number;
  /** A splitter drag to `px`: remembers the row choice nearest that width. */
  resize(px: number): void;
  /** Put on a hidden span in the hex font holding ten characters: its width gives 1ch. */
  readonly measureRef: RefObject<HTMLSpanElement | null>;
}

/**
 * How wide the hex pane beside the tree is: exactly its rows (16 bytes and ASCII by
 * default, 8 when the room is narrow); the tree takes the rest. A drag snaps to 8/16/32.
 */
export function useHexFit(
  splitRef: RefObject<Element | null>,
  frameSize: number,
  /** The width the tree keeps beside the hex (0: the hex is below the tree and takes the whole width). */
  treeMinPx: number = TREE_MIN_PX,
): HexFit {
  const storage = useLayoutStorage();
  const [preferred, setPreferred] = usePersistentNumber(storage, 'hexBytesPerRow', 16, 8, 32);
  const available = useElementWidth(splitRef, 1200);
  const measureRef = useRef<HTMLSpanElement>(null);
  const [charPx, setCharPx] = useState(FALLBACK_CHAR_PX);
  useLayoutEffect(() => {
    const w = measureRef.current?.getBoundingClientRect().width ?? 0;
    if (w > 0) setCharPx(w / 10);
  }, []);
  const digits = offsetDigits(frameSize);
  const choice = (ROW_CHOICES as readonly number[]).includes(preferred) ? (preferred as BytesPerRow) : 16;
  const bytesPerRow = fitRows(choice, available, treeMinPx, digits, charPx);
  return {
    bytesPerRow,
    widthPx: hexWidthPx(bytesPerRow, digits, charPx),
    minPx: hexWidthPx(ROW_CHOICES[0], digits, charPx),
    maxPx: hexWidthPx(ROW_CHOICES[ROW_CHOICES.length - 1], digits, charPx),
    resize: (px) => setPreferred(rowsForWidth(px, digits, charPx)),
    measureRef,
  };
}
