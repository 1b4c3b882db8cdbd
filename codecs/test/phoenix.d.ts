// The phoenix client ships no types; the tests use its Socket as the real client.
declare module 'phoenix';
