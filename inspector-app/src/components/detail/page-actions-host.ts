import type { FrameActionKind } from '../../protocol/messages.js';
import type { FrameActionClient } from '../../state/frame-action-client.js';

/** What a host that can act on a page's sockets hands the detail: which actions it offers and who performs them. */
export interface PageActionsHost {
  readonly kinds: readonly FrameActionKind[];
  readonly client: Pick<FrameActionClient, 'act'> & Partial<Pick<FrameActionClient, 'hold'>>;
}
