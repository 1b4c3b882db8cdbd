import { describe, expect, it } from 'vitest';
import type { ByteMapRect } from '../../worker/api.js';
import { rectDescription, rectLabel, rectParts } from './byte-map-parts.js';

function rect(over: Partial<ByteMapRect>): ByteMapRect {
  return {
    x: 10,
    y: 20,
    w: 200,
    h: 50,
    depth: 2,
    parent: 0,
    role: 'leaf',
    container: false,
    nodeId: 7,
    start: 40,
    end: 80,
    bytes: 50,
    keyBytes: 10,
    headBytes: 2,
    count: 1,
    label: 'avatarHash',
    path: '$.users[0].avatarHash',
    strip: false,
    ...over,
  };
}

describe('treemap rectangles as the hex colours them', () => {
  it('cuts a rectangle into key, head and value along its longer side, each as wide as its bytes', () => {
    const parts = rectParts(rect({}));
    expect(parts.map((p) => p.tone)).toEqual(['key', 'header', 'payload']);
    expect(parts.map((p) => p.w)).toEqual([40, 8, 152]);
    expect(parts.every((p) => p.y === 20 && p.h === 50)).toBe(true);
    expect(parts.reduce((s, p) => s + p.w, 0)).toBe(200);
    const tall = rectParts(rect({ w: 20, h: 100 }));
    expect(tall.map((p) => p.h)).toEqual([20, 4, 76]);
  });

  it('draws "N smaller" as one part and labels it', () => {
    const more = rect({ role: 'more', nodeId: -1, count: 1234, label: '1,234 smaller', keyBytes: 0, headBytes: 0 });
    expect(rectParts(more).map((p) => p.tone)).toEqual(['more']);
    expect(rectDescription(more, rect({ path: '$.users', bytes: 5000 }), 10_000)).toMatch(
      /^1,234 smaller items in \$\.users\[0\]\.avatarHash: 50 B; 0\.50% of the frame, 1\.0% of \$\.users/,
    );
  });

  it('labels with key and size only where they fit', () => {
    expect(rectLabel(rect({}))?.lines).toEqual(['avatarHash', '50 B']);
    expect(rectLabel(rect({ h: 16 }))?.lines).toEqual(['avatarHash · 50 B']);
    expect(rectLabel(rect({ w: 30 }))).toBeNull();
    // An open container labels its strip, none without one.
    expect(rectLabel(rect({ role: 'container', strip: true }))?.lines).toEqual(['avatarHash · 50 B']);
    expect(rectLabel(rect({ role: 'container', strip: false }))).toBeNull();
  });

  it("gives the numbers: bytes split, share of the frame and of the parent's bytes", () => {
    const text = rectDescription(rect({}), rect({ path: '$.users[0]', bytes: 200 }), 1000);
    expect(text).toBe(
      '$.users[0].avatarHash: 50 B — key 10 B, head 2 B, value 38 B; 5.0% of the frame, 25% of $.users[0] (its 200 B)',
    );
  });
});
