/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 37: what a user types and sees in n8n's editor, in a real browser (Chromium, see
 * test/harness/browser.ts), with the package installed from its tarball into a real n8n.
 * `E2E_SCREENSHOTS=<folder>` keeps what each test looked at, for a person to judge.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { type Editor, openEditor, type PageElement, type PageWindow } from '../harness/browser';
import { PACKAGE_NAME } from '../harness/n8n';
import { PROJECT_ROOT } from '../harness/paths';
import { importWorkflow, type Stack, startStack, waitUntil, type WorkflowFile } from '../harness/provision';
import { SEED } from '../sandbox';
import { sandboxControl } from '../unit/helpers/sandbox';

jest.setTimeout(600_000);

interface StoredWorkflow {
	name: string;
	nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
	connections: unknown;
}

describe('n8n’s editor in a browser, as a user has it', () => {
	let stack: Stack;
	let editor: Editor;

	beforeAll(async () => {
		stack = await startStack();
		editor = await openEditor(stack.n8n);
	});
	afterAll(async () => {
		await editor?.close();
		await stack?.stop();
	});

	/** Manual Trigger → `node`, in a workflow set to Europe/Berlin. */
	const importManualFlow = async (name: string, node: WorkflowFile['nodes'][number]) =>
		await importWorkflow(
			stack.n8n,
			{
				name,
				nodes: [
					{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
					node,
				],
				connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
				settings: { executionOrder: 'v1', timezone: 'Europe/Berlin' },
			},
			stack.credentials,
		);
	const storedParameters = async (workflowId: string, nodeName: string) =>
		(await stack.n8n.api<StoredWorkflow>('GET', `/workflows/${workflowId}`)).nodes.find((node) => node.name === nodeName)!
			.parameters;

	describe('Survey → Response → Get Many: a date filter typed by hand', () => {
		const survey = () => sandboxControl(stack.sandbox, 'survey');
		const responses = {
			name: 'Responses',
			type: `${PACKAGE_NAME}.survey`,
			typeVersion: 2,
			position: [220, 0] as [number, number],
			parameters: {
				resource: 'response',
				operation: 'getMany',
				surveyId: { __rl: true, mode: 'id', value: SEED.residencySurveyId },
				returnAll: true,
			},
		};

		it.each([
			{ typed: '2026-02-30 00:00:00', refused: 'Created After: February 30, 2026 does not exist' },
			// November in Berlin is UTC+1: the day starts at 23:00 UTC the day before.
			{ typed: '2026-11-10', startDate: '2026-11-09T23:00:00.000Z' },
			{ typed: '2026-11-10 00:00:00+02:00', startDate: '2026-11-09T22:00:00.000Z' },
		])('"$typed" stays as typed and is read as written', async ({ typed, refused, startDate }) => {
			const workflow = await importManualFlow(`Date typed ${typed}`, {
				...responses,
				credentials: { surveyApi: stack.credentials.surveyApi },
			});
			const panel = await editor.openNode(workflow.id, 'Responses');
			await panel.getByPlaceholder('Add Filter').click();
			await editor.page.locator('.el-select-dropdown__item:visible', { hasText: 'Created After' }).click();
			const field = panel.locator('[data-test-id="parameter-input-createdAfter"]').locator('input, textarea').first();
			// Typed key by key as a person types. The editor takes a typed value into the workflow a moment
			// after the keys (debounced), and the first key adds the filter to the node, which re-renders
			// the field: on a busy machine the workflow can keep only that first key. So the text is typed
			// again until the workflow, saved, holds exactly what was typed (no picker rewrote it).
			let lastStored: unknown;
			let lastShown: string | undefined;
			let saves = 0;
			const typeIntoField = async () => {
				await field.click();
				await editor.page.keyboard.press('ControlOrMeta+a');
				await editor.page.keyboard.press('Backspace');
				await editor.page.keyboard.type(typed, { delay: 40 });
				lastShown = await field.inputValue().catch(() => undefined);
				await editor.page.keyboard.press('Tab');
			};
			await typeIntoField();
			await editor.screenshot(`date-filter-typed-${typed}`, panel);
			const stored = await waitUntil(`the workflow saved with "${typed}"`, async () => {
				await editor.save();
				const parameters = await storedParameters(workflow.id, 'Responses');
				lastStored = parameters.filters;
				if ((parameters.filters as { createdAfter?: string } | undefined)?.createdAfter === typed) return parameters;
				// Several saves give the editor its moment to take the keys in; then the text is typed again.
				if (++saves % 4 === 0) await typeIntoField();
				return undefined;
			}).catch((error: Error) => {
				throw new Error(`${error.message}; the workflow holds ${JSON.stringify(lastStored)}, the field shows "${String(lastShown)}"`);
			});
			expect(stored.filters).toEqual({ createdAfter: typed });

			await survey().clearRequests();
			await panel.locator('[data-test-id="node-execute-button"]').first().click();
			if (refused) {
				await panel.getByText(refused).first().waitFor({ timeout: 120_000 });
				expect(await survey().requests()).toEqual([]);
			} else {
				const [request] = await waitUntil('the Get Many request', async () => {
					const sent = (await survey().requests()).filter((r) => r.path.endsWith('/responses'));
					if (sent.length > 0) return sent;
					// A run that failed sends nothing: say what the editor shows rather than wait on.
					const error = panel.locator('[data-test-id="node-error-message"]');
					if (await error.isVisible()) throw new Error(`The step failed: ${await error.innerText()}`);
					return undefined;
				});
				expect(request.query).toMatchObject({ startDate, filterDateField: 'createdAt' });
			}
			await editor.screenshot(`date-filter-run-${typed}`, panel);
			await editor.closeNode();
		});
	});

	it('Generate From Template: the Template Slot left empty is a choice of its own, not an unsupported value', async () => {
		const workflow = await importManualFlow('Template slot', {
			name: 'Send Agreement',
			type: `${PACKAGE_NAME}.signing`,
			typeVersion: 2,
			position: [220, 0],
			parameters: {
				resource: 'document',
				operation: 'generateFromTemplate',
				templateId: { __rl: true, mode: 'id', value: SEED.residencyTemplateId },
				title: 'Residency agreement',
				recipientsInput: 'fields',
				recipients: { recipient: [{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' }] },
			},
			credentials: { signingApi: stack.credentials.signingApi },
		});
		const panel = await editor.openNode(workflow.id, 'Send Agreement');
		const slot = panel.locator('[data-test-id="parameter-input-slot"]');
		await slot.locator('input').first().click();
		const options = editor.page.locator('.el-select-dropdown__item:visible');
		await options.filter({ hasText: 'Director (Approver)' }).waitFor();
		await editor.screenshot('template-slot-options');
		const names = await options.evaluateAll((items: PageElement[]) => items.map((item) => item.querySelector('.option-headline')?.textContent?.trim()));
		// The README's example of a slot is one of these.
		expect(names).toEqual(['First Free Slot of the Role Below', 'Applicant (Signer)', 'Director (Approver)']);

		await panel.getByText('Template Slot Name or ID').click();
		await options.first().waitFor({ state: 'hidden' });
		expect(await slot.evaluate((element: PageElement) => element.querySelector('input')?.value || element.textContent?.trim())).toBe(
			'First Free Slot of the Role Below',
		);
		expect(await panel.locator('[data-test-id="parameter-issues"]').count()).toBe(0);
		await editor.screenshot('template-slot-left-empty', panel);
		await editor.closeNode();
	});

	/**
	 * Every sticky note of every sample is sized to its text: its box (n8n's sticky hides what does
	 * not fit) holds the text as n8n lays it out, in n8n's fonts, at the note's width, with room
	 * below it as above it, no more than a few lines of empty room, and no node drawn over it.
	 */
	it('every sample’s sticky notes are sized to their text', async () => {
		/**
		 * Empty room below the text beyond its padding. The notes are sized for n8n 1.x, which spaces
		 * paragraphs wider than 2.x (up to about 60 px more for a long note); heights go by n8n's 20 px grid.
		 */
		const MAX_SPARE_PX = 100;
		const folders = [path.join(PROJECT_ROOT, 'workflows'), path.join(PROJECT_ROOT, 'workflows', 'queue')];
		const files = folders.flatMap((folder) =>
			readdirSync(folder)
				.filter((file) => file.endsWith('.json'))
				.map((file) => path.join(folder, file)),
		);
		const misfits: string[] = [];
		let measured = 0;
		for (const file of files) {
			const sample = JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile;
			const notes = sample.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
			// Only the canvas is looked at: the nodes' credentials do not matter here.
			const nodes = sample.nodes.map((node) => ({ ...node, credentials: undefined }));
			const { id } = await importWorkflow(stack.n8n, { ...sample, nodes }, {});
			await editor.openWorkflow(id);
			const { boxes, covered } = await editor.page.evaluate(async () => {
				const page = globalThis as unknown as PageWindow;
				await page.document.fonts.ready;
				const nameOf = (element: PageElement) => element.closest('[data-node-name]')?.getAttribute('data-node-name') ?? '?';
				const stickies = Array.from(page.document.querySelectorAll('[data-test-id="sticky"]'));
				// A node drawn over a note hides its text (the canvas draws notes underneath).
				const overlaps = (a: PageElement, b: PageElement) => {
					const [r, s] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
					return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
				};
				const nodes = Array.from(page.document.querySelectorAll('[data-test-id="canvas-node"]')).filter(
					(node) => node.getAttribute('data-node-type') !== 'n8n-nodes-base.stickyNote',
				);
				const covered = stickies.flatMap((sticky) =>
					nodes.filter((node) => overlaps(sticky, node)).map((node) => `${nameOf(sticky)} lies under the node ${nameOf(node)}`),
				);
				const boxes = stickies.map((sticky) => {
					// The sticky's first child is the box that hides what overflows it; its first child the text.
					const box = sticky.firstElementChild!;
					// n8n pads the text at the top (8 px) and not at the bottom.
					const paddingTop = Number.parseFloat(page.getComputedStyle(box).paddingTop);
					return {
						name: nameOf(sticky),
						overflow: page.getComputedStyle(box).overflow,
						height: box.clientHeight,
						// Down to the end of the text, and as much room below it as above it.
						needed: 2 * paddingTop + (box.firstElementChild?.scrollHeight ?? 0),
						width: box.clientWidth,
						textWidth: box.scrollWidth,
					};
				});
				return { boxes, covered };
			});
			misfits.push(...covered.map((overlap) => `${path.relative(PROJECT_ROOT, file)} › ${overlap}`));
			expect(boxes.map((box) => box.name).sort()).toEqual(notes.map((note) => note.name).sort());
			for (const box of boxes) {
				measured++;
				expect(box.overflow).toBe('hidden');
				const where = `${path.relative(PROJECT_ROOT, file)} › ${box.name}: the text needs ${box.needed} px`;
				if (box.needed > box.height) misfits.push(`${where}, the box is ${box.height} px high: cut off`);
				if (box.height - box.needed > MAX_SPARE_PX) misfits.push(`${where}, the box is ${box.height} px high: empty below`);
				if (box.textWidth > box.width) misfits.push(`${where}: a word ${box.textWidth} px wide, the box ${box.width} px`);
				await editor.screenshot(
					`sticky-${path.basename(file, '.json')}${file.includes('queue') ? '-queue' : ''}-${box.name}`,
					editor.page.locator(`[data-node-name="${box.name}"] [data-test-id="sticky"]`),
				);
			}
			await editor.screenshot(`sticky-notes-${path.basename(file, '.json')}${file.includes('queue') ? '-queue' : ''}`);
		}
		expect(measured).toBeGreaterThan(files.length);
		expect(misfits).toEqual([]);
	});
});
