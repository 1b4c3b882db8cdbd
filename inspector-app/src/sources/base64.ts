// The capture formats live in codecs/ (the CLI reads them too); the app imports them from here.
export * from '../../../codecs/core/base64.js';
