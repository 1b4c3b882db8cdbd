/**
 * Yjs and Automerge keep a document's content under a map at the root; json-joy's model root can
 * be any JSON value. For the seed benchmarks a payload becomes that root map as follows: a JSON
 * object's members are the root map's entries; any other payload (an array, a string, a number,
 * a boolean, null) is the root map's single entry `value`.
 */
export const ROOT_VALUE_KEY = 'value';

export type RootRecord = Readonly<Record<string, unknown>>;

const isJsonObject = (json: unknown): json is Record<string, unknown> =>
  json !== null && typeof json === 'object' && !Array.isArray(json);

/** The root map's entries for `json`: the object itself, or `{ value: json }` for anything else. */
export function rootRecordOf(json: unknown): RootRecord {
  return isJsonObject(json) ? json : { [ROOT_VALUE_KEY]: json };
}
