import { makeRng } from '../core/rng.js';

/**
 * A deterministic, realistic JSON-like document of about `targetBytes` (as JSON): a feed
 * of events with nested users, tags, numbers of every width and some long text, the shape
 * of real WebSocket traffic. Same seed, same document.
 */
export function generateDocument(targetBytes: number, seed = 42): unknown {
  const rand = makeRng(seed);
  const int = rand.int;
  const words = [
    'alpha',
    'bravo',
    'charlie',
    'delta',
    'echo',
    'foxtrot',
    'golf',
    'hotel',
    'india',
    'juliet',
    'kilo',
    'lima',
    'mike',
    'november',
    'oscar',
    'papa',
    'quebec',
    'romeo',
    'sierra',
    'tango',
    'ünïcødé',
    '数据',
  ];
  const text = (n: number) => Array.from({ length: n }, () => words[int(words.length)]).join(' ');
  const events: unknown[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const event = {
      id: i,
      type: ['order.update', 'trade', 'quote', 'heartbeat'][int(4)],
      ts: 1763750400000 + i * 17,
      price: Math.round(rand() * 1e7) / 100,
      qty: int(1000),
      delta: -int(70000),
      ratio: rand(),
      active: rand() < 0.5,
      parent: rand() < 0.2 ? null : i - 1,
      user: {
        id: `u_${int(1e6).toString(36)}`,
        name: text(2),
        roles: ['trader', 'viewer', 'admin'].slice(0, 1 + int(3)),
      },
      tags: Array.from({ length: int(5) }, () => words[int(words.length)]),
      note: rand() < 0.1 ? text(40) : '',
      book: {
        bids: Array.from({ length: 3 }, () => [Math.round(rand() * 1e5) / 100, int(500)]),
        asks: Array.from({ length: 3 }, () => [Math.round(rand() * 1e5) / 100, int(500)]),
      },
    };
    size += JSON.stringify(event).length + 1;
    events.push(event);
  }
  return { stream: 'market', version: 3, events };
}
