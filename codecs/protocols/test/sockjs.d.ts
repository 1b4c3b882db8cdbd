declare module 'sockjs';
