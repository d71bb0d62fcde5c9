/**
 * Issue 42, Privacy: what a node throws while it runs as an agent's tool reaches the agent (n8n-core's
 * get-input-connection-data wraps it in a NodeOperationError and appends its description to its
 * message), so it follows Personal Data like the node's output; an ordinary node keeps its full
 * messages. Also: one pseudonym map per run of a node (Contact → Create Many, Get, Create), and a
 * remembered number never rewritten inside dates, IDs, URLs or other numbers.
 */
import type { IDataObject, INodeExecutionData, NodeError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Signing } from '../../nodes/Signing/Signing.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { redactRecords } from '../../nodes/shared/privacy';
import { textPdf } from '../sandbox/signingPdf';
import { executeContext, type Parameters } from './helpers/context';
import { documensoForEachTest } from './helpers/documenso';
import { formbricksForEachTest } from './helpers/formbricks';

jest.setTimeout(60_000);

const ADA = { name: 'Ada Lovelace', email: 'ada@example.org' };
const GRACE = { name: 'Grace Hopper', email: 'grace@example.org' };
/** Every personal value the errors below could carry, in any case. */
const PERSONAL = ['Ada', 'Lovelace', 'ada@example.org', 'Grace', 'Hopper', 'grace@example.org', 'alan@example.org', 'Turing'];

/** Everything of an error that n8n hands to an agent or shows: as n8n's tool wrapper builds it, and its fields. */
function agentView(error: unknown): string {
	const wrapped = new NodeOperationError({ name: 'Tool', type: 'tool', typeVersion: 1, position: [0, 0], parameters: {}, id: 'x' }, error as Error);
	const told = wrapped.description && !wrapped.message.includes(wrapped.description)
		? `${wrapped.message}\n\nDetails: ${wrapped.description}`
		: wrapped.message;
	const fields = error as NodeError & { errorResponse?: unknown };
	return [
		told,
		fields.stack,
		JSON.stringify({
			description: fields.description,
			messages: fields.messages,
			context: fields.context,
			errorResponse: fields.errorResponse,
			cause: fields.cause instanceof Error ? fields.cause.message : fields.cause,
		}),
	].join('\n');
}

/** The personal values a text holds as words (`adapters` in a stack trace is no `Ada`). */
const leaked = (text: string) =>
	PERSONAL.filter((value) => new RegExp(`(?<![\\p{L}\\d])${value.replace(/[.]/g, '\\.')}(?![\\p{L}\\d])`, 'iu').test(text));

async function thrown(run: () => Promise<unknown>): Promise<unknown> {
	try {
		await run();
	} catch (error) {
		return error;
	}
	throw new Error('expected the node to throw');
}

const PDF = textPdf([['Agreement', 'Resident: [[sign-ada]]', 'Programme: [[sign-grace]]']]);

