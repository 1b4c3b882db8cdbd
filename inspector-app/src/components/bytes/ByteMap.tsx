import { useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { ByteMap as ByteMapData, ByteMapRect, FormatChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';
import { useElementSize } from '../shell/use-element-size.js';
import { copyText } from '../shell/copyText.js';
import { rectDescription, rectLabel, rectParts } from './byte-map-parts.js';
import { svgMarkup } from './byte-map-svg.js';
import '../hex/hex.css';

export type ByteMapBy = 'node' | 'field';

export interface ByteMapProps {
  readonly client: Pick<WorkerClient, 'call'>;
  readonly frameId: number;
  readonly format: FormatChoice;
  readonly by: ByteMapBy;
  /** A rectangle clicked (or Enter): its node, to select in the tree (and its bytes in the hex). */
  readonly onPick?: (rect: ByteMapRect) => void;
  /** The worker answered (drawn, or nothing to draw). */
  readonly onLaidOut?: () => void;
  /** The size until the box is measured (where there is no layout: jsdom). */
  readonly fallbackSize?: { readonly width: number; readonly height: number };
}

const NO_SIZE = { width: 0, height: 0 };

/** Waits this long after a resize before asking the worker for a new layout. */
const RESIZE_SETTLE_MS = 80;

/**
 * The frame as a treemap: every value a rectangle sized by its bytes (its key included),
 * coloured as the hex colours bytes (key, head, value); "N smaller" sums what would be
 * under a pixel. The worker lays it out for the box's size (codecs/core/byte-map.ts); this
 * draws it as SVG. Hover or focus (Tab, then the arrow keys) shows the numbers; a click or
 * Enter picks the node.
 */
export function ByteMap({ client, frameId, format, by, onPick, onLaidOut, fallbackSize }: ByteMapProps): ReactElement {
  const boxRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const size = useElementSize(boxRef, fallbackSize ?? NO_SIZE);
  // The picture with what it was laid out for: one for another frame or another grouping is never shown.
  const [laid, setLaid] = useState<{ readonly key: string; readonly map: ByteMapData | null } | null>(null);
  const [error, setError] = useState('');
  const [focus, setFocus] = useState(0);
  const [shown, setShown] = useState(-1);
  const [copied, setCopied] = useState('');
  // A new size re-lays out after a pause (the old picture stays meanwhile); a new frame or grouping at once.
  const key = `${frameId}:${format}:${by}`;
  const laidKey = useRef('');
  const laidOutRef = useRef(onLaidOut);
  laidOutRef.current = onLaidOut;
  const width = Math.floor(size.width);
  const height = Math.floor(size.height);

  useEffect(() => {
    if (width <= 0 || height <= 0) return;
    let live = true;
    const timer = setTimeout(
      () => {
        client.call('byteMap', { frameId, format, by, width, height }).then(
          (m) => {
            if (!live) return;
            laidKey.current = key;
            setLaid({ key, map: m });
            setError('');
            setFocus(0);
            setShown(-1);
            laidOutRef.current?.();
          },
          (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
        );
      },
      laidKey.current === key ? RESIZE_SETTLE_MS : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, frameId, format, by, key, width, height]);

  const map = laid?.key === key ? laid.map : null;
  const rects = map?.rects ?? [];
  const describe = (i: number) =>
    map ? rectDescription(rects[i], rects[i].parent >= 0 ? rects[rects[i].parent] : null, map.frameBytes) : '';
  const pick = (i: number) => {
    const r = rects[i];
    if (r && r.nodeId >= 0) onPick?.(r);
  };
  const moveFocus = (i: number) => {
    const next = Math.max(0, Math.min(rects.length - 1, i));
    setFocus(next);
    setShown(next);
    svgRef.current?.querySelector<SVGGElement>(`[data-index="${next}"]`)?.focus();
  };
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    const step: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (e.key in step) moveFocus(i + step[e.key]);
    else if (e.key === 'Home') moveFocus(0);
    else if (e.key === 'End') moveFocus(rects.length - 1);
    else if (e.key === 'Escape' && rects[i].parent >= 0) moveFocus(rects[i].parent);
    else if (e.key === 'Enter' || e.key === ' ') pick(i);
    else return;
    e.preventDefault();
  };
  const copySvg = async () => {
    if (!svgRef.current) return;
    const ok = await copyText(svgMarkup(svgRef.current), navigator.clipboard);
    setCopied(ok ? 'copied SVG' : 'copy refused');
    setTimeout(() => setCopied(''), 1500);
  };

  const name = by === 'field' ? 'Bytes by field across array elements' : 'Bytes by node';
  return (
    <div className="ws-byte-map" data-testid={`bytes-map-${by}`} data-by={by}>
      <div className="ws-byte-map-box" ref={boxRef}>
        {error ? (
          <p className="ws-error" role="alert">
            {error}
          </p>
        ) : rects.length === 0 ? (
          <p className="ws-note" role="status">
            {map ? 'Nothing to draw.' : 'Laying out…'}
          </p>
        ) : (
          <svg
            ref={svgRef}
            xmlns="http://www.w3.org/2000/svg"
            width={map!.width}
            height={map!.height}
            viewBox={`0 0 ${map!.width} ${map!.height}`}
            role="group"
            aria-label={`${name}: ${rects.length.toLocaleString('en-US')} rectangles; arrow keys move, Enter selects in the tree`}
            data-testid="bytes-map-svg"
            onMouseLeave={() => setShown(-1)}
          >
            {rects.map((r, i) => (
              <g
                key={`${r.parent}:${r.role}:${r.nodeId}`}
                data-index={i}
                data-testid="bytes-map-rect"
                data-role={r.role}
                data-node-id={r.nodeId}
                data-path={r.path}
                data-bytes={r.bytes}
                data-count={r.count}
                className={`ws-map-item ws-map-${r.role}`}
                tabIndex={i === focus ? 0 : -1}
                role="button"
                onClick={(e) => {
                  e.stopPropagation();
                  setFocus(i);
                  pick(i);
                }}
                onMouseEnter={() => setShown(i)}
                onFocus={() => {
                  setFocus(i);
                  setShown(i);
                }}
                onKeyDown={(e) => onKeyDown(e, i)}
              >
                {/* The rectangle's accessible name and hover text (SVG names an element by its title). */}
                <title>{describe(i)}</title>
                <MapShape rect={r} />
              </g>
            ))}
          </svg>
        )}
      </div>
      <div className="ws-byte-map-status ws-toolbar">
        <span className="ws-note ws-byte-map-hover" data-testid="bytes-map-status" aria-live="polite">
          {shown >= 0 && shown < rects.length
            ? describe(shown)
            : 'Hover or focus a rectangle for its numbers; click it to select it in the tree and the hex.'}
        </span>
        <span className="ws-bytes-map-legend ws-note" title="Colours as in the hex">
          <span className="ws-swatch ws-map-swatch-key" aria-hidden="true" />
          key
          <span className="ws-swatch ws-map-swatch-header" aria-hidden="true" />
          head
          <span className="ws-swatch ws-map-swatch-payload" aria-hidden="true" />
          value
          <span className="ws-swatch ws-map-swatch-more" aria-hidden="true" />N smaller
        </span>
        <span className="ws-note" role="status">
          {copied}
        </span>
        <button type="button" onClick={() => void copySvg()} disabled={!rects.length} data-testid="bytes-map-copy">
          Copy as SVG
        </button>
      </div>
    </div>
  );
}

/** One rectangle: an open container as a frame with its label strip; anything else cut into key, head and value. */
function MapShape({ rect }: { rect: ByteMapRect }): ReactElement {
  const label = rectLabel(rect);
  const text = label ? (
    <text x={label.x} y={label.y} className="ws-map-text">
      <tspan x={label.x}>{label.lines[0]}</tspan>
      {label.lines[1] !== undefined && (
        <tspan x={label.x} dy={13}>
          {label.lines[1]}
        </tspan>
      )}
    </text>
  ) : null;
  if (rect.role === 'container')
    return (
      <>
        <rect x={rect.x} y={rect.y} width={rect.w} height={rect.h} className="ws-map-frame" />
        {text}
      </>
    );
  return (
    <>
      {rectParts(rect).map((p) => (
        <rect key={p.tone} x={p.x} y={p.y} width={p.w} height={p.h} className={`ws-map-tone-${p.tone}`} />
      ))}
      <rect x={rect.x} y={rect.y} width={rect.w} height={rect.h} className="ws-map-edge" />
      {text}
    </>
  );
}
