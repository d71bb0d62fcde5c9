/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Finding a text in a PDF as Documenso does (`pdfDoc.findText` of @libpdf/core in
 * packages/lib/server-only/field/create-envelope-fields.ts and pdf/auto-place-fields.ts): each
 * match with its page and its box in points from the bottom left. The text comes from pdf.js
 * (devDependency pdfjs-dist) in a worker thread (pdfTextWorker.mjs); a match inside a longer run
 * of text gets its share of the run's width by characters, which is what a field's box needs.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface PdfTextItem {
	text: string;
	x: number;
	y: number;
	width: number;
	height: number;
}

export interface PdfPage {
	width: number;
	height: number;
	items: PdfTextItem[];
}

export interface TextMatch {
	text: string;
	/** From 0, as @libpdf/core counts pages. */
	pageIndex: number;
	bbox: { x: number; y: number; width: number; height: number };
}

let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<
	number,
	{ resolve: (pages: PdfPage[]) => void; reject: (error: Error) => void }
>();

function textWorker(): Worker {
	if (worker) return worker;
	const started = new Worker(path.join(__dirname, 'pdfTextWorker.mjs'));
	// Idle, it keeps no test or sandbox process alive.
	started.unref();
	started.on(
		'message',
		({ id, pages, error }: { id: number; pages?: PdfPage[]; error?: string }) => {
			const caller = waiting.get(id);
			waiting.delete(id);
			if (error !== undefined) caller?.reject(new Error(error));
			else caller?.resolve(pages ?? []);
		},
	);
	started.on('error', (error) => {
		for (const caller of waiting.values()) caller.reject(error);
		waiting.clear();
		worker = undefined;
	});
	worker = started;
	return started;
}

/** The pages of a PDF, with their text; a file pdf.js cannot read is an error. */
export async function readPdfText(pdf: Buffer): Promise<PdfPage[]> {
	const id = nextId++;
	const pages = new Promise<PdfPage[]>((resolve, reject) => waiting.set(id, { resolve, reject }));
	const started = textWorker();
	started.ref();
	try {
		started.postMessage({ id, pdf: new Uint8Array(pdf) });
		return await pages;
	} finally {
		if (waiting.size === 0) started.unref();
	}
}

/** Every occurrence of `search` (a text, or a pattern with the g flag), page by page, in reading order. */
export function findText(pages: PdfPage[], search: string | RegExp): TextMatch[] {
	const matches: TextMatch[] = [];
	pages.forEach((page, pageIndex) => {
		for (const item of page.items) {
			const pattern =
				typeof search === 'string'
					? new RegExp(search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g')
					: new RegExp(search.source, 'g');
			for (const found of item.text.matchAll(pattern)) {
				const share = item.width / Math.max(item.text.length, 1);
				matches.push({
					text: found[0],
					pageIndex,
					bbox: {
						x: item.x + share * (found.index ?? 0),
						y: item.y,
						width: share * found[0].length,
						height: item.height,
					},
				});
			}
		}
	});
	return matches;
}
