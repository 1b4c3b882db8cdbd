/**
 * The permessage-deflate parameters (RFC 7692 §7.1) of a negotiated
 * `Sec-WebSocket-Extensions` header, e.g.
 * `permessage-deflate; client_max_window_bits=15; server_no_context_takeover`.
 */
export interface DeflateParams {
  /** The client resets its compressor after every message. */
  readonly clientNoContextTakeover: boolean;
  readonly serverNoContextTakeover: boolean;
  /** LZ77 window of the client's compressor, 8..15 (15 when the header does not limit it). */
  readonly clientMaxWindowBits: number;
  readonly serverMaxWindowBits: number;
}

export const CONTEXT_TAKEOVER: DeflateParams = {
  clientNoContextTakeover: false,
  serverNoContextTakeover: false,
  clientMaxWindowBits: 15,
  serverMaxWindowBits: 15,
};
export const NO_CONTEXT_TAKEOVER: DeflateParams = {
  ...CONTEXT_TAKEOVER,
  clientNoContextTakeover: true,
  serverNoContextTakeover: true,
};

export type ParsedExtension =
  | { readonly ok: true; readonly params: DeflateParams }
  | { readonly ok: false; readonly error: string };

/**
 * Reads the first `permessage-deflate` offer of a header (the one a server accepts is
 * the only one in its response). Unknown parameters and bad window sizes are errors, as
 * RFC 7692 §7.1 asks of a client; a header without permessage-deflate is an error too.
 */
export function parseDeflateExtension(header: string): ParsedExtension {
  for (const extension of header.split(',')) {
    const [name, ...rawParams] = extension.split(';').map((s) => s.trim());
    if (name.toLowerCase() !== 'permessage-deflate') continue;
    const params = { ...CONTEXT_TAKEOVER };
    for (const raw of rawParams) {
      if (!raw) continue;
      const eq = raw.indexOf('=');
      const key = (eq < 0 ? raw : raw.slice(0, eq)).trim().toLowerCase();
      const value =
        eq < 0
          ? null
          : raw
              .slice(eq + 1)
              .trim()
              .replace(/^"(.*)"$/, '$1');
      if (key === 'client_no_context_takeover') params.clientNoContextTakeover = true;
      else if (key === 'server_no_context_takeover') params.serverNoContextTakeover = true;
      else if (key === 'client_max_window_bits' || key === 'server_max_window_bits') {
        // An offer may send client_max_window_bits without a value: the client allows any.
        if (value === null) continue;
        const bits = Number(value);
        if (!/^\d+$/.test(value) || bits < 8 || bits > 15)
          return { ok: false, error: `${key}=${value}: window bits must be 8 to 15` };
        if (key === 'client_max_window_bits') params.clientMaxWindowBits = bits;
        else params.serverMaxWindowBits = bits;
      } else return { ok: false, error: `unknown permessage-deflate parameter ${key}` };
    }
    return { ok: true, params };
  }
  return { ok: false, error: 'no permessage-deflate in the extension header' };
}

/** Whether a negotiated header names permessage-deflate at all ('' and other extensions do not: messages go uncompressed). */
export function negotiatesDeflate(header: string): boolean {
  return header.split(',').some((extension) => extension.split(';')[0].trim().toLowerCase() === 'permessage-deflate');
}
