import { makeRng, type Rng } from '../core/rng.js';

/**
 * The real-world shapes of the decode benchmark, generated here from a seeded RNG (no
 * third-party corpus): the kinds of documents on which real traffic differs from the seed
 * payloads. Each shape makes a value of about a given size (as compact JSON) and says how
 * its JSON text is written (compact, pretty-printed, or ASCII-only with `\u` escapes).
 */
export interface Shape {
  readonly id: string;
  readonly title: string;
  /** A document of about `targetBytes` of compact JSON. */
  generate(rng: Rng, targetBytes: number): unknown;
  /** The JSON text of a value of this shape, as such documents are usually written. */
  jsonText(value: unknown): string;
}

const WORDS = [
  'the',
  'of',
  'and',
  'stream',
  'frame',
  'socket',
  'latency',
  'update',
  'price',
  'order',
  'server',
  'client',
  'buffer',
  'render',
  'queue',
  'token',
  'session',
  'deploy',
  'metric',
  'signal',
];
const UNICODE = [
  'café',
  'naïve',
  'Straße',
  'größer',
  'привет',
  'мир',
  'こんにちは',
  '世界',
  '数据',
  '東京',
  'مرحبا',
  'שלום',
  'Ελλάδα',
  '🎉',
  '🚀',
  '😀',
  '👍🏽',
  '🇯🇵',
  '—',
  '…',
  '“quoted”',
  '€',
  '±',
];
const ESCAPED = ['"quote"', 'back\\slash', 'line\nbreak', 'tab\there', 'path/to/file', '\u0001ctl', 'C:\\Users\\dev'];

/** `words` words, a share `unicodeRate` of them non-ASCII (accents, Cyrillic, CJK, RTL, emoji) and `escapeRate` needing JSON escapes. */
export function sentence(rng: Rng, words: number, unicodeRate = 0.15, escapeRate = 0.03): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const r = rng();
    out.push(r < unicodeRate ? rng.pick(UNICODE) : r < unicodeRate + escapeRate ? rng.pick(ESCAPED) : rng.pick(WORDS));
  }
  return out.join(' ');
}

function asciiWord(rng: Rng): string {
  return rng.pick(WORDS);
}

function handle(rng: Rng): string {
  return `${asciiWord(rng)}_${asciiWord(rng)}${rng.int(1000)}`;
}

function timestamp(rng: Rng): string {
  const d = new Date(Date.UTC(2026, rng.int(12), 1 + rng.int(28), rng.int(24), rng.int(60), rng.int(60)));
  return d.toUTCString();
}

/** Fills an array with `make()` until the compact JSON reaches `targetBytes` (at least one item). */
function fill(targetBytes: number, make: () => unknown): unknown[] {
  const items: unknown[] = [];
  let size = 2;
  do {
    const item = make();
    items.push(item);
    size += JSON.stringify(item).length + 1;
  } while (size < targetBytes);
  return items;
}

