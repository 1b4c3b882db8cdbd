/** Where the structure view shows the hex: beside the tree, below it, or not at all. */
export type HexPlacement = 'auto' | 'beside' | 'below';
export const HEX_PLACEMENTS: readonly HexPlacement[] = ['auto', 'beside', 'below'];

/**
 * Below this the tree beside the hex is too narrow for its values: its fixed columns (about
 * 240 px), a key and a kind (about 230 px) and a value of 280 px (40 characters of the 11 px
 * monospace font whole).
 */
export const TREE_WANT_PX = 760;
/** One character of the hex font, near enough to choose a placement before anything is measured. */
export const HEX_CHAR_PX_ESTIMATE = 6.6;
/** Below this height a hex under the tree would leave the tree too few rows: beside it instead. */
export const BELOW_MIN_HEIGHT_PX = 460;
/** The hex below the tree takes at most this share of the height (the rest is the tree's). */
export const BELOW_MAX_SHARE = 0.45;
/** Hex rows are 16 px (hexFormat ROW_HEIGHT); the status line above them and the borders. */
const HEX_ROW_PX = 16;
const HEX_CHROME_PX = 24;
const BELOW_MIN_ROWS = 3;

/**
 * 'auto': beside when the tree keeps `TREE_WANT_PX` next to the narrowest hex (8 bytes a row),
 * or when the pane is too short to stack; below otherwise (1440×900 with the list open).
 */
export function resolvePlacement(
  choice: HexPlacement,
  pane: { readonly width: number; readonly height: number },
  narrowestHexPx: number,
): 'beside' | 'below' {
  if (choice !== 'auto') return choice;
  if (pane.width - narrowestHexPx >= TREE_WANT_PX) return 'beside';
  return pane.height >= BELOW_MIN_HEIGHT_PX ? 'below' : 'beside';
}

/** The hex below the tree: as tall as its rows, at most `BELOW_MAX_SHARE` of the pane, at least 3 rows. */
export function belowHeightPx(frameSize: number, bytesPerRow: number, paneHeight: number): number {
  const rows = Math.max(1, Math.ceil(frameSize / bytesPerRow));
  const fit = HEX_CHROME_PX + rows * HEX_ROW_PX;
  const cap = Math.max(HEX_CHROME_PX + BELOW_MIN_ROWS * HEX_ROW_PX, Math.floor(paneHeight * BELOW_MAX_SHARE));
  return Math.min(fit, cap);
}
