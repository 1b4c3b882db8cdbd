/**
 * A tree row that stands for another frame (a Socket.IO attachment placeholder) asks the app
 * to open that frame with a DOM event that bubbles up, so the tree needs no callback threaded
 * through the detail pane.
 */
export const OPEN_FRAME_EVENT = 'wirescope-open-frame';

export function requestOpenFrame(from: Element, frameId: number): void {
  from.dispatchEvent(new CustomEvent(OPEN_FRAME_EVENT, { bubbles: true, detail: { frameId } }));
}

/** Calls `open` with each requested frame id; returns the unsubscribe. */
export function onOpenFrame(target: EventTarget, open: (frameId: number) => void): () => void {
  const listener = (e: Event) => {
    const frameId = (e as CustomEvent<{ frameId?: unknown }>).detail?.frameId;
    if (typeof frameId === 'number' && Number.isInteger(frameId)) open(frameId);
  };
  target.addEventListener(OPEN_FRAME_EVENT, listener);
  return () => target.removeEventListener(OPEN_FRAME_EVENT, listener);
}