/** Twitter-API-like statuses: objects of 20-40 keys, nested users and entities, unicode and escaped text. */
function tweet(rng: Rng, id: number): Record<string, unknown> {
  const text = sentence(rng, 8 + rng.int(20), 0.2, 0.05);
  const userId = 1e9 + rng.int(1e9);
  const user: Record<string, unknown> = {
    id: userId,
    id_str: String(userId),
    name: sentence(rng, 2, 0.3, 0),
    screen_name: handle(rng),
    location: rng.bool(0.5) ? rng.pick(UNICODE) : '',
    description: sentence(rng, 4 + rng.int(12)),
    url: rng.bool(0.4) ? `https://example.com/${handle(rng)}` : null,
    entities: { description: { urls: [] as unknown[] } },
    protected: false,
    followers_count: rng.int(100000),
    friends_count: rng.int(5000),
    listed_count: rng.int(300),
    created_at: timestamp(rng),
    favourites_count: rng.int(20000),
    utc_offset: rng.bool(0.5) ? null : (rng.int(24) - 12) * 3600,
    time_zone: rng.bool(0.5) ? null : rng.pick(['Tokyo', 'Berlin', 'Pacific Time (US & Canada)']),
    geo_enabled: rng.bool(0.3),
    verified: rng.bool(0.05),
    statuses_count: rng.int(100000),
    lang: rng.pick(['en', 'ja', 'de', 'ru', 'ar']),
    contributors_enabled: false,
    is_translator: false,
    profile_background_color: rng.int(0xffffff).toString(16).padStart(6, '0').toUpperCase(),
    profile_image_url: `http://pbs.example.com/profile_images/${rng.int(1e9)}/${handle(rng)}_normal.jpeg`,
    profile_image_url_https: `https://pbs.example.com/profile_images/${rng.int(1e9)}/${handle(rng)}_normal.jpeg`,
    profile_link_color: '0084B4',
    profile_use_background_image: true,
    default_profile: rng.bool(0.5),
    following: false,
    follow_request_sent: false,
    notifications: false,
  };
  const status: Record<string, unknown> = {
    created_at: timestamp(rng),
    id: 5e17 + id * 7919,
    id_str: String(5e17 + id * 7919),
    text,
    source: `<a href="https://example.com/${asciiWord(rng)}" rel="nofollow">${sentence(rng, 2, 0, 0)}</a>`,
    truncated: false,
    in_reply_to_status_id: rng.bool(0.7) ? null : 5e17 + rng.int(1e9),
    in_reply_to_user_id: rng.bool(0.7) ? null : rng.int(1e9),
    in_reply_to_screen_name: rng.bool(0.7) ? null : handle(rng),
    user,
    geo: null,
    coordinates: rng.bool(0.9) ? null : { type: 'Point', coordinates: [rng() * 360 - 180, rng() * 180 - 90] },
    place: null,
    contributors: null,
    retweet_count: rng.int(5000),
    favorite_count: rng.int(20000),
    entities: {
      hashtags: Array.from({ length: rng.int(3) }, () => ({
        text: asciiWord(rng),
        indices: [rng.int(100), 100 + rng.int(40)],
      })),
      symbols: [] as unknown[],
      urls: Array.from({ length: rng.int(2) }, () => ({
        url: `https://t.example/${handle(rng)}`,
        expanded_url: `https://example.com/${handle(rng)}/${rng.int(1e6)}`,
        indices: [rng.int(100), 100 + rng.int(40)],
      })),
      user_mentions: Array.from({ length: rng.int(3) }, () => ({
        screen_name: handle(rng),
        name: sentence(rng, 2, 0.3, 0),
        id: rng.int(1e9),
        id_str: String(rng.int(1e9)),
        indices: [rng.int(100), rng.int(140)],
      })),
    },
    favorited: false,
    retweeted: false,
    lang: user.lang,
    metadata: { iso_language_code: user.lang, result_type: 'recent' },
  };
  // Optional fields: 20-40 keys per status.
  const optional: [string, () => unknown][] = [
    ['possibly_sensitive', () => rng.bool(0.1)],
    ['filter_level', () => 'low'],
    ['quote_count', () => rng.int(100)],
    ['reply_count', () => rng.int(100)],
    ['is_quote_status', () => rng.bool(0.1)],
    ['display_text_range', () => [0, rng.int(280)]],
    ['timestamp_ms', () => String(1763750400000 + rng.int(1e9))],
    ['withheld_in_countries', () => []],
    ['scopes', () => ({ followers: false })],
    ['edit_history_tweet_ids', () => [String(5e17 + rng.int(1e9))]],
    ['conversation_id', () => 5e17 + rng.int(1e9)],
    ['reply_settings', () => 'everyone'],
  ];
  for (const [key, make] of optional) if (rng.bool(0.5)) status[key] = make();
  return status;
}

