/** The demo's `.proto` files (demo-server/protobuf) as the Schemas dialog's file input takes them. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROTO_FILE_NAMES } from '../../demo-server/streams/protobuf-schema.js';
import { REPO } from './env.js';

export const demoProtoFiles = (): { name: string; mimeType: string; buffer: Buffer }[] =>
  PROTO_FILE_NAMES.map((name) => ({
    name,
    mimeType: 'text/plain',
    buffer: readFileSync(path.join(REPO, 'demo-server/protobuf', name)),
  }));
