import type { AppMessage, FrameActionKind, HostMessage } from './messages.js';

/**
 * The seam between the inspector app and its host: two methods over the typed message
 * maps in messages.ts. The app never calls chrome.* / browser.* / WebSocket directly;
 * hosts implement this (extension port, WebSocket client, HAR file, paste buffer, tests).
 */
export interface Transport {
  /** Subscribes to host messages; returns the unsubscribe function. */
  listen(handler: (message: HostMessage) => void): () => void;
  /** Sends a message to the host. Hosts without the matching capability ignore it. */
  send(message: AppMessage): void;
}

/** What a host can do; the UI shows only the controls its host supports. */
export interface HostCapabilities {
  /** Open ws:// / wss:// connections from the app (standalone inspector). */
  readonly connect: boolean;
  /** Send frames on a connection (standalone inspector). */
  readonly sendFrames: boolean;
  /** Import / export HAR and wirescope capture files. */
  readonly files: boolean;
  /** 'auto' follows prefers-color-scheme; the panel passes DevTools' theme. */
  readonly theme: 'light' | 'dark' | 'auto';
  /** Keep frames when the inspected page navigates (panel setting's initial value). */
  readonly keepOnNavigate?: boolean;
  /** The host can capture workers' sockets through the debugger (Chrome extension): show the toggle. */
  readonly debuggerCapture?: boolean;
  /** The host's name, shown in the status bar ('web', 'panel', 'paste'). */
  readonly hostName: string;
  /** Served by `wirescope proxy`: the ws:// address clients connect to (the empty list says so). */
  readonly proxyAddress?: string;
  /** What the host can do with a frame on the page (the extension panel: send and deliver); absent: none. */
  readonly frameActions?: readonly FrameActionKind[];
  /** The host can hold, drop and delay the page's frames by rules (the extension panel): show Intercept. */
  readonly intercept?: boolean;
  /** Absolute URL of the paste page, for "link to this frame" (absent where there is none, e.g. inside the extension). */
  readonly pastePageUrl?: string;
}

/** A transport whose host side is driven in-process: tests, the paste page, file imports. */
export class MemoryTransport implements Transport {
  private readonly handlers = new Set<(message: HostMessage) => void>();
  private readonly backlog: HostMessage[] = [];
  /** Messages the app sent, for hosts that poll (and for tests). */
  readonly sent: AppMessage[] = [];
  private readonly onSend: ((message: AppMessage) => void) | undefined;

  constructor(onSend?: (message: AppMessage) => void) {
    this.onSend = onSend;
  }

  listen(handler: (message: HostMessage) => void): () => void {
    this.handlers.add(handler);
    // Messages emitted before the app listened are delivered, in order, not lost.
    for (const m of this.backlog.splice(0)) handler(m);
    return () => this.handlers.delete(handler);
  }

  send(message: AppMessage): void {
    this.sent.push(message);
    this.onSend?.(message);
  }

  /** Host side: deliver a message to the app (buffered until someone listens). */
  emit(message: HostMessage): void {
    if (this.handlers.size === 0) {
      this.backlog.push(message);
      return;
    }
    for (const h of this.handlers) h(message);
  }
}
