import { useState, type ReactElement } from 'react';
import { directionMark, directionName } from '../../../../codecs/capture/direction-mark.js';
import type { Direction } from '../../../../codecs/capture/types.js';
import type { FormatChoice } from '../../worker/api.js';
import { FRAME_FORMATS } from '../../../../codecs/core/frame-formats.js';
import type { WorkerClient } from '../../worker/client.js';
import { copyText } from '../shell/copyText.js';
import { encodeBase64 } from '../../sources/base64.js';
import { saveBytes, toHex } from './clipboard.js';
import { frameLink } from './frame-link.js';

/**
 * The decoder switcher's choices: best fit, then every walker format. Socket.IO among them:
 * `40` or `2` alone read as JSON numbers unless the connection's other frames were Socket.IO,
 * and forcing it reads the packet.
 */
const FORMATS: readonly FormatChoice[] = ['auto', ...FRAME_FORMATS];

/** Copy as hex / base64 / JSON / EDN, save as .bin, and the decoder switcher. */
export function FrameActions(props: {
  client: Pick<WorkerClient, 'call'>;
  frameId: number;
  format: FormatChoice;
  detected: string | null;
  onFormat: (f: FormatChoice) => void;
  /** The paste page's URL: "Copy link" puts the frame in its hash. Absent: no link. */
  pastePageUrl?: string;
  /** A WebSocket text frame: its link opens it as text on the paste page. */
  isText?: boolean;
  /** Which way the frame went and whether wirescope itself sent or delivered it: marked as in the list. */
  direction?: { readonly direction: Direction; readonly byWirescope: boolean };
}): ReactElement {
  const { client, frameId, format, detected, onFormat, pastePageUrl } = props;
  const [notice, setNotice] = useState('');

  const flash = (text: string) => {
    setNotice(text);
    setTimeout(() => setNotice(''), 1500);
  };

  const copyBytes = async (as: 'hex' | 'base64') => {
    const bytes = await client.call('bytes', { frameId });
    if (!bytes) return flash('frame evicted');
    flash(
      (await copyText(as === 'hex' ? toHex(bytes) : encodeBase64(bytes), navigator.clipboard))
        ? `copied ${as}`
        : 'copy refused',
    );
  };
  const copyValue = async (mode: 'json' | 'edn') => {
    const decoded = await client.call('decode', { frameId, format });
    if (!decoded?.root) return flash('nothing decoded');
    const text = await client.call('text', { frameId, format, nodeId: decoded.root.id, mode });
    flash(
      (await copyText(text.text, navigator.clipboard))
        ? `copied ${mode.toUpperCase()}${text.truncated ? ' (cut)' : ''}`
        : 'copy refused',
    );
  };
  const copyLink = async () => {
    const bytes = await client.call('bytes', { frameId });
    if (!bytes || !pastePageUrl) return flash('frame evicted');
    const link = frameLink(pastePageUrl, bytes, undefined, { text: props.isText === true });
    if (!link.ok) return flash(link.reason);
    flash((await copyText(link.url, navigator.clipboard)) ? 'copied link' : 'copy refused');
  };
  const save = async () => {
    const bytes = await client.call('bytes', { frameId });
    if (bytes) saveBytes(bytes, frameId < 0 ? `live-sample-${-frameId}.bin` : `frame-${frameId}.bin`);
  };

  return (
    <div className="ws-toolbar" role="group" aria-label="Frame actions">
      {/* A live tail sample (negative id) is not numbered yet: it gets its number when the held frames come. */}
      <span>{frameId < 0 ? 'Live tail sample' : `Frame #${frameId}`}</span>
      {props.direction && (
        <span
          role="img"
          data-testid="frame-direction"
          className={props.direction.byWirescope ? 'ws-dir-wirescope' : 'ws-muted'}
          aria-label={directionName(props.direction.direction, props.direction.byWirescope)}
          title={directionName(props.direction.direction, props.direction.byWirescope)}
        >
          {directionMark(props.direction.direction, props.direction.byWirescope)}
        </span>
      )}
      <label>
        decode as{' '}
        <select
          aria-label="Decode as"
          data-testid="format-switcher"
          value={format.startsWith('protobuf:') ? 'protobuf' : format}
          onChange={(e) => onFormat(e.target.value as FormatChoice)}
        >
          {FORMATS.map((f) => (
            <option key={f} value={f}>
              {f === 'auto' ? `auto (${detected ?? 'none'})` : f}
            </option>
          ))}
        </select>
      </label>
      <span className="ws-spacer" />
      <button type="button" onClick={() => void copyBytes('hex')}>
        Copy hex
      </button>
      <button type="button" onClick={() => void copyBytes('base64')}>
        Copy base64
      </button>
      <button type="button" onClick={() => void copyValue('json')}>
        Copy JSON
      </button>
      <button type="button" onClick={() => void copyValue('edn')}>
        Copy EDN
      </button>
      {pastePageUrl && (
        <button
          type="button"
          onClick={() => void copyLink()}
          data-testid="copy-link"
          title="A paste-page URL with this frame's bytes in its hash: opening it shows this frame decoded"
        >
          Copy link
        </button>
      )}
      <button type="button" onClick={() => void save()}>
        Save .bin
      </button>
      {notice && <span role="status">{notice}</span>}
    </div>
  );
}