describe('errors of the Signing node on Documenso, as a tool and as an ordinary node', () => {
	const documenso = documensoForEachTest();
	const node = new Signing();
	const run = async (parameters: Parameters, tool: boolean, extra: { continueOnFail?: boolean } = {}): Promise<IDataObject[]> => {
		const { context } = executeContext({
			parameters: { allowAsTool: true, ...parameters },
			binaries: [{ data: { data: PDF.toString('base64'), mimeType: 'application/pdf', fileName: 'agreement.pdf' } }],
			credentials: documenso.credentials(),
			node: tool ? { type: 'n8n-nodes-sign-survey-bookmark.signingTool' } : {},
			...extra,
		});
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	/** A draft for Ada and Grace; Grace has no signature field unless `withGrace`. */
	const draft = async (withGrace: boolean) =>
		(
			await run(
				{
					resource: 'document',
					operation: 'createFromFile',
					binaryPropertyName: 'data',
					title: 'Residency agreement – Ada Lovelace',
					uploadRecipients: { recipient: [{ ...ADA, role: 'SIGNER' }, { ...GRACE, role: 'SIGNER' }] },
					uploadFields: {
						field: [
							{ recipient: '1', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-ada]]' },
							...(withGrace ? [{ recipient: '2', type: 'SIGNATURE', placement: 'text', placeholder: '[[sign-grace]]' }] : []),
						],
					},
					distribute: false,
				},
				false,
			)
		)[0];

	const unknownRecipient = (documentId: string): Parameters => ({
		resource: 'field',
		operation: 'add',
		documentId,
		recipient: 'alan@example.org',
		type: 'SIGNATURE',
		placement: 'text',
		placeholder: '[[sign-ada]]',
	});

	it('Field → Add with an unknown recipient: an ordinary node lists the recipients; a tool names none of them', async () => {
		const document = await draft(true);
		const ordinary = agentView(await thrown(() => run(unknownRecipient(String(document.id)), false)));
		expect(leaked(ordinary)).toEqual(expect.arrayContaining(['ada@example.org', 'grace@example.org', 'alan@example.org']));

		const asTool = agentView(await thrown(() => run(unknownRecipient(String(document.id)), true)));
		expect(leaked(asTool)).toEqual([]);
		expect(asTool).toMatch(/Recipient: .* is not a recipient of document \d+/);
		expect(asTool).toMatch(/EMAIL_\d+/);
	});

	it('Send on a draft whose signer has no signature field: Documenso’s refusal names no one to a tool', async () => {
		const document = await draft(false);
		const send = { resource: 'document', operation: 'send', documentId: String(document.id) };
		const ordinary = agentView(await thrown(() => run(send, false)));
		expect(ordinary).toContain('The following recipients are missing required fields: Grace Hopper (grace@example.org');

		const asTool = agentView(await thrown(() => run(send, true)));
		expect(leaked(asTool)).toEqual([]);
		expect(asTool).toMatch(/The following recipients are missing required fields: NAME_\d+ \(EMAIL_\d+, id: \d+\)/);
	});

	it('Generate From Template that Documenso refuses to send: the draft’s title names no one to a tool', async () => {
		// Ada's slot has its signature field, Grace's none: Documenso's refusal names Grace, the title Ada.
		const template = await documenso.control<IDataObject>('/templates', 'POST', {
			title: 'Agreement with one signature field',
			recipients: [
				{ name: 'First', role: 'SIGNER' },
				{ name: 'Second', role: 'SIGNER', signatureField: false },
			],
		});
		const generate = {
			resource: 'document',
			operation: 'generateFromTemplate',
			templateId: { mode: 'id', value: String(template.id) },
			title: 'Agreement – Ada Lovelace',
			recipientsInput: 'json',
			recipientsJson: JSON.stringify([{ ...ADA, role: 'SIGNER' }, { ...GRACE, role: 'SIGNER' }]),
		};
		const asTool = agentView(await thrown(() => run(generate, true)));
		expect(asTool).toMatch(/it is kept as draft \d+ \("Agreement – NAME_\d+"\)/);
		expect(leaked(asTool)).toEqual([]);
	});

	it('Keep chosen on the tool keeps the message', async () => {
		const document = await draft(true);
		const kept = agentView(
			await thrown(() => run({ ...unknownRecipient(String(document.id)), options: { personalData: 'keep' } }, true)),
		);
		expect(kept).toContain('alan@example.org');
	});

	it('Omit turns what an error names into [removed]', async () => {
		const document = await draft(true);
		const omitted = agentView(
			await thrown(() => run({ ...unknownRecipient(String(document.id)), options: { personalData: 'omit' } }, true)),
		);
		expect(leaked(omitted)).toEqual([]);
		expect(omitted).toContain('[removed]');
	});
});

describe('one pseudonym map per run of a node', () => {
	const harness = formbricksForEachTest();
	const run = async (parameters: Parameters[]): Promise<IDataObject[]> => {
		const { context } = executeContext({
			parameters,
			items: parameters.map(() => ({})),
			credentials: harness().credentials(),
			node: { type: 'n8n-nodes-sign-survey-bookmark.surveyTool' },
		});
		return ((await new Survey().execute.call(context)) as INodeExecutionData[][])[0].map((item) => item.json);
	};
	it('with Continue On Fail, a tool’s error item is redacted too (the Survey node’s output is redacted operation by operation)', async () => {
		const { context } = executeContext({
			parameters: { resource: 'contact', operation: 'create', allowAsTool: true, email: 'Ada Lovelace <ada@example.org>' },
			credentials: harness().credentials(),
			node: { type: 'n8n-nodes-sign-survey-bookmark.surveyTool' },
			continueOnFail: true,
		});
		const [[item]] = (await new Survey().execute.call(context)) as INodeExecutionData[][];
		expect(item.json.error).toMatch(/^Email: "EMAIL_\d+" is not an e-mail address/);
		expect(leaked(JSON.stringify(item))).toEqual([]);
	});

	const emails = ['ada@example.org', 'grace@example.org', 'alan@example.org', 'ada@example.org'];

	it.each(['createMany', 'create'])('Contact → %s as a tool: three addresses are three pseudonyms, one address twice is one', async (operation) => {
		const parameters = emails.map((email) => ({ resource: 'contact', operation, allowAsTool: true, email }));
		const output = await run(operation === 'create' ? parameters.slice(0, 3) : parameters);
		const pseudonyms = output.map((item) => item.email ?? (item.attributes as IDataObject).email);
		expect(pseudonyms).toEqual(['EMAIL_1', 'EMAIL_2', 'EMAIL_3', 'EMAIL_1'].slice(0, output.length));
		expect(leaked(JSON.stringify(output))).toEqual([]);
		if (operation !== 'create') return;
		// Get of each, in one run: the same pseudonyms again, in the same order.
		const got = await run(output.map((item) => ({ resource: 'contact', operation: 'get', contactId: String(item.id) })));
		expect(got.map((item) => (item.attributes as IDataObject).email)).toEqual(['EMAIL_1', 'EMAIL_2', 'EMAIL_3']);
	});
});

