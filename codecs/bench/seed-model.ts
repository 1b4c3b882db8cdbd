/** json-joy models of a seed payload, as json-joy's own encoding benchmarks build them. */
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';

export type SeedClock = 'logical' | 'server';

/**
 * `Model.create()` (a random session id unless `sid` is given) or `Model.withServerClock()`,
 * then `model.api.root(data)`.
 */
export function modelOf(data: unknown, clock: SeedClock, sid?: number): Model<any> {
  const model = clock === 'server' ? Model.withServerClock() : Model.create(undefined, sid);
  model.api.root(data);
  return model;
}
