import { describe, expect, it } from 'vitest';
import { frameLink } from './frame-link.js';
import { bytesFromHash } from '../../sources/paste-input.js';

describe('link to this frame', () => {
  it('is the paste page with the bytes in its hash, which reads back to the same bytes', () => {
    const bytes = Uint8Array.from([0xa1, 0x61, 0x61, 0x01, 0xff]);
    const link = frameLink('http://localhost:8080/paste.html?theme=dark', bytes);
    expect(link.ok).toBe(true);
    if (!link.ok) return;
    const url = new URL(link.url);
    expect(url.pathname).toBe('/paste.html');
    expect(url.search).toBe('?theme=dark');
    const back = bytesFromHash(url.hash);
    expect(back?.ok && Array.from(back.bytes)).toEqual(Array.from(bytes));
  });

  it("a text frame's link says so, and reads back as text", () => {
    const link = frameLink('http://x/paste.html', new TextEncoder().encode('cafe'), undefined, { text: true });
    expect(link.ok && new URL(link.url).hash).toBe('#b64=Y2FmZQ&text');
    expect(link.ok && bytesFromHash(new URL(link.url).hash)).toMatchObject({ ok: true, text: true });
  });

  it('says why there is no link for a frame above the limit', () => {
    const link = frameLink('http://x/paste.html', new Uint8Array(100), 64);
    expect(link.ok).toBe(false);
    if (!link.ok) expect(link.reason).toContain('too large for a link');
  });
});
