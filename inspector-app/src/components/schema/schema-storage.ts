/**
 * Where the loaded `.proto` files are kept between sessions: passed in, so the standalone
 * inspector and the extension panel use localStorage and tests use memory, without mocks.
 */
export interface ProtoSource {
  readonly name: string;
  readonly source: string;
}

export interface SchemaStorage {
  load(): ProtoSource[];
  save(files: readonly ProtoSource[]): void;
}

export const SCHEMA_STORAGE_KEY = 'wirescope.protobuf-schemas';

/** Files in a Web Storage (localStorage); a broken or missing entry reads as none, a full storage keeps the files for this session only. */
export function webStorageSchemas(
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  key = SCHEMA_STORAGE_KEY,
): SchemaStorage {
  return {
    load() {
      try {
        const parsed: unknown = JSON.parse(storage.getItem(key) ?? '[]');
        return Array.isArray(parsed)
          ? parsed.filter((f): f is ProtoSource => typeof f?.name === 'string' && typeof f?.source === 'string')
          : [];
      } catch {
        return [];
      }
    },
    save(files) {
      try {
        storage.setItem(key, JSON.stringify(files));
      } catch {
        // Quota exceeded or storage disabled: the schema still works until the page closes.
      }
    },
  };
}

export function memorySchemas(initial: readonly ProtoSource[] = []): SchemaStorage {
  let files = [...initial];
  return {
    load: () => [...files],
    save: (next) => {
      files = [...next];
    },
  };
}

/** localStorage when the page has it (not in some sandboxed frames), else memory. */
export function defaultSchemaStorage(): SchemaStorage {
  try {
    if (typeof localStorage !== 'undefined') return webStorageSchemas(localStorage);
  } catch {
    // Access to localStorage can throw (opaque origins).
  }
  return memorySchemas();
}