/** An API response of nested objects, written pretty-printed (2-space indentation) as most tools emit it. */
function apiRecord(rng: Rng, id: number): Record<string, unknown> {
  return {
    id,
    uuid: `${rng.int(0xffffffff).toString(16).padStart(8, '0')}-${rng.int(0xffff).toString(16).padStart(4, '0')}-4${rng.int(0xfff).toString(16).padStart(3, '0')}-${rng.int(0xffffffff).toString(16).padStart(8, '0')}`,
    name: sentence(rng, 2, 0.05, 0),
    enabled: rng.bool(0.8),
    version: { major: rng.int(5), minor: rng.int(20), patch: rng.int(100) },
    owner: { id: rng.int(1e6), login: handle(rng), roles: ['read', 'write', 'admin'].slice(0, 1 + rng.int(3)) },
    limits: { cpu: rng.int(8) + 1, memoryMb: 256 * (1 + rng.int(16)), replicas: rng.int(10) },
    labels: Object.fromEntries(Array.from({ length: rng.int(4) }, () => [asciiWord(rng), asciiWord(rng)])),
    endpoints: Array.from({ length: 1 + rng.int(3) }, () => ({
      path: `/${asciiWord(rng)}/${asciiWord(rng)}`,
      method: rng.pick(['GET', 'POST', 'PUT']),
      timeoutMs: 100 * (1 + rng.int(50)),
    })),
    updatedAt: new Date(Date.UTC(2026, rng.int(12), 1 + rng.int(28))).toISOString(),
    score: Math.round(rng() * 1e4) / 100,
    note: rng.bool(0.3) ? sentence(rng, 6) : null,
  };
}

/** A mesh: flat float arrays (positions, normals, uvs) and small-int arrays (indices, colours). */
function mesh(rng: Rng, targetBytes: number): unknown {
  // About 12 compact-JSON bytes per float, 5 per index: per vertex ~ 8 floats + 3 indices + 3 colour bytes.
  const vertices = Math.max(1, Math.round(targetBytes / (8 * 12 + 3 * 5 + 3 * 4)));
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  const positions: number[] = [];
  const normals: number[] = [];
  const uvs: number[] = [];
  const indices: number[] = [];
  const colors: number[] = [];
  for (let v = 0; v < vertices; v++) {
    positions.push(round(rng() * 20 - 10), round(rng() * 20 - 10), round(rng() * 20 - 10));
    const nx = rng() - 0.5,
      ny = rng() - 0.5,
      nz = rng() - 0.5;
    const n = Math.hypot(nx, ny, nz) || 1;
    normals.push(round(nx / n), round(ny / n), round(nz / n));
    uvs.push(round(rng()), round(rng()));
    indices.push(rng.int(vertices), rng.int(vertices), rng.int(vertices));
    colors.push(rng.int(256), rng.int(256), rng.int(256));
  }
  return { name: 'mesh', primitive: 'triangles', vertexCount: vertices, positions, normals, uvs, indices, colors };
}

/** GeoJSON-like features: polygons as nested coordinate arrays, a few properties each. */
function geoFeature(rng: Rng, id: number): unknown {
  const cx = rng() * 360 - 180;
  const cy = rng() * 160 - 80;
  const ring = (points: number): number[][] => {
    const out: number[][] = [];
    for (let i = 0; i < points; i++) {
      const a = (i / points) * 2 * Math.PI;
      const r = 0.01 + rng() * 0.05;
      out.push([Math.round((cx + r * Math.cos(a)) * 1e7) / 1e7, Math.round((cy + r * Math.sin(a)) * 1e7) / 1e7]);
    }
    out.push(out[0].slice());
    return out;
  };
  const multi = rng.bool(0.3);
  return {
    type: 'Feature',
    id,
    properties: {
      name: sentence(rng, 2, 0.2, 0),
      population: rng.int(1e7),
      area_km2: Math.round(rng() * 1e5) / 10,
      admin_level: rng.int(10),
    },
    geometry: multi
      ? { type: 'MultiPolygon', coordinates: Array.from({ length: 2 + rng.int(3) }, () => [ring(8 + rng.int(40))]) }
      : { type: 'Polygon', coordinates: [ring(8 + rng.int(80))] },
  };
}

/** Text-heavy records: articles and comments, long unicode strings with line breaks and quotes. */
function article(rng: Rng, id: number): unknown {
  const paragraphs = Array.from({ length: 1 + rng.int(6) }, () => sentence(rng, 30 + rng.int(120), 0.1, 0.02));
  return {
    id,
    title: sentence(rng, 4 + rng.int(8), 0.15, 0.02),
    author: { name: sentence(rng, 2, 0.3, 0), handle: handle(rng) },
    published: new Date(Date.UTC(2026, rng.int(12), 1 + rng.int(28))).toISOString(),
    body: paragraphs.join('\n\n'),
    summary: sentence(rng, 20 + rng.int(30)),
    tags: Array.from({ length: rng.int(5) }, () => asciiWord(rng)),
    comments: Array.from({ length: rng.int(4) }, () => ({
      user: handle(rng),
      text: sentence(rng, 10 + rng.int(60), 0.15, 0.03),
    })),
  };
}

