/** The slice of jsdom the intercept bench uses (jsdom ships no types; @types/jsdom is not installed). */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html: string, options?: { url?: string });
    readonly window: Window;
  }
}
