/**
 * A bare CDP connection to a browser (no driver): requests, replies and events, nothing
 * enabled unless asked. The page-cost benchmark opens and closes pages with it without
 * attaching to them: an attached driver (Playwright enables the Network domain on every
 * page it knows) receives an event, with the payload, for every WebSocket frame the page
 * gets, which costs the browser and the driver more CPU than the page's own work and would
 * be measured with it. The pages report their results themselves (ext-bench-server.ts).
 */
import WebSocket from 'ws';

export interface CdpConnection {
  /** Sends a command (to a flattened session when `sessionId` is given) and resolves with its result. */
  send<T = any>(method: string, params?: object, sessionId?: string): Promise<T>;
  /** Calls `listener` with the params of every `method` event. */
  on(method: string, listener: (params: any) => void): void;
  /** Like `on`, with the session the event came from; `offSession` removes it. */
  onSession(method: string, listener: (params: any, sessionId?: string) => void): void;
  offSession(method: string, listener: (params: any, sessionId?: string) => void): void;
  close(): void;
}

export async function connectCdp(browserEndpoint: string): Promise<CdpConnection> {
  const socket = new WebSocket(browserEndpoint, { perMessageDeflate: false, maxPayload: 1 << 30 });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; method: string }>();
  const listeners = new Map<string, ((params: unknown, sessionId?: string) => void)[]>();
  socket.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString('utf8')) as {
      id?: number;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: { message: string };
      sessionId?: string;
    };
    if (m.method !== undefined) for (const l of listeners.get(m.method) ?? []) l(m.params, m.sessionId);
    const w = m.id !== undefined ? waiting.get(m.id) : undefined;
    if (!w) return;
    waiting.delete(m.id!);
    if (m.error) w.reject(new Error(`${w.method}: ${m.error.message}`));
    else w.resolve(m.result);
  });
  return {
    send: (method, params = {}, sessionId) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject, method });
        socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      }),
    on: (method, listener) => listeners.set(method, [...(listeners.get(method) ?? []), listener]),
    onSession: (method, listener) => listeners.set(method, [...(listeners.get(method) ?? []), listener]),
    offSession: (method, listener) =>
      listeners.set(
        method,
        (listeners.get(method) ?? []).filter((l) => l !== listener),
      ),
    close: () => socket.close(),
  };
}

/** Opening and closing pages in the browser's default context, unattached. */
export interface CdpTargets {
  open(url: string): Promise<string>;
  close(targetId: string): Promise<void>;
  /**
   * Names of the extension content-script worlds (isolated execution contexts) in the page:
   * attaches briefly (after the timed part), enables Runtime, reads the contexts, detaches.
   */
  contentScriptWorlds(targetId: string): Promise<string[]>;
  disconnect(): void;
}

export async function connectTargets(browserEndpoint: string): Promise<CdpTargets> {
  const cdp = await connectCdp(browserEndpoint);
  return {
    open: async (url) => (await cdp.send<{ targetId: string }>('Target.createTarget', { url })).targetId,
    close: async (targetId) => void (await cdp.send('Target.closeTarget', { targetId })),
    async contentScriptWorlds(targetId) {
      const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      const names: string[] = [];
      const onContext = (p: { context: { name: string; auxData?: { type?: string } } }, from?: string) => {
        if (from === sessionId && p.context.auxData?.type === 'isolated') names.push(p.context.name);
      };
      cdp.onSession('Runtime.executionContextCreated', onContext);
      try {
        await cdp.send('Runtime.enable', {}, sessionId); // reports every existing context before it answers
      } finally {
        cdp.offSession('Runtime.executionContextCreated', onContext);
        await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => {});
      }
      return names;
    },
    disconnect: () => cdp.close(),
  };
}