/**
 * JSON text with every non-ASCII character and `/` escaped (`\u00e9`, surrogate pairs as two
 * escapes, `\/`), as the Twitter API and Python's `ensure_ascii` write it.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]|\//g, (c) =>
    c === '/' ? '\\/' : '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

const compact = (value: unknown): string => JSON.stringify(value);

export const SHAPES: readonly Shape[] = [
  {
    id: 'tweets',
    title: 'Tweets (20-40 keys, unicode, escapes)',
    generate: (rng, target) => ({
      statuses: fill(
        target,
        (() => {
          let i = 0;
          return () => tweet(rng, i++);
        })(),
      ),
      search_metadata: { count: 100, max_id: 5e17, query: '%23wirescope' },
    }),
    jsonText: asciiJson,
  },
  {
    id: 'pretty',
    title: 'API records, pretty-printed JSON',
    generate: (rng, target) => ({
      kind: 'List',
      items: fill(
        target,
        (() => {
          let i = 0;
          return () => apiRecord(rng, i++);
        })(),
      ),
    }),
    jsonText: (v) => JSON.stringify(v, null, 2),
  },
  {
    id: 'mesh',
    title: 'Mesh (flat float and small-int arrays)',
    generate: (rng, target) => mesh(rng, target),
    jsonText: compact,
  },
  {
    id: 'geojson',
    title: 'GeoJSON (nested coordinate arrays)',
    generate: (rng, target) => ({
      type: 'FeatureCollection',
      features: fill(
        target,
        (() => {
          let i = 0;
          return () => geoFeature(rng, i++);
        })(),
      ),
    }),
    jsonText: compact,
  },
  {
    id: 'text',
    title: 'Text-heavy records',
    generate: (rng, target) =>
      fill(
        target,
        (() => {
          let i = 0;
          return () => article(rng, i++);
        })(),
      ),
    jsonText: compact,
  },
];

/**
 * A frame cut from the front of a document: the same structure, keeping keys and items in
 * order until about `budget` bytes of compact JSON (at least one item per container; long
 * strings shortened to fit). How a 100 B - 4 KB frame of each shape is made.
 */
export function cutToSize(value: unknown, budget: number): unknown {
  return cut(value, budget)[0];
}

function cut(value: unknown, budget: number): [unknown, number] {
  if (typeof value === 'string') {
    const s = value.length + 2 > budget ? value.slice(0, Math.max(4, budget - 2)) : value;
    return [s, JSON.stringify(s).length];
  }
  if (value === null || typeof value !== 'object') return [value, JSON.stringify(value).length];
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    let used = 2;
    for (const item of value) {
      if (out.length > 0 && used >= budget) break;
      const [c, size] = cut(item, Math.max(1, budget - used));
      out.push(c);
      used += size + 1;
    }
    return [out, used];
  }
  const out: Record<string, unknown> = {};
  let used = 2;
  let keys = 0;
  for (const [key, item] of Object.entries(value)) {
    if (keys > 0 && used >= budget) break;
    const [c, size] = cut(item, Math.max(1, budget - used - key.length - 3));
    out[key] = c;
    used += key.length + 3 + size + 1;
    keys++;
  }
  return [out, used];
}

/** Sizes of the benchmark: frames cut from the documents, and whole documents. */
export const FRAME_TARGETS = [100, 400, 1500, 3500];
export const DOCUMENT_TARGETS = [8 << 10, 64 << 10, 512 << 10, 3 << 20];

export interface ShapeValue {
  readonly shape: Shape;
  /** Target size in compact JSON bytes. */
  readonly target: number;
  readonly value: unknown;
}

/** Every shape at every size, from one seed. */
export function shapeValues(
  seed = 13,
  shapes: readonly Shape[] = SHAPES,
  documentTargets = DOCUMENT_TARGETS,
): ShapeValue[] {
  const out: ShapeValue[] = [];
  for (const shape of shapes) {
    const source = shape.generate(makeRng(seed), 16 << 10);
    for (const target of FRAME_TARGETS) out.push({ shape, target, value: cutToSize(source, target) });
    for (const target of documentTargets) out.push({ shape, target, value: shape.generate(makeRng(seed), target) });
  }
  return out;
}
