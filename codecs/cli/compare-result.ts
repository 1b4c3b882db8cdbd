/** What `wirescope compare` gives back (a leaf: both compare commands import it). */
export interface CompareResult {
  readonly stdout: string;
  readonly stderr: string;
  /** 0 compared, 1 the frame is malformed, 2 usage error. */
  readonly code: number;
  /** `--report`: the file to write and its text (main.ts writes it). */
  readonly report?: { readonly path: string; readonly text: string };
}
