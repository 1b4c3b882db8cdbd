import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { drawIcon } from './icons.js';
import { GECKO_ID, manifestFor, type Manifest } from './manifest.js';

const base = JSON.parse(readFileSync(new URL('../../manifest.json', import.meta.url), 'utf8')) as Manifest;

describe('manifestFor', () => {
  it('gives Chrome a module service worker and the version from package.json', () => {
    const m = manifestFor('chrome', base, '1.2.3');
    expect(m.manifest_version).toBe(3);
    expect(m.version).toBe('1.2.3');
    expect(m.background).toEqual({ service_worker: 'background.js', type: 'module' });
    expect(m.browser_specific_settings).toBeUndefined();
    expect(m.minimum_chrome_version).toBe('111');
    expect(m.devtools_page).toBe('devtools.html');
    expect(m.message_serialization).toBe('structured_clone');
  });

  it('gives Firefox an event page script, its add-on id and version 140+, and no Chrome-only keys', () => {
    const m = manifestFor('firefox', base, '1.2.3');
    expect(m.background).toEqual({ scripts: ['background.js'] });
    // data_collection_permissions is Firefox 140+ (142+ on Android): the minimum versions
    // say so, or web-ext lint warns KEY_FIREFOX(_ANDROID)_UNSUPPORTED_BY_MIN_VERSION.
    expect(m.browser_specific_settings).toEqual({
      gecko: { id: GECKO_ID, strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
      gecko_android: { strict_min_version: '142.0' },
    });
    expect(m.minimum_chrome_version).toBeUndefined();
    expect(m.message_serialization).toBeUndefined(); // structured clone is Firefox's only way
    expect(JSON.stringify(m)).not.toContain('service_worker');
  });

  it('keeps the two content scripts: the MAIN-world hook and the isolated relay, in every frame at document_start, about:blank / srcdoc / data: frames included', () => {
    // Chrome: match_origin_as_fallback covers about:blank, about:srcdoc, data: and blob: frames
    // by their origin (sandboxed ones too); Firefox knows match_about_blank only.
    const chrome = { match_about_blank: true, match_origin_as_fallback: true };
    const firefox = { match_about_blank: true };
    for (const [target, extra] of [
      ['chrome', chrome],
      ['firefox', firefox],
    ] as const) {
      const m = manifestFor(target, base, '0.1.0');
      expect(m.content_scripts).toEqual([
        {
          matches: ['<all_urls>'],
          js: ['hook.js'],
          run_at: 'document_start',
          all_frames: true,
          ...extra,
          world: 'MAIN',
        },
        { matches: ['<all_urls>'], js: ['relay.js'], run_at: 'document_start', all_frames: true, ...extra },
      ]);
    }
  });

  it('Chrome: the debugger permission is optional (asked for when debugger capture is turned on), granted up front only in test builds; Firefox: none', () => {
    expect(manifestFor('chrome', base, '0.1.0').optional_permissions).toEqual(['debugger']);
    expect(manifestFor('chrome', base, '0.1.0', { testHooks: true }).permissions).toEqual(['storage', 'debugger']);
    expect(manifestFor('firefox', base, '0.1.0').optional_permissions).toBeUndefined();
    expect(manifestFor('firefox', base, '0.1.0', { testHooks: true }).permissions).toEqual(['storage']);
  });

  it('asks only for storage (the capture options; no install warning), names every icon, and its CSP is the default plus WebAssembly (the SIMD UTF-8 validator), never eval', () => {
    for (const target of ['chrome', 'firefox'] as const) {
      const m = manifestFor(target, base, '0.1.0');
      expect(m.permissions).toEqual(['storage']);
      expect(m.options_ui).toEqual({ page: 'options.html', open_in_tab: true });
      expect(m.host_permissions).toBeUndefined();
      // MV3's default for extension pages, "script-src 'self'; object-src 'self';", with
      // 'wasm-unsafe-eval': compiling WebAssembly, not eval or new Function.
      expect(m.content_security_policy).toEqual({
        extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self';",
      });
      expect(JSON.stringify(m.content_security_policy)).not.toMatch(/'unsafe-eval'|unsafe-inline/);
      expect(Object.keys(m.icons as object)).toEqual(['16', '32', '48', '128']);
    }
  });

  it('adds the test content script only to test builds', () => {
    const m = manifestFor('firefox', base, '0.1.0', { testHooks: true });
    expect(m.content_scripts?.map((s) => s.js[0])).toEqual(['hook.js', 'relay.js', 'test-content.js']);
    expect(JSON.stringify(manifestFor('firefox', base, '0.1.0'))).not.toContain('test-content');
  });

  it('does not change its input and refuses versions browsers refuse', () => {
    const before = JSON.stringify(base);
    manifestFor('firefox', base, '0.1.0');
    expect(JSON.stringify(base)).toBe(before);
    expect(() => manifestFor('chrome', base, '1.0.0-beta')).toThrow(/version/);
  });
});

describe('icons', () => {
  it('are valid RGBA PNGs of the asked size', () => {
    const png = drawIcon(16);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(png.buffer, png.byteOffset);
    expect(view.getUint32(16)).toBe(16);
    expect(view.getUint32(20)).toBe(16);
    const idatLength = view.getUint32(33);
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    expect(raw.length).toBe(16 * (1 + 16 * 4));
  });
});
