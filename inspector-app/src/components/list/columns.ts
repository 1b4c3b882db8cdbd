import type { FrameSummary } from '../../worker/api.js';

/**
 * The frame list's columns: a short header title (what fits) and the full name (the
 * header's tooltip, as DevTools headers give). Widths live in list.css, where the narrow
 * layout hides the columns marked `narrowHidden` so the preview keeps room at the default
 * 400 px list width.
 */
export interface ListColumn {
  readonly id: string;
  readonly title: string;
  readonly fullName: string;
  readonly numeric?: boolean;
  /** Hidden when the list is narrow (its value stays in the row's tooltip). */
  readonly narrowHidden?: boolean;
  /** The header's title when the list is narrow, where `title` does not fit its column. */
  readonly narrowTitle?: string;
}

export const LIST_COLUMNS: readonly ListColumn[] = [
  { id: 'number', title: '#', fullName: 'Frame number', numeric: true },
  { id: 'time', title: 'time', fullName: 'Time received (local)', narrowHidden: true },
  {
    id: 'direction',
    title: '⇅',
    fullName: 'Direction: ↑ sent, ↓ received; ⇡ sent, ⇣ delivered to the page by wirescope',
  },
  { id: 'connection', title: 'conn', fullName: 'Connection', narrowHidden: true },
  { id: 'opcode', title: 'type', fullName: 'WebSocket frame type (text / binary)', narrowHidden: true },
  { id: 'size', title: 'size', fullName: 'Frame size', numeric: true },
  { id: 'format', title: 'format', fullName: 'Encoding the payload was read as' },
  {
    id: 'event',
    title: 'event / topic',
    narrowTitle: 'event',
    fullName: 'Event name, topic or channel (else the message type)',
  },
  { id: 'protocol', title: 'protocol', fullName: 'Framing protocol (Socket.IO, Phoenix, GraphQL-WS, MQTT, …)' },
  { id: 'preview', title: 'preview', fullName: 'Decoded value, one line' },
];

type Protocol = NonNullable<FrameSummary['protocol']>;

/**
 * What the event / topic column shows: the event or topic, else the message type. In
 * Phoenix and Pusher the message type is the application's event (`new_msg`), so it follows
 * the topic or channel.
 */
export function eventLabel(p: Protocol | undefined): string {
  if (!p) return '';
  if ((p.name === 'phoenix' || p.name === 'pusher') && p.event) return `${p.event} ${p.message}`;
  return p.event ?? p.message;
}

/** The event cell's tooltip: every part the recognizer read. */
export function protocolTitle(p: Protocol | undefined): string | undefined {
  if (!p) return undefined;
  return [p.name, p.message, p.event, p.id !== undefined ? `id ${p.id}` : undefined, p.quiet ? 'keep-alive' : undefined]
    .filter(Boolean)
    .join(' · ');
}

/**
 * A row whose protocol cell would say nothing new gives that cell's width to a neighbour
 * (list.css `data-merge`): with no protocol the format takes it (`crdt-patch` reads whole);
 * where the protocol is the format (MQTT, STOMP: `mqtt mqtt`; `socketio socket.io`) the topic takes it.
 * The protocol column comes after the event / topic column, so a topic or Socket.IO event
 * that takes its width still starts under the "event / topic" header.
 */
export function mergedColumn(row: Pick<FrameSummary, 'protocol' | 'format'>): 'format' | 'event' | undefined {
  if (!row.protocol) return 'format';
  const word = (s: string | null | undefined) => (s ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  return word(row.protocol.name) === word(row.format) ? 'event' : undefined;
}
