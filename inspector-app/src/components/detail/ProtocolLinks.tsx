import type { ReactElement } from 'react';
import type { FrameDecode } from '../../worker/api.js';
import { requestOpenFrame } from '../tree/open-frame.js';

/**
 * Lines above the frame's views about the frames it belongs with through its protocol: the
 * Socket.IO event an attachment belongs to (and an event's attachments), a GraphQL
 * operation's subscribe / next / complete frames. Each named frame opens on click.
 */
export function ProtocolLinks(props: { readonly links: FrameDecode['links'] }): ReactElement | null {
  if (!props.links?.length) return null;
  return (
    <div className="ws-protocol-links" data-testid="protocol-links" role="note">
      {props.links.map((line) => (
        <div key={line.text}>
          {line.text}
          {line.frameIds.map((id) => (
            <button
              key={id}
              type="button"
              className="ws-tree-link"
              data-testid="protocol-link"
              data-link-frame={id}
              onClick={(e) => requestOpenFrame(e.currentTarget, id)}
            >
              frame {id}
            </button>
          ))}
        </div>
      ))}
    </div>
  );
}
