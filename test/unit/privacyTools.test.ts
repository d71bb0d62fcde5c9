import type { IDataObject, INodeExecutionData, INodeType } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { type Sandbox, startSandbox } from '../sandbox';
import { type ReceivedDelivery, type Receiver, settledDeliveries, startReceiver } from '../sandbox/testkit';
import { executeContext, type Parameters } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';
import { pollBookmarks, signingTriggerItems } from './helpers/triggerRuns';
import { HEADLINE_SURVEYS, leakedHeadlineValues } from './fixtures/privacyCorpusHeadlines';
import {
	APPLICANT,
	APPROVER,
	BOOKMARK_CORPUS_VALUES,
	BOOKMARK_CREATE_CALLS,
	bookmarkToolCalls,
	fileBookmarkCorpus,
	type FiledBookmarkCorpus,
	onFirstRecord,
	DOCUMENT_TITLE,
	EMAIL_OPTIONS,
	LIST,
	leakedToolValues,
	PREFILL,
	PRIVACY_TEMPLATE,
	REJECTION_REASON,
	TOOL_PERSONAL_VALUES,
	USER_AGENT,
} from './fixtures/privacyCorpusTools';

jest.setTimeout(60_000);

/*
 * Issue 23 §1: every operation of the three nodes, run as an agent's tool with the defaults,
 * returns none of the corpus' personal values, and what is no one's details comes through.
 * Issue 32, item 4: the same corpus through the Signing Trigger (the events the service delivered
 * for it) and the polling Bookmarks Trigger, with Personal Data set to Redact and to Omit.
 */

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const TOOL = (node: string) => `n8n-nodes-sign-survey-bookmark.${node}Tool`;