describe('remembered values are replaced where they stand alone, never inside dates, IDs, URLs or numbers', () => {
	const contacts: IDataObject[] = [
		{
			id: 'clx2026abc',
			createdAt: '2026-11-28T10:43:05.699Z',
			attributes: { cohort: '2026', seats: '12', budgetCode: '1500', email: 'ada@example.org', badge: '2026-A' },
			note: 'Cohort 2026, 12 seats, 1500 EUR; see https://example.org/cohorts/2026?page=12 and record resp_2026_12.',
		},
		{
			id: 'c2026-12-1500',
			createdAt: '2026-12-01T09:00:00.000Z',
			updatedAt: '2027-01-12T15:00:12.000Z',
			attributes: { cohort: '2027', email: 'grace@example.org' },
			link: 'https://forms.example.org/s/2026/12?ref=1500',
		},
	];

	it.each(['redact', 'omit'] as const)('%s: timestamps, IDs, URLs and numbers stay as they were', (mode) => {
		const guide = {
			kindOf: (path: string[]) => (path.length === 2 && path[0] === 'attributes' ? ('PERSONAL' as const) : undefined),
		};
		const redacted = redactRecords(contacts, mode, { guide });
		for (const [index, contact] of contacts.entries()) {
			for (const field of ['id', 'createdAt', 'updatedAt', 'link'] as const) {
				expect({ index, field, value: redacted[index][field] }).toEqual({ index, field, value: contact[field] });
			}
		}
		// A bare year or number is nobody's details: the note keeps them, and the e-mail's attribute is replaced.
		expect(redacted[0].note).toBe(contacts[0].note);
		expect(JSON.stringify(redacted)).not.toMatch(/PERSONAL_\d+-|[-_/T]PERSONAL_|REMOVED\]-/);
		expect(leaked(JSON.stringify(redacted))).toEqual([]);
	});
});

describe('labelled names in running text (crawled pages and PDFs run sentences together)', () => {
	const redactText = (text: string) => redactRecords([{ content: text }], 'redact')[0].content;

	it.each([
		[
			'Minutes of the jury. Applicant: Ada Lovelace presented her notes, and Referee: Charles Babbage agreed.',
			'Minutes of the jury. Applicant: NAME_1 presented her notes, and Referee: NAME_2 agreed.',
		],
		['The file of Applicant: Ada K. Lovelace was read twice; Ada came back.', 'The file of Applicant: NAME_1 was read twice; NAME_1 came back.'],
		['Seen by our Candidate: Émilie du Châtelet at Cirey.', 'Seen by our Candidate: NAME_1 at Cirey.'],
	])('%s', (text, expected) => {
		expect(redactText(text)).toBe(expected);
	});

	it('finds an e-mail address percent-encoded in a request’s path, as an error’s description shows it', () => {
		expect(redactText('GET /api/v1/bookmarks/ada.lovelace%40example.org (NOT_FOUND); ask ada.lovelace@example.org')).toBe(
			'GET /api/v1/bookmarks/EMAIL_1 (NOT_FOUND); ask EMAIL_1',
		);
	});

	it('keeps labels that ask for nothing personal, times and URLs inside sentences', () => {
		const text = 'The deadline is near. Status: shortlisted at 10:30, see https://example.org/a and Project name: Sky.';
		expect(redactText(text)).toBe(text);
	});
});
