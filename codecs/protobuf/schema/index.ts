/** Protobuf with a schema: loading `.proto` sources, a walker per message type, ranking types by fit. */
export {
  loadSchema,
  loadSchemaLeavingOut,
  lookupMessage,
  type LoadedSchema,
  type ProtoFile,
  type SchemaLoad,
  type SkippedProtoFile,
} from './load.js';
export { schemaWalker, delimitedSchemaWalker, MAX_NESTING } from './walker.js';
export { schemaData, type SchemaData, type NodeField } from './data.js';
export { rankTypes, fitOf, describeFit, type TypeFit } from './rank.js';