describe.each([1, 2])('version %i: every operation run as a tool keeps the corpus’ personal data out of its output', (typeVersion) => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		// The corpus alone: no demo data beside it.
		sandbox = await startSandbox({ rateLimits: { survey: null }, seed: false });
	});
	afterAll(async () => await sandbox?.stop());

	const credentials = () => ({
		signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey },
		bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey },
		surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey },
	});
	const runner =
		(node: INodeType, name: string) =>
		async (parameters: Parameters, asTool = true): Promise<IDataObject[]> => {
			const { context } = executeContext({
				parameters,
				credentials: credentials(),
				node: { typeVersion, ...(asTool ? { type: TOOL(name) } : {}) },
			});
			const [output] = (await node.execute!.call(context)) as INodeExecutionData[][];
		return output.map((item) => item.json);
		};

	describe('Signing', () => {
		const run = runner(new Signing(), 'signing');
		const control = () => sandboxControl(sandbox, 'signing');
		const documents: Record<'pending' | 'draft' | 'toCancel' | 'completed' | 'rejected', string> = {
			pending: '',
			draft: '',
			toCancel: '',
			completed: '',
			rejected: '',
		};
		const generate = (extra: Parameters = {}): Parameters => ({
			resource: 'document',
			operation: 'generateFromTemplate',
			templateId: byId(PRIVACY_TEMPLATE.id),
			title: DOCUMENT_TITLE,
			recipientsInput: 'json',
			recipientsJson: [APPLICANT, APPROVER],
			prefillInput: 'json',
			prefillFieldsJson: PREFILL,
			emailOptions: EMAIL_OPTIONS,
			...extra,
		});
		const newDocument = async (extra: Parameters = {}) =>
			String((await run(generate(extra), false))[0].documentId);
		/** An endpoint in the service's administrator panel: every event of the corpus' documents arrives here. */
		let receiver: Receiver;

		beforeAll(async () => {
			receiver = await startReceiver();
			await control().call('POST', '/webhook-endpoints', { url: receiver.url });
			await control().call('POST', '/templates', PRIVACY_TEMPLATE);
			for (const key of ['pending', 'toCancel', 'completed', 'rejected'] as const) {
				documents[key] = await newDocument();
			}
			documents.draft = await newDocument({ distribute: false });
			// The applicant opens the link from a browser: the audit log keeps its IP address and user agent.
			await fetch(`${sandbox.signing.url}/_sandbox/documents/${documents.pending}/open`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
				body: JSON.stringify({ email: APPLICANT.email }),
			});
			await control().call('POST', `/documents/${documents.completed}/complete`, {});
			await control().call('POST', `/documents/${documents.rejected}/reject`, {
				email: APPROVER.email,
				reason: REJECTION_REASON,
			});
		});

		const document = (operation: string, documentId: string, extra: Parameters = {}) => ({
			resource: 'document',
			operation,
			documentId,
			...extra,
		});

		it('holds every listed value: an ordinary node returns them', async () => {
			const outputs = [
				...(await run(document('get', documents.pending, { simplify: false }), false)),
				...(await run(document('get', documents.rejected, { simplify: false }), false)),
				...(await run(document('getAuditLog', documents.pending), false)),
			];
			const signingValues = TOOL_PERSONAL_VALUES.filter((value) =>
				JSON.stringify([APPLICANT, APPROVER, DOCUMENT_TITLE, PREFILL, EMAIL_OPTIONS, REJECTION_REASON, USER_AGENT]).includes(value),
			);
			expect(leakedToolValues(outputs)).toEqual(signingValues);
		});

		afterAll(async () => await receiver?.close());

		describe('the Signing Trigger, fed the events the service delivered for the corpus', () => {
			let deliveries: ReceivedDelivery[] = [];
			const signingValues = TOOL_PERSONAL_VALUES.filter((value) =>
				JSON.stringify([APPLICANT, APPROVER, DOCUMENT_TITLE, PREFILL, EMAIL_OPTIONS, REJECTION_REASON]).includes(value),
			);
			const withCredential = () => ({ signingApi: credentials().signingApi });
			const items = async (options: IDataObject, simplify: boolean, credential = true) =>
				await signingTriggerItems(deliveries, {
					typeVersion,
					options,
					parameters: { simplify },
					...(credential ? { credentials: withCredential() } : {}),
				});

			beforeAll(async () => {
				// Created, sent, opened, signed by both, completed, rejected: every attempt has ended.
				const log = await settledDeliveries(sandbox.signing.url);
				deliveries = [...(await receiver.waitFor(log.length))];
				expect(new Set(deliveries.map((delivery) => delivery.body.event))).toEqual(
					new Set(['document.created', 'document.sent', 'document.opened', 'document.signed', 'document.completed', 'document.rejected']),
				);
			});

			it('holds every listed value: without Personal Data (Keep, a trigger’s default) the items carry them all', async () => {
				const kept = await items({}, false);
				expect(kept).toHaveLength(deliveries.length);
				expect(leakedToolValues(kept)).toEqual(signingValues);
			});

			it.each([
				['redact', true],
				['redact', false],
				['omit', true],
				['omit', false],
			])('Personal Data %s (Simplify %s): 0 personal values in any event; titles, dates and amounts kept', async (personalData, simplify) => {
				const output = await items({ personalData }, simplify as boolean);
				expect(output).toHaveLength(deliveries.length);
				expect(leakedToolValues(output)).toEqual([]);
				const text = JSON.stringify(output);
				expect(text).toContain('Residency agreement – ');
				if (typeVersion === 1 || !simplify) {
					// The prefilled values whose labels ask for nothing personal.
					expect(text).toContain('"value":"2027-01-04"');
					expect(text).toContain('"value":"1500"');
				}
			});

			it('Redact: recipients, the rejection reason and the address prefilled as pseudonyms, by the rule of the Signing node', async () => {
				const output = await items({ personalData: 'redact' }, false);
				const rejected = output.find((item) => item.event === 'document.rejected')!;
				expect(rejected.rejectionReason).toMatch(/^I, NAME_\d+, decline: write to EMAIL_\d+ or call PHONE_\d+\.$/);
				const document = rejected.document as IDataObject;
				expect(document.title).toMatch(/^Residency agreement – NAME_\d+$/);
				expect((document.recipients as IDataObject[]).map((recipient) => [recipient.name, recipient.email])).toEqual([
					[expect.stringMatching(/^NAME_\d+$/), expect.stringMatching(/^EMAIL_\d+$/)],
					[expect.stringMatching(/^NAME_\d+$/), expect.stringMatching(/^EMAIL_\d+$/)],
				]);
				expect(document.prefillFields).toEqual([
					{ id: 'fld_privacy_address', value: expect.stringMatching(/^ADDRESS_\d+$/) },
					{ id: 'fld_privacy_start', value: '2027-01-04' },
					{ id: 'fld_privacy_stipend', value: '1500' },
				]);
				expect((document.meta as IDataObject).message).toMatch(/^Dear NAME_\d+, call PHONE_\d+ with any question\.$/);
			});

			it('without a credential the template’s labels cannot be read: every prefilled value is taken for personal data', async () => {
				const output = await items({ personalData: 'redact' }, false, false);
				expect(leakedToolValues(output)).toEqual([]);
				const created = output.find((item) => item.event === 'document.created')!;
				expect(((created.document as IDataObject).prefillFields as IDataObject[]).map((field) => field.value)).toEqual([
					expect.stringMatching(/^PERSONAL_\d+$/),
					expect.stringMatching(/^PERSONAL_\d+$/),
					expect.stringMatching(/^PERSONAL_\d+$/),
				]);
			});
		});

		it.each([
			['Template → Get Many', { resource: 'template', operation: 'getMany', returnAll: true }],
			['Template → Get', { resource: 'template', operation: 'get', templateId: byId(PRIVACY_TEMPLATE.id) }],
			['Document → Get Many', { resource: 'document', operation: 'getMany', returnAll: true }],
		])('%s', async (_name, parameters) => {
			const output = await run(parameters as Parameters);
			expect(output.length).toBeGreaterThan(0);
			expect(leakedToolValues(output)).toEqual([]);
			if (parameters.resource === 'template') {
				const template = output.find((entry) => entry.id === PRIVACY_TEMPLATE.id)!;
				expect(template.title).toBe(PRIVACY_TEMPLATE.title);
				expect((template.fields as IDataObject[]).map((field) => field.label)).toEqual(
					PRIVACY_TEMPLATE.fields.map((field) => field.label),
				);
			}
		});

		it('Document → Get: recipients, title, e-mail message and the address prefilled are redacted; the rest is kept', async () => {
			// The record as the service gives it (version 2 simplifies by default, without prefilled fields).
			const [got] = await run(document('get', documents.pending, { simplify: false }));
			expect(leakedToolValues(got)).toEqual([]);
			const recipients = got.recipients as IDataObject[];
			expect(recipients.map((recipient) => [recipient.role, recipient.name, recipient.email])).toEqual([
				['SIGNER', 'NAME_1', 'EMAIL_1'],
				['APPROVER', 'NAME_2', 'EMAIL_2'],
			]);
			expect(got.title).toBe('Residency agreement – NAME_1');
			expect(got).toMatchObject({ id: documents.pending, status: 'PENDING', templateId: PRIVACY_TEMPLATE.id });
			expect(got.prefillFields).toEqual([
				{ id: 'fld_privacy_address', value: expect.stringMatching(/^ADDRESS_\d+$/) },
				{ id: 'fld_privacy_start', value: '2027-01-04' },
				{ id: 'fld_privacy_stipend', value: '1500' },
			]);
		});

		it('Document → Get of a rejected document: the rejection reason is scanned', async () => {
			const [got] = await run(document('get', documents.rejected));
			expect(leakedToolValues(got)).toEqual([]);
			const reason = (got.recipients as IDataObject[])[1].rejectionReason;
			expect(reason).toMatch(/^I, NAME_\d+, decline: write to EMAIL_\d+ or call PHONE_\d+\.$/);
		});

		it.each(['perEvent', 'single'])('Document → Get Audit Log (%s)', async (auditOutput) => {
			const output = await run(document('getAuditLog', documents.pending, { auditOutput }));
			expect(leakedToolValues(output)).toEqual([]);
			const events = auditOutput === 'single' ? (output[0].events as IDataObject[]) : output;
			const opened = events.find((event) => event.type === 'DOCUMENT_OPENED')!;
			expect(opened.email).toMatch(/^EMAIL_\d+$/);
			expect(opened.ipAddress).toMatch(/^IP_\d+$/);
			expect(opened.userAgent).toMatch(/^DEVICE_\d+$/);
			expect(events.map((event) => event.type)).toEqual(
				expect.arrayContaining(['DOCUMENT_CREATED', 'DOCUMENT_SENT', 'DOCUMENT_OPENED']),
			);
		});

		it('Document → Download: the file’s name and title without the recipient’s name', async () => {
			const [metadata] = await run(document('download', documents.completed));
			expect(leakedToolValues(metadata)).toEqual([]);
			expect(metadata).toMatchObject({ fileName: 'Residency agreement – NAME_1.pdf', status: 'COMPLETED' });
		});

		it('Generate From Template, with the author’s consent', async () => {
			const [created] = await run(generate({ allowAsTool: true }));
			expect(leakedToolValues(created)).toEqual([]);
			expect(created).toMatchObject({ status: 'PENDING', title: 'Residency agreement – NAME_1' });
		});

		it('Send, Resend and Cancel, with the author’s consent', async () => {
			const outputs = [
				...(await run(document('send', documents.draft, { allowAsTool: true }))),
				...(await run(document('resend', documents.pending, { allowAsTool: true }))),
				...(await run(document('cancel', documents.toCancel, { allowAsTool: true }))),
			];
			expect(leakedToolValues(outputs)).toEqual([]);
			expect(outputs.map((output) => output.status ?? 'resent')).toEqual(['PENDING', 'resent', 'CANCELLED']);
		});
	});

	describe('Bookmarks', () => {
		const run = runner(new Bookmarks(), 'bookmarks');
		let filed: FiledBookmarkCorpus = { ids: [], listId: '', otherListId: '' };
		/** The polling Bookmarks Trigger's state once activated, before the corpus was filed. */
		let activated: Record<string, unknown> = {};
		const poll = async (parameters: Parameters) =>
			await pollBookmarks({ bookmarkApi: credentials().bookmarkApi }, structuredClone(activated), parameters, typeVersion);

		beforeAll(async () => {
			const state = {};
			expect(await pollBookmarks({ bookmarkApi: credentials().bookmarkApi }, state)).toEqual([]);
			activated = structuredClone(state);
			filed = await fileBookmarkCorpus(run);
		});

		describe('the Bookmarks Trigger (polling), emitting the corpus as new records', () => {
			it('holds every listed value of the records: without Personal Data (Keep, a trigger’s default) they come as they are', async () => {
				const records = await poll({ simplify: false });
				expect(records.map((record) => record.id).sort()).toEqual([...filed.ids].sort());
				expect(leakedToolValues(records)).toEqual(
					BOOKMARK_CORPUS_VALUES.filter((value) => !LIST.description.toLowerCase().includes(value.toLowerCase())),
				);
			});

			it.each([
				['redact', true],
				['redact', false],
				['omit', true],
				['omit', false],
			])('Personal Data %s (Simplify %s): 0 personal values; tags, labels and the rest of the titles kept', async (personalData, simplify) => {
				const records = await poll({ simplify, options: { personalData } });
				expect(records.map((record) => record.id).sort()).toEqual([...filed.ids].sort());
				expect(leakedToolValues(records)).toEqual([]);
				const text = JSON.stringify(records);
				for (const kept of ['Portfolio – ', 'Reference – ', 'Status: shortlisted', 'residency', 'shortlist', 'reference']) {
					expect([kept, text.includes(kept)]).toEqual([kept, true]);
				}
				if (typeVersion === 2 && simplify) expect(records[0].lists).toEqual([{ id: filed.listId, name: LIST.name }]);
			});
		});

		it('holds every listed value: an ordinary node returns them', async () => {
			const records = await run({ resource: 'bookmark', operation: 'getMany', returnAll: true }, false);
			const lists = await run({ resource: 'list', operation: 'getMany', returnAll: true }, false);
			expect(leakedToolValues([records, lists])).toEqual(BOOKMARK_CORPUS_VALUES);
		});

		const record = (operation: string, extra: Parameters = {}) => onFirstRecord(filed, operation, extra);

		it.each(bookmarkToolCalls(() => filed))('%s', async (_name, parameters) => {
			const output = await run(parameters() as Parameters);
			expect(output.length).toBeGreaterThan(0);
			expect(leakedToolValues(output)).toEqual([]);
		});

		it('keeps what is no one’s details: tag and list names, labels of other lines, the rest of a title', async () => {
			const [full] = await run(record('get', { simplify: false, options: { simplify: false } }));
			expect(full.title).toBe('Portfolio – NAME_1');
			expect(full.note).toBe(
				'Applicant: NAME_1\nE-mail: EMAIL_1\nPhone: PHONE_1\nDate of birth: BIRTHDATE_1\nAddress: ADDRESS_1\nStatus: shortlisted',
			);
			expect((full.tags as IDataObject[]).map((tag) => tag.name).sort()).toEqual(['residency', 'shortlist']);
			expect((full.content as IDataObject).url).toBe('https://portfolio.example.org/NAME_1/2026');
			const tags = await run({ resource: 'tag', operation: 'getMany', returnAll: true });
			expect(tags.map((tag) => tag.name)).toEqual(expect.arrayContaining(['reference', 'residency', 'shortlist']));
			const lists = await run({ resource: 'list', operation: 'getMany', returnAll: true });
			const ours = lists.find((list) => list.id === filed.listId)!;
			expect(ours.name).toBe(LIST.name);
			expect(ours.description).toMatch(/^Contact person: NAME_\d+, EMAIL_\d+$/);
			const [simple] = await run(record('get'));
			expect(simple.lists).toEqual([{ id: filed.listId, name: LIST.name }]);
		});

		it('Create (link and text) and List → Create', async () => {
			const output: IDataObject[] = [];
			for (const call of BOOKMARK_CREATE_CALLS) output.push(...(await run(call as Parameters)));
			expect(leakedToolValues(output)).toEqual([]);
			expect(output[2].name).toBe('Referees');
		});

		it('Delete and List → Delete, with the author’s consent', async () => {
			const output = [
				...(await run(record('delete', { recordId: byId(filed.ids[1]), allowAsTool: true }))),
				...(await run({ resource: 'list', operation: 'delete', listId: byId(filed.listId), allowAsTool: true })),
			];
			expect(output).toEqual([
				{ deleted: true, id: filed.ids[1], alreadyGone: false },
				{ deleted: true, id: filed.listId, alreadyGone: false },
			]);
		});
	});

	describe('Survey', () => {
		const run = runner(new Survey(), 'survey');
		const survey = HEADLINE_SURVEYS[0];
		let responseIds: string[] = [];

		beforeAll(async () => {
			const control = sandboxControl(sandbox, 'survey');
			await control.call('POST', '/surveys', { id: survey.id, name: survey.name, questions: survey.questions });
			responseIds = [];
			for (const response of survey.responses) {
				const created = await control.call<{ data: { id: string } }>('POST', `/surveys/${survey.id}/responses`, response);
				responseIds.push(created.data.id);
			}
		});

		it.each([
			['Survey → Get', { resource: 'survey', operation: 'get', surveyId: byId(survey.id) }],
			['Survey → Get Many', { resource: 'survey', operation: 'getMany', returnAll: true }],
			['Survey → Get Metrics', { resource: 'survey', operation: 'getMetrics', surveyId: byId(survey.id) }],
			['Response → Get', () => ({ resource: 'response', operation: 'get', responseId: responseIds[0] })],
			['Response → Get Many', { resource: 'response', operation: 'getMany', surveyId: byId(survey.id), returnAll: true }],
			['Response → Mark as Read', { resource: 'response', operation: 'markAsRead' }],
			['Applicant Record → Export', { resource: 'applicantRecords', operation: 'export', surveyId: byId(survey.id) }],
			['Response → Delete, with the author’s consent', () => ({ resource: 'response', operation: 'delete', responseId: responseIds[1], allowDeleteAsTool: true })],
		])('%s', async (_name, parameters) => {
			const output = await run((typeof parameters === 'function' ? parameters() : parameters) as Parameters);
			expect(output.length).toBeGreaterThan(0);
			expect(leakedHeadlineValues(output)).toEqual([]);
		});
	});
});
