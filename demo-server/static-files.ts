/**
 * Serves the built inspector app (dist/app) from one directory: `/` is index.html, every
 * other path is a file under the directory or a 404. A path that resolves outside the
 * directory (`/../package.json`, `/..%2fpackage.json`) is refused with 403 before the file
 * system is touched.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/** Where a request path points inside `rootDir`, or why it cannot be served. */
export function resolveStaticPath(rootDir: string, requestUrl: string): { file: string } | { status: 400 | 403 } {
  const pathname = requestUrl.split(/[?#]/, 1)[0];
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { status: 400 };
  }
  if (decoded.includes('\0')) return { status: 400 };
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const root = path.resolve(rootDir);
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep)) return { status: 403 };
  return { file };
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** Answers one HTTP request from `rootDir` (null: no app was built). */
export async function serveStatic(
  rootDir: string | null,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    return sendText(response, 405, 'method not allowed\n');
  }
  if (rootDir === null) return sendText(response, 404, 'the inspector app is not built: run npm run build:app\n');
  const target = resolveStaticPath(rootDir, request.url ?? '/');
  if ('status' in target)
    return sendText(response, target.status, target.status === 403 ? 'forbidden\n' : 'bad request\n');
  let size: number;
  try {
    const info = await stat(target.file);
    if (!info.isFile()) return sendText(response, 404, 'not found\n');
    size = info.size;
  } catch {
    return sendText(response, 404, 'not found\n');
  }
  response.writeHead(200, {
    'Content-Type': contentTypeOf(target.file),
    'Content-Length': size,
    // A dev server: always revalidate, so a rebuilt app shows up on reload.
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  const stream = createReadStream(target.file);
  stream.on('error', () => response.destroy());
  stream.pipe(response);
}
