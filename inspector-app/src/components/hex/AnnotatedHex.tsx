import { useRef, type ReactElement } from 'react';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import type { FormatChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { useWorkerCall } from '../shell/use-worker-call.js';

const LINE_HEIGHT = 16;
const FALLBACK_RECT: Rect = { width: 800, height: 400 };
function observeRect(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : FALLBACK_RECT));
}

/**
 * The annotated hex dump (cbor.me style): one line per item head and payload chunk with its
 * offset and size, computed in the worker (`annotate`), shown virtualized.
 */
export function AnnotatedHex(props: {
  client: Pick<WorkerClient, 'call'>;
  frameId: number;
  format: FormatChoice;
}): ReactElement {
  const { client, frameId, format } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const annotated = useWorkerCall(() => client.call('annotate', { frameId, format }), [client, frameId, format]);
  const result = annotated.status === 'ready' ? annotated.value : null;

  const lines = result?.lines ?? [];
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 20,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeRect,
  });

  if (annotated.status === 'error') {
    return (
      <p className="ws-error" role="alert">
        {annotated.error}
      </p>
    );
  }
  if (!result) return <div className="ws-empty">annotating…</div>;
  if (!lines.length) return <div className="ws-empty">Nothing decoded to annotate: see the plain hex.</div>;
  return (
    <div className="hex-annotated-wrap">
      {(!result.complete || result.truncated) && (
        <div className="hex-status" role="status">
          {result.truncated
            ? `first ${lines.length.toLocaleString('en-US')} lines`
            : 'a large frame: the top levels are annotated; open the tree for the rest'}
        </div>
      )}
      <div
        ref={scrollRef}
        className="hex-annotated"
        role="region"
        aria-label="Annotated hex"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes focus so the keyboard can scroll it (axe: scrollable-region-focusable)
        tabIndex={0}
        data-testid="annotated-hex"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: 'max-content' }}>
          {virtualizer.getVirtualItems().map((item) => (
            <div
              key={item.index}
              className={item.index === 0 ? 'hex-annotated-line hex-annotated-head' : 'hex-annotated-line'}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {lines[item.index]}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
