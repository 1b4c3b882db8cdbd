// Bundle entry for bin/wirescope.js.
export { main, nodeIo } from './main.js';
