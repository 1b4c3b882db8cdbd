import type { FormatChoice } from '../../worker/api.js';
import type { WorkerClient } from '../../worker/client.js';

/** Root-to-node ids for a node known by id and first byte: the deepest node at that byte, walked up to it. */
export async function pathOfNode(
  client: Pick<WorkerClient, 'call'>,
  frameId: number,
  format: FormatChoice,
  node: { readonly nodeId: number; readonly start: number },
): Promise<number[]> {
  // The path to the deepest node at the node's first byte passes through the node.
  const full = await client.call('nodeAt', { frameId, format, offset: node.start });
  const at = full.indexOf(node.nodeId);
  return at >= 0 ? full.slice(0, at + 1) : full;
}
