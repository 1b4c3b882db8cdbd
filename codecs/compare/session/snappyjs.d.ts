/** snappyjs ships no types: the two functions used here. */
declare module 'snappyjs' {
  export function compress(input: Uint8Array): Uint8Array;
  export function uncompress(input: Uint8Array, maxLength?: number): Uint8Array;
  const snappy: { compress: typeof compress; uncompress: typeof uncompress };
  export default snappy;
}
