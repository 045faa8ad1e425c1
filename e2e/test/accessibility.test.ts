import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openSession, VIEWPORTS } from './harness.js';
import { ADMIN_VISITS, demoSuite, PUBLIC_VISITS } from './routes.js';

/*
 * Every screen, public and back-office, at phone and desktop widths, checked by axe-core (the
 * engine Lighthouse's accessibility score runs, here on every page rather than on the two
 * that goal 8 measures) against WCAG 2.2 A and AA and axe's best practices: names that match
 * what is shown, roles their elements allow, lists, landmarks, contrast, labels. A screen
 * that breaks a rule fails with the rule, its elements and what to fix.
 */

const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const RULE_SETS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

const suite = demoSuite();

/** What axe finds on the page as it is now, one readable line per rule broken. */
async function violations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a <script>: the app's CSP allows its own scripts only.
  await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async (tags) => {
    const { axe } = window as unknown as {
      axe: { run: (options: unknown) => Promise<{ violations: Violation[] }> };
    };
    return (await axe.run({ runOnly: { type: 'tag', values: tags } })).violations;
  }, RULE_SETS);
  return found.map(
    (rule) =>
      `${rule.id} (${rule.impact ?? 'n/a'}): ${rule.help}\n` +
      rule.nodes
        .slice(0, 5)
        .map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`)
        .join('\n'),
  );
}

/** The page at `path` once it has drawn what its requests bring. */
async function visit(page: Page, path: string): Promise<void> {
  await page.goto(`${suite.server.url}${path}`);
  await page.waitForLoadState('networkidle');
  // The lists' last slices and the images' fade-in.
  await page.waitForTimeout(300);
}

describe('every screen passes axe', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    describe(name, () => {
      for (const [who, route] of [...PUBLIC_VISITS, ...ADMIN_VISITS]) {
        it(`${route} (${who})`, async () => {
          const { context, page } = await openSession(
            suite.browser,
            suite.server.url,
            suite.demo.tokenOf(who),
            {
              viewport,
            },
          );
          try {
            const path = suite.demo.pathOf(route);
            await visit(page, path);
            // The screen asked for, not a redirect to another one.
            expect(new URL(page.url()).pathname).toBe(path.split(/[?#]/)[0]);
            expect(await violations(page)).toEqual([]);
          } finally {
            await context.close();
          }
        });
      }
    });
  }

  it('with the search open over the home page', async () => {
    const { context, page } = await openSession(suite.browser, suite.server.url, null, {
      viewport: VIEWPORTS.phone,
    });
    try {
      await visit(page, '/');
      await page.getByRole('button', { name: 'Cerca', exact: true }).click();
      await page.getByPlaceholder('Cerca immagini, utenti, categorie...').fill('muro');
      await page.waitForLoadState('networkidle');
      // Contrast is measured on what is drawn: not halfway through a fade.
      await page.waitForTimeout(300);
      expect(await violations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("with the back-office's menu open on a phone", async () => {
    const { context, page } = await openSession(
      suite.browser,
      suite.server.url,
      suite.demo.tokenOf('administrator'),
      { viewport: VIEWPORTS.phone },
    );
    try {
      await visit(page, '/admin/dashboard');
      await page.getByRole('button', { name: 'Apri il menu' }).click();
      const nav = page.getByRole('navigation', { name: 'Amministrazione' });
      await nav.waitFor();
      // Slid in all the way, its backdrop faded in: contrast is measured on what is drawn.
      await expect.poll(async () => (await nav.boundingBox())?.x).toBe(0);
      await page.waitForTimeout(300);
      expect(await violations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
