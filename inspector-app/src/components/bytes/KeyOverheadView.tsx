import type { ReactElement } from 'react';
import type { BytesReport } from '../../worker/api.js';
import { plural } from '../shell/format.js';
import { StackedBar } from './StackedBar.js';
import { barWidth, exactBytes, formatShare } from './share.js';

type Keys = NonNullable<BytesReport['keys']>;

/** Keys vs values vs map framing, the heaviest keys, and what a schema encoding would save. */
export function KeyOverheadView({ keys, frameBytes }: { keys: Keys; frameBytes: number }): ReactElement {
  const mapBytes = keys.keyBytes + keys.valueBytes + keys.mapOverheadBytes;
  return (
    <>
      <p className="ws-section-title">Maps: keys vs values vs framing</p>
      <p className="ws-note">
        {plural(keys.maps, 'map')}, {plural(keys.entries, 'entry', 'entries')},{' '}
        {plural(keys.distinctKeys, 'distinct key')}; keys are {formatShare(keys.keyBytes, frameBytes)} of the frame.
      </p>
      <StackedBar
        label="Bytes inside maps"
        testId="bytes-keys"
        total={mapBytes}
        parts={[
          { name: 'keys', bytes: keys.keyBytes, tone: 'ws-tone-key', about: 'every key, header included' },
          { name: 'values', bytes: keys.valueBytes, tone: 'ws-tone-value', about: 'what the keys name' },
          {
            name: 'map framing',
            bytes: keys.mapOverheadBytes,
            tone: 'ws-tone-frame',
            about: 'map headers (JSON: braces, colons, commas, spaces)',
          },
        ]}
      />
      <p className="ws-section-title">Heaviest keys</p>
      <table className="ws-table" aria-label="Heaviest keys" data-testid="bytes-top-keys">
        <thead>
          <tr>
            <th scope="col">key</th>
            <th scope="col" className="ws-num">
              times
            </th>
            <th scope="col" className="ws-num">
              bytes
            </th>
            <th scope="col" className="ws-num">
              of frame
            </th>
            <th scope="col" style={{ width: '30%' }}>
              <span className="ws-visually-hidden">share bar</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.topKeys.map((k) => (
            <tr key={k.key} tabIndex={0}>
              <td className="ws-mono">{k.key}</td>
              <td className="ws-num">{k.count.toLocaleString('en-US')}</td>
              <td className="ws-num">{exactBytes(k.bytes)}</td>
              <td className="ws-num">{formatShare(k.bytes, frameBytes)}</td>
              <td>
                <div className="ws-bytes-track">
                  <div className="ws-tone-key" style={{ width: barWidth(k.bytes, frameBytes) }} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="ws-section-title">Schema estimate</p>
      <div data-testid="bytes-schema">
        <p style={{ margin: '0 0 3px' }}>
          Without keys on the wire: about <strong className="ws-num">{exactBytes(keys.schema.bytes)}</strong> instead of{' '}
          <span className="ws-num">{exactBytes(frameBytes)}</span> — {keys.schema.saved >= 0 ? 'saves' : 'costs'}{' '}
          {exactBytes(Math.abs(keys.schema.saved))} ({formatShare(Math.abs(keys.schema.saved), frameBytes)}).
        </p>
        <div
          className="ws-bytes-compare"
          role="img"
          aria-label={`schema estimate ${formatShare(keys.schema.bytes, frameBytes)} of the frame`}
        >
          <span className="ws-note">frame</span>
          <div className="ws-bytes-track">
            <div className="ws-tone-value" style={{ width: '100%' }} />
          </div>
          <span className="ws-note">schema</span>
          <div className="ws-bytes-track">
            <div className="ws-tone-schema" style={{ width: barWidth(keys.schema.bytes, frameBytes) }} />
          </div>
        </div>
        <p className="ws-note">
          A model, not an encoder: the frame less every key and map header, plus{' '}
          {plural(keys.schema.recordTagBytes, 'byte')} per record ({plural(keys.schema.records, 'map')}{' '}
          {keys.schema.records === 1 ? 'becomes a record' : 'become records'} of a known type); values keep their
          encodings.
        </p>
      </div>
    </>
  );
}
