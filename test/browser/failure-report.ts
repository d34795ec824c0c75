import { beforeEach } from 'vitest';
import { launchedBrowsers } from './harness.js';

/**
 * When a console test fails, what each open page shows is printed: a run's output is often all
 * that is left of a failure that does not come back (an error the console shows by its code and
 * message, a list still loading).
 */
beforeEach(({ onTestFailed }) => {
  onTestFailed(async () => {
    for (const browser of launchedBrowsers) {
      for (const context of browser.contexts()) {
        for (const page of context.pages()) {
          const text = await page
            .locator('body')
            .innerText({ timeout: 2000 })
            .catch((error: Error) => `(not readable: ${error.message})`);
          process.stderr.write(`\n--- the page at the failure: ${page.url()}\n${text.slice(0, 4000)}\n---\n`);
        }
      }
    }
  });
});
