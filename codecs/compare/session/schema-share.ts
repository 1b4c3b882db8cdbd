/**
 * A schema codec's schema size and its share per message, as every view prints it: no share
 * when the codec encoded no message (nothing to spread the schema over), and a
 * small share with two significant digits — 433 B over 10,000 messages is 0.043 B/message,
 * which one decimal printed as "0.0".
 */
import type { SchemaSize } from './session.js';

/** Bytes per message: one decimal from 10 up, else two significant digits (6.6, 0.043). */
export function perMessageFigure(n: number): string {
  return n >= 10 ? n.toFixed(1) : n.toPrecision(2);
}

/** `size` is the schema's bytes as the view writes them ("433 B", "433"); `unit` follows the share ("B" or ""). */
export function schemaShareText(schema: SchemaSize, size: string, unit: string): string {
  if (schema.messages === 0) return `${size} (no message encoded)`;
  return `${size} (${perMessageFigure(schema.perMessage)}${unit ? ` ${unit}` : ''}/message)`;
}
