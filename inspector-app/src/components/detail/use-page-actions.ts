import { useEffect, useState } from 'react';
import type { FrameActionKind } from '../../protocol/messages.js';
import type { Transport } from '../../protocol/transport.js';
import { FrameActionClient } from '../../state/frame-action-client.js';
import type { PageActionsHost } from './page-actions-host.js';

/** The host's actions on the page (`capabilities.frameActions`), listening for their answers while mounted; undefined when it has none. */
export function usePageActions(
  transport: Transport,
  kinds: readonly FrameActionKind[] | undefined,
): PageActionsHost | undefined {
  const [host, setHost] = useState<PageActionsHost | undefined>(undefined);
  const key = kinds?.join(',') ?? '';
  useEffect(() => {
    if (!key) return;
    const client = new FrameActionClient(transport);
    setHost({ kinds: key.split(',') as FrameActionKind[], client });
    return () => {
      client.dispose();
      setHost(undefined);
    };
  }, [transport, key]);
  return host;
}
