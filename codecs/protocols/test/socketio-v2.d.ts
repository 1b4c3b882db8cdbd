// socket.io 2.x ships no types (its @types package is not installed); the rig uses it untyped.
declare module 'socket.io-v2';
declare module 'socket.io-client-v2';
