/** The selected frame's view choices: kept by the app, so they persist while stepping through frames (as in DevTools). */
export type DetailTab = 'tree' | 'hex' | 'text' | 'bytes' | 'compare' | 'crdt' | 'diff';

export interface DetailView {
  readonly tab: DetailTab;
  readonly sortBySize: boolean;
  /** The Text tab's notation. */
  readonly textMode: 'json' | 'edn';
  /** The Text tab shows the whole frame, or the node selected in the tree. */
  readonly textScope: 'frame' | 'selection';
}

export const DEFAULT_DETAIL_VIEW: DetailView = { tab: 'tree', sortBySize: false, textMode: 'json', textScope: 'frame' };
