import type { FromWorker, ToWorker } from './api.js';
import { WorkerClient } from './client.js';
import { createDispatcher } from './dispatcher.js';

/**
 * A WorkerClient whose "worker" runs in this thread, behind the same asynchronous message
 * boundary (structured clone included): component tests and Node scripts use it.
 */
export function inProcessWorker(): WorkerClient {
  const fake = {
    onmessage: null as ((e: MessageEvent<FromWorker>) => void) | null,
    onerror: null as unknown,
    postMessage(message: ToWorker) {
      const copy = structuredClone(message);
      setTimeout(() => dispatch(copy), 0);
    },
    terminate() {},
  };
  const dispatch = createDispatcher((message) => {
    const copy = structuredClone(message);
    setTimeout(() => fake.onmessage?.({ data: copy } as MessageEvent<FromWorker>), 0);
  });
  return new WorkerClient(fake as unknown as Worker);
}
