/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error */
/**
 * n8n's editor in a real browser, as a user has it: Debian's Chromium (scripts/install-browser.sh)
 * driven by playwright-core, which never downloads a browser of its own. Signs in through the
 * sign-in form and opens workflows and nodes as a user does; `E2E_SCREENSHOTS=<folder>` keeps a
 * screenshot of what each test looked at, for a person to judge.
 */
import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';

import { type Browser, chromium, type Locator, type Page } from 'playwright-core';

import { type N8nInstance, OWNER } from './n8n';

export const CHROMIUM = process.env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium';

/** No sandbox (tests run as root in containers), no GPU, and nothing fetched from the network. */
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** Where screenshots go, when a person wants to look at them. */
const SCREENSHOTS = process.env.E2E_SCREENSHOTS?.trim();

/**
 * The few members of the page's DOM that code run in the page (`page.evaluate`) reads: the
 * project's TypeScript has no DOM library, whose `fetch` types would clash with Node's.
 */
export interface PageElement {
	readonly firstElementChild: PageElement | null;
	readonly clientHeight: number;
	readonly scrollHeight: number;
	readonly clientWidth: number;
	readonly scrollWidth: number;
	readonly textContent: string | null;
	readonly value?: string;
	closest(selectors: string): PageElement | null;
	getAttribute(name: string): string | null;
	querySelector(selectors: string): PageElement | null;
	getBoundingClientRect(): { left: number; top: number; right: number; bottom: number };
}
export interface PageWindow {
	document: {
		fonts: { ready: Promise<unknown> };
		querySelectorAll(selectors: string): ArrayLike<PageElement>;
	};
	getComputedStyle(element: PageElement): { overflow: string; paddingTop: string };
}

export interface Editor {
	page: Page;
	/** Opens a workflow's canvas and waits until its nodes are drawn, with n8n's fonts loaded. */
	openWorkflow(workflowId: string): Promise<void>;
	/** Opens a node of the workflow on the canvas (double click), and waits for its parameters. */
	openNode(workflowId: string, nodeName: string): Promise<Locator>;
	/** Closes the node's panel (the parameters typed in it stay in the workflow). */
	closeNode(): Promise<void>;
	/** Saves the workflow, as Ctrl+S does. */
	save(): Promise<void>;
	/** A screenshot named `name`, when E2E_SCREENSHOTS names a folder; of `target` or the page. */
	screenshot(name: string, target?: Locator): Promise<void>;
	close(): Promise<void>;
}

export function assertBrowserInstalled(): void {
	if (!existsSync(CHROMIUM)) {
		throw new Error(`Chromium is not installed at ${CHROMIUM}: run "bash scripts/install-browser.sh" first`);
	}
}

/** Chromium, signed in to `n8n` as its owner. */
export async function openEditor(n8n: N8nInstance): Promise<Editor> {
	assertBrowserInstalled();
	const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
	try {
		const page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, deviceScaleFactor: 2 });
		await page.goto(`${n8n.baseUrl}/signin`);
		await page.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(OWNER.email);
		await page.locator('input[type="password"]').first().fill(OWNER.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 120_000 });
		return editorOn(n8n, browser, page);
	} catch (error) {
		await browser.close();
		throw error;
	}
}

function editorOn(n8n: N8nInstance, browser: Browser, page: Page): Editor {
	const canvasNode = (name: string) => page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	const editor: Editor = {
		page,
		async openWorkflow(workflowId) {
			await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`);
			await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 120_000 });
			// A workflow another tab had open asks who edits it (n8n 2.x); this tab does.
			const editHere = page.getByRole('button', { name: 'Edit here' });
			if (await editHere.isVisible()) await editHere.click();
			await page.evaluate(async () => {
				await (globalThis as unknown as PageWindow).document.fonts.ready;
			});
		},
		async openNode(workflowId, nodeName) {
			await editor.openWorkflow(workflowId);
			await canvasNode(nodeName).dblclick();
			const panel = page.locator('[data-test-id="ndv"]');
			await panel.locator('[data-test-id="parameter-item"]').first().waitFor({ timeout: 60_000 });
			return panel;
		},
		async closeNode() {
			await page.keyboard.press('Escape');
			await page.locator('[data-test-id="ndv"]').waitFor({ state: 'hidden' });
		},
		async save() {
			await page.keyboard.press('ControlOrMeta+s');
		},
		async screenshot(name, target) {
			if (!SCREENSHOTS) return;
			mkdirSync(SCREENSHOTS, { recursive: true });
			const file = path.join(SCREENSHOTS, `${name.replace(/[^\w.-]+/g, '-')}.png`);
			await (target ?? page).screenshot({ path: file });
		},
		async close() {
			await browser.close();
		},
	};
	return editor;
}
