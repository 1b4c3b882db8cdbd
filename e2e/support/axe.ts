/**
 * axe-core with every rule it has (WCAG 2.x A/AA and best practices, and the experimental
 * label-content-name-mismatch) on a page as it is. The script is evaluated, not added as a
 * <script>: extension pages' CSP allows no injected script element.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  readonly rule: string;
  readonly target: string;
  readonly summary: string;
  readonly html: string;
}

/** axe's violations (one per element) and how many elements its passing rules checked. */
export async function axeAudit(page: Page): Promise<{ violations: AxeFinding[]; checked: number }> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{
            violations: { id: string; nodes: { target: string[]; failureSummary?: string; html: string }[] }[];
            passes: { nodes: unknown[] }[];
          }>;
        };
      }
    ).axe;
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      // label-content-name-mismatch is experimental, so no tag runs it.
      rules: { 'label-content-name-mismatch': { enabled: true } },
      resultTypes: ['violations', 'passes'],
    });
    return {
      violations: r.violations.flatMap((v) =>
        v.nodes.map((n) => ({
          rule: v.id,
          target: n.target.join(' '),
          summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200),
          html: n.html.slice(0, 120),
        })),
      ),
      checked: r.passes.reduce((s, p) => s + p.nodes.length, 0),
    };
  });
}
