/**
 * The single source manifest (root manifest.json) → one manifest per browser. Pure, so the
 * unit test checks both variants without building anything.
 */
export type Target = 'chrome' | 'firefox';

/** A manifest as JSON: the keys this module touches are typed, the rest passes through. */
export interface Manifest {
  manifest_version: number;
  name: string;
  version: string;
  background?: unknown;
  content_scripts?: ContentScript[];
  browser_specific_settings?: unknown;
  minimum_chrome_version?: string;
  [key: string]: unknown;
}

export interface ContentScript {
  matches: string[];
  js: string[];
  run_at?: string;
  all_frames?: boolean;
  world?: 'MAIN' | 'ISOLATED';
  [key: string]: unknown;
}

export const GECKO_ID = 'wirescope@wirescope.dev';
/**
 * Firefox 128 is the first with `world: 'MAIN'` content scripts declared in the manifest;
 * 140 (the ESR after 128) the first that knows `data_collection_permissions`, which
 * addons.mozilla.org requires of new add-ons: 140 it is, so web-ext lint has nothing to warn.
 */
export const GECKO_MIN_VERSION = '140.0';
/** Firefox for Android knows `data_collection_permissions` from 142. */
export const GECKO_ANDROID_MIN_VERSION = '142.0';

/** Keys Chrome accepts that Firefox rejects or warns about; dropped from its manifest. */
const CHROME_ONLY_KEYS = ['minimum_chrome_version', 'key', 'update_url', 'offline_enabled', 'side_panel'] as const;
/** Permissions only Chrome has. */
const CHROME_ONLY_PERMISSIONS: readonly string[] = ['debugger'];
/** Content-script keys Firefox does not know. */
const CHROME_ONLY_SCRIPT_KEYS = ['match_origin_as_fallback'] as const;

export interface ManifestOptions {
  /** Test builds add the content script that lets tests open the panel in a tab (background/test-hooks.ts). */
  readonly testHooks?: boolean;
}

/**
 * The manifest for one browser: `version` from package.json; Chrome gets a module service
 * worker, Firefox an event page script plus its add-on id and minimum version.
 */
export function manifestFor(target: Target, base: Manifest, version: string, options: ManifestOptions = {}): Manifest {
  if (!/^\d+(\.\d+){0,3}$/.test(version))
    throw new Error(`manifest version must be 1-4 dot-separated integers, got ${JSON.stringify(version)}`);
  const m = structuredClone(base);
  m.version = version;
  const scripts = (m.content_scripts ?? []).map((s) => ({ ...s }));
  if (options.testHooks) scripts.push({ matches: ['<all_urls>'], js: ['test-content.js'], run_at: 'document_start' });
  m.content_scripts = scripts;

  if (target === 'chrome') {
    m.background = { service_worker: 'background.js', type: 'module' };
    // Debugger capture mode asks for `debugger` when turned on (optional_permissions); test
    // builds have it granted, since a browser test cannot answer the permission prompt.
    if (options.testHooks) {
      m.permissions = [...((m.permissions as string[] | undefined) ?? []), 'debugger'];
      const optional = ((m.optional_permissions as string[] | undefined) ?? []).filter((p) => p !== 'debugger');
      if (optional.length) m.optional_permissions = optional;
      else delete m.optional_permissions;
    }
    // Chrome 148+: runtime messages are structured clones, so frame bytes travel as bytes,
    // not base64 in JSON (the relay probes; older Chrome ignores the key, with a warning).
    m.message_serialization = 'structured_clone';
    delete m.browser_specific_settings;
    return m;
  }
  m.background = { scripts: ['background.js'] };
  for (const key of CHROME_ONLY_KEYS) delete m[key];
  // No chrome.debugger in Firefox: no debugger capture mode, no permission for it.
  const optional = ((m.optional_permissions as string[] | undefined) ?? []).filter(
    (p) => !CHROME_ONLY_PERMISSIONS.includes(p),
  );
  if (optional.length) m.optional_permissions = optional;
  else delete m.optional_permissions;
  for (const s of scripts) for (const key of CHROME_ONLY_SCRIPT_KEYS) delete s[key];
  m.browser_specific_settings = {
    gecko: {
      id: GECKO_ID,
      strict_min_version: GECKO_MIN_VERSION,
      // Required of new add-ons on addons.mozilla.org: wirescope sends nothing anywhere.
      data_collection_permissions: { required: ['none'] },
    },
    gecko_android: { strict_min_version: GECKO_ANDROID_MIN_VERSION },
  };
  return m;
}
