/**
 * Whole-session comparison. Pure TypeScript except zlib-engine.ts (Node's
 * zlib; import it directly where Node runs) — it is not re-exported here so the worker
 * bundle never pulls `node:zlib`.
 *
 * - framing.ts            WebSocket frame header sizes
 * - extension-header.ts   permessage-deflate parameters of a negotiated header
 * - permessage-deflate.ts one raw-deflate stream per sender (fflate engine)
 * - deflate-size.ts       fflate's deflate sizes without writing (buffers kept)
 * - snappy-size.ts        snappyjs's compressed length without writing
 * - message-sizes.ts      what a message costs alone, once per distinct byte string
 * - session.ts            compareSession: per codec, connection and direction
 * - capture-input.ts      HAR / wirescope capture → session messages
 * - format.ts             text, Markdown, JSON
 */
export { frameHeaderSize, type Direction } from './framing.js';
export {
  CONTEXT_TAKEOVER,
  NO_CONTEXT_TAKEOVER,
  parseDeflateExtension,
  type DeflateParams,
  type ParsedExtension,
} from './extension-header.js';
export {
  createSender,
  fflateEngine,
  permessageDeflateSizes,
  PermessageDeflateSender,
  senderSettings,
  SYNC_FLUSH_TAIL,
  type DeflateEngine,
  type MessageDeflater,
} from './permessage-deflate.js';
export {
  compareSession,
  runSessionComparison,
  SESSION_CODECS,
  totalRow,
  WIRE_VARIANTS,
  type SessionMessage,
  type SessionOptions,
  type SessionProgress,
  type SessionRow,
  type WireSize,
  type WireVariant,
} from './session.js';
export { readCaptureSession, type CaptureConnection, type CaptureSession } from './capture-input.js';
export { formatSessionJson, formatSessionMarkdown, formatSessionText } from './format.js';
