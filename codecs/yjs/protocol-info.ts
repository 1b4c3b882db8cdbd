import type { SpanIndex } from '../core/span-index.js';
import type { ProtocolInfo } from '../protocols/protocol-info.js';
import { yjsMessage } from './walker.js';

/**
 * What the list's protocol and event columns show for a Yjs frame: the message (`sync step 1`,
 * `update`, `awareness`, …) and, for an update, the root types its structs name (`text, map`);
 * y-websocket names the room in the URL, not in the frames.
 */
export function yjsProtocolInfo(index: SpanIndex): ProtocolInfo | null {
  const m = yjsMessage(index);
  if (!m) return null;
  const roots = new Set<string>();
  for (const c of m.update?.clients ?? [])
    for (const s of c.structs) if (typeof s.parent === 'string' && roots.size < 4) roots.add(s.parent);
  const names = [...roots];
  return {
    protocol: 'yjs',
    message: m.step ?? m.message,
    ...(names.length ? { event: names.length > 3 ? `${names.slice(0, 3).join(', ')}, …` : names.join(', ') } : {}),
  };
}
