/** avsc's types-only entry (same Type class as the main entry; typed through 'avsc'). */
declare module 'avsc/etc/browser/avsc-types.js' {
  const types: unknown;
  export default types;
}
