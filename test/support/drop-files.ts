/** Dropping real files on the app's Upload area, the way a file manager does. */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Page } from 'playwright-core';

/** A drop event with a DataTransfer holding the files, on the drop zone. */
export async function dropFiles(page: Page, paths: string[]): Promise<void> {
  const files = paths.map((p) => ({
    name: basename(p),
    base64: readFileSync(p).toString('base64'),
  }));
  // The test files have no DOM types: the page-side code goes over as source text.
  const transfer = await page.evaluateHandle(`(() => {
    const data = new DataTransfer();
    for (const f of ${JSON.stringify(files)}) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], f.name));
    }
    return data;
  })()`);
  const zone = page.getByTestId('drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
  await zone.dispatchEvent('dragover', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}
