import { useEffect, useState, type ReactElement } from 'react';
import type { TreeNode } from '../../worker/api.js';

/** Image types a browser shows in an <img>; the worker's media reading names the root by its type. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The image type of a frame whose root the worker read as a media file, or null. */
export function imageTypeOf(root: TreeNode | null | undefined): string | null {
  return root && root.depth === 0 && IMAGE_TYPES.has(root.head) ? root.head : null;
}

/**
 * A thumbnail of an image frame (a PNG attachment): the frame's bytes as a blob: URL in an
 * <img>, revoked when the frame changes. The browser decodes the image, never this page's
 * code, and nothing is written as markup.
 */
export function MediaThumbnail(props: {
  readonly type: string;
  readonly bytes: Uint8Array;
  readonly summary: string;
  /** Where blob: URLs come from (the page's URL; a test passes its own). */
  readonly urls?: Pick<typeof URL, 'createObjectURL' | 'revokeObjectURL'>;
}): ReactElement | null {
  const { type, bytes, summary, urls = URL } = props;
  const [url, setUrl] = useState<string | null>(null);
  const [broken, setBroken] = useState(false);
  useEffect(() => {
    const next = urls.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
    setUrl(next);
    setBroken(false);
    return () => urls.revokeObjectURL(next);
  }, [bytes, type, urls]);
  if (!url) return null;
  return (
    <figure className="ws-media-thumb" data-testid="media-thumbnail">
      {broken ? (
        <span className="ws-muted">the browser cannot draw this {type}</span>
      ) : (
        <img src={url} alt={summary} onError={() => setBroken(true)} />
      )}
      <figcaption className="ws-mono">{summary}</figcaption>
    </figure>
  );
}
