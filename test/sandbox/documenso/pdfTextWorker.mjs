/**
 * The text of a PDF with where each piece is, read with pdf.js (pdfjs-dist) outside the test
 * runner's module system: pdf.js is an ES module only, which Jest's CommonJS runtime cannot load.
 * Messages: `{ id, pdf: Uint8Array }` in; `{ id, pages: [{ width, height, items: [{ text, x, y,
 * width, height }] }] }` or `{ id, error }` out, coordinates in points from the bottom left.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';

import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const require = createRequire(import.meta.url);
const standardFontDataUrl = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

parentPort.on('message', async ({ id, pdf }) => {
	try {
		const document = await getDocument({ data: pdf, standardFontDataUrl, isEvalSupported: false, verbosity: 0 }).promise;
		const pages = [];
		for (let number = 1; number <= document.numPages; number++) {
			const page = await document.getPage(number);
			const { width, height } = page.getViewport({ scale: 1 });
			const content = await page.getTextContent();
			pages.push({
				width,
				height,
				items: content.items
					.filter((item) => typeof item.str === 'string' && item.str !== '')
					.map((item) => ({ text: item.str, x: item.transform[4], y: item.transform[5], width: item.width, height: item.height })),
			});
		}
		await document.destroy();
		parentPort.postMessage({ id, pages });
	} catch (error) {
		parentPort.postMessage({ id, error: String(error?.message ?? error) });
	}
});
