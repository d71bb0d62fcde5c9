/**
 * Issue 32, items 1 to 4: personal data where the real platforms keep it in their own forms, run
 * through the nodes against the sandbox flavours that answer as the platforms' source does.
 *
 * - Formbricks, formbricks/formbricks at b66c1dd978af618a0e402bd3343b456bed68594c:
 *   packages/types/surveys/elements.ts (`ZSurveyContactInfoElement`: firstName, lastName, email,
 *   phone, company; `ZSurveyAddressElement`: addressLine1, addressLine2, city, state, zip, country),
 *   packages/surveys/src/components/elements/contact-info-element.tsx and address-element.tsx (the
 *   answer is a list in that order), apps/web/modules/survey/lib/elements.tsx (their default
 *   headline is empty), packages/types/responses.ts (`ZResponse`: `contact` and `contactAttributes`
 *   at the top of a response, not in `meta`).
 * - Documenso, documenso/documenso at v2.17.0: packages/lib/types/document.ts (`ZDocumentSchema`:
 *   `documentData` with `data` and `initialData`, `fields`, `formValues`), packages/lib/types/template.ts
 *   (`templateDocumentData`), packages/lib/universal/upload/put-file.server.ts (a default install keeps
 *   the PDF in the database, in base64), packages/lib/types/field-meta.ts and
 *   packages/lib/server-only/template/create-document-from-template.ts (prefilled values in `fieldMeta`),
 *   packages/lib/server-only/field/sign-field-with-token.ts (what the signer types goes into
 *   `customText`, and into the audit log).
 */
import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { redactRecords } from '../../nodes/shared/privacy';
import { Signing } from '../../nodes/Signing/Signing.node';
import { answersGuide } from '../../nodes/Survey/personalData';
import { Survey } from '../../nodes/Survey/Survey.node';
import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { buildDelivery } from '../sandbox/formbricks/webhook';
import {
	type ReceivedDelivery,
	type Receiver,
	settledDeliveries,
	startReceiver,
} from '../sandbox/testkit';
import { callWebhook, executeContext, type Parameters } from './helpers/context';
import { startDocumensoHarness, type DocumensoHarness } from './helpers/documenso';
import { startFormbricksHarness, type FormbricksHarness } from './helpers/formbricks';
import { signingTriggerItems } from './helpers/triggerRuns';
import {
	DOCUMENSO_APPLICANT,
	DOCUMENSO_CORPUS_TEMPLATE,
	DOCUMENSO_DIRECTOR,
	DOCUMENSO_EMAIL_OPTIONS,
	DOCUMENSO_FORM_VALUES,
	DOCUMENSO_PERSONAL_VALUES,
	DOCUMENSO_PREFILL,
	DOCUMENSO_REJECTION_REASON,
	DOCUMENSO_SIGNED_IN,
	DOCUMENSO_TITLE,
	FORMBRICKS_CORPUS_QUESTIONS,
	FORMBRICKS_CORPUS_RESPONSES,
	FORMBRICKS_PERSONAL_VALUES,
	leakedPlatformValues,
	missingKeptValues,
	PLATFORM_KEPT_VALUES,
} from './fixtures/privacyCorpusPlatforms';

jest.setTimeout(120_000);

const TOOL = (node: string) => `n8n-nodes-sign-survey-bookmark.${node}Tool`;
const byId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });

async function runNode(
	node: INodeType,
	name: string,
	parameters: Parameters,
	credentials: Record<string, IDataObject>,
	options: { version?: number; tool?: boolean } = {},
): Promise<IDataObject[]> {
	const { context } = executeContext({
		parameters,
		credentials,
		node: {
			typeVersion: options.version ?? 2,
			...(options.tool === false ? {} : { type: TOOL(name) }),
		},
	});
	const [output] = (await node.execute!.call(context)) as INodeExecutionData[][];
	return output.map((item) => item.json);
}

describe('item 1, the rule alone: a list answer by its positions', () => {
	const questions = [
		{ id: 'q1', type: 'contactInfo', headline: 'Who should we talk to at your gallery?' },
		{ id: 'q2', type: 'address', headline: '' },
	];
	const redact = (data: IDataObject, extraFields: string[] = []) =>
		redactRecords([data], 'redact', { guide: answersGuide(questions), extraFields })[0];

	it('each position by its kind; the company and the country scanned as any text, not replaced', () => {
		expect(
			redact({
				q1: [
					'Ada',
					'Lovelace',
					'ada@example.org',
					'+44 20 7946 0958',
					'Lovelace & Babbage Ltd, ada@example.org',
				],
				q2: ['12 St James Square', '', 'London', 'Greater London', 'SW1Y 4JH', 'United Kingdom'],
			}),
		).toEqual({
			q1: ['NAME_1', 'NAME_2', 'EMAIL_1', 'PHONE_1', 'NAME_2 & Babbage Ltd, EMAIL_1'],
			q2: ['ADDRESS_1', '', 'ADDRESS_2', 'ADDRESS_3', 'ADDRESS_4', 'United Kingdom'],
		});
	});

	it('an answer that is not the list Formbricks stores is personal whole; a question in Extra Personal Fields too', () => {
		expect(redact({ q1: 'Ada Lovelace, ada@example.org' }).q1).toBe('PERSONAL_1');
		expect(redact({ q1: ['Ada', 'Lovelace', '', '', 'Engine Room Gallery'] }, ['q1']).q1).toEqual([
			'PERSONAL_1',
			'PERSONAL_2',
			'',
			'',
			'PERSONAL_3',
		]);
	});
});

/**
 * The timestamps, IDs and URLs of records (path and value), outside what is personal as a whole (the
 * respondent's contact, its attributes, `meta`): what redaction must never alter.
 */
function structuralValues(records: IDataObject[]): Array<[string, string]> {
	const found: Array<[string, string]> = [];
	const walk = (value: unknown, path: string) => {
		if (/(^|\.)(contact|contactId|contactAttributes|meta)(\.|$)/.test(path)) return;
		if (typeof value === 'string') {
			const structural =
				/^\d{4}-\d{2}-\d{2}T/.test(value) || /^https?:\/\//.test(value) || /(^|\.)(id|\w+Id)$/.test(path);
			if (structural) found.push([path, value]);
		} else if (value !== null && typeof value === 'object') {
			for (const [key, entry] of Object.entries(value)) walk(entry, path === '' ? key : `${path}.${key}`);
		}
	};
	records.forEach((record, index) => walk(record, String(index)));
	return found;
}

describe('Formbricks: answers by question type, the respondent beside them', () => {
	let h: FormbricksHarness;
	let surveyId = '';
	let questionIds: string[] = [];
	const responseIds: string[] = [];
	const survey = new Survey();
	const trigger = new SurveyTrigger();
	const secret = `whsec_${Buffer.from('privacy-corpus-formbricks-secret').toString('base64')}`;

	beforeAll(async () => {
		h = await startFormbricksHarness();
		const created = await h.control<{ data: { id: string; questions: Array<{ id: string }> } }>(
			'surveys',
			'POST',
			{
				name: 'Gallery partners (privacy corpus)',
				questions: FORMBRICKS_CORPUS_QUESTIONS,
			},
		);
		surveyId = created.data.id;
		questionIds = created.data.questions.map((question) => question.id);
		for (const response of FORMBRICKS_CORPUS_RESPONSES) {
			const data = Object.fromEntries(
				response.answers.flatMap((answer, index) =>
					answer === undefined ? [] : [[questionIds[index], answer]],
				),
			);
			const made = await h.control<{ data: { id: string } }>(
				`surveys/${surveyId}/responses`,
				'POST',
				{
					data,
					finished: true,
					contact: response.contact,
				},
			);
			responseIds.push(made.data.id);
		}
	});
	afterAll(async () => {
		// Every request the nodes sent validates against Formbricks' specs; every answer matched them.
		expect(await h.specProblems()).toEqual([]);
		await h?.stop();
	});

	const run = async (parameters: Parameters, options: { version?: number; tool?: boolean } = {}) =>
		await runNode(survey, 'survey', parameters, h.credentials(), options);
	const answerOf = (record: IDataObject, position: number) =>
		(record.data as IDataObject)[questionIds[position]];

	/** One delivery of the response as Formbricks' pipeline sends it, to a trigger set as `options` say. */
	const deliver = async (responseId: string, options: IDataObject, typeVersion = 2) => {
		const { json: got } = await h.api<{ data: IDataObject }>(
			`/api/v1/management/responses/${responseId}`,
		);
		const delivery = buildDelivery({
			jobId: `${responseId}-${JSON.stringify(options)}-${typeVersion}`,
			event: 'responseFinished',
			webhook: { id: 'cmprivacyhook00000000000a', secret },
			response: got.data,
			survey: {
				name: 'Gallery partners',
				type: 'link',
				status: 'inProgress',
				createdAt: new Date(),
				updatedAt: new Date(),
			},
			urls: { publicUrl: h.fb.url, webappUrl: h.fb.url },
		});
		const outcome = await callWebhook(
			trigger.webhook as (this: IWebhookFunctions) => Promise<IWebhookResponseData>,
			{
				workflowId: `wf-${JSON.stringify(options)}-${typeVersion}`,
				rawBody: delivery.body,
				body: JSON.parse(delivery.body),
				headers: delivery.headers,
				typeVersion,
				parameters: {
					registration: 'manual',
					events: ['responseFinished'],
					allSurveys: true,
					options,
				},
				staticData: {},
				credentials: h.credentials({ webhookSecret: secret }),
			},
		);
		const [item] = outcome.result.workflowData?.[0] ?? [];
		return item.json;
	};

	it('holds every listed value: an ordinary node and the trigger with Keep return them all', async () => {
		// Get Many reads Formbricks' v2 rows (`contactId`), Get its v1 response (`contact: { id, userId }`).
		const read = [
			...(await run(
				{
					resource: 'response',
					operation: 'getMany',
					surveyId: byId(surveyId),
					returnAll: true,
					simplify: false,
				},
				{ tool: false },
			)),
			...(await run(
				{ resource: 'response', operation: 'get', responseId: responseIds[0], simplify: false },
				{ tool: false },
			)),
			...(await run(
				{ resource: 'response', operation: 'get', responseId: responseIds[1], simplify: false },
				{ tool: false },
			)),
		];
		expect(leakedPlatformValues(read).sort()).toEqual([...FORMBRICKS_PERSONAL_VALUES].sort());
		const delivered = [await deliver(responseIds[0], {}, 1), await deliver(responseIds[1], {}, 1)];
		expect(leakedPlatformValues(delivered).sort()).toEqual([...FORMBRICKS_PERSONAL_VALUES].sort());
	});

	describe('item 1: contact info and address answers, position by position', () => {
		const CONTACT = 0;
		const ADDRESS = 1;

		it('as a tool, Response → Get Many gives names, e-mails, phones, streets, cities and postcodes as pseudonyms, companies and countries as they are', async () => {
			const output = await run({
				resource: 'response',
				operation: 'getMany',
				surveyId: byId(surveyId),
				returnAll: true,
			});
			expect(leakedPlatformValues(output.map((record) => record.data))).toEqual([]);
			const [ada, grace] = output;
			expect(answerOf(ada, CONTACT)).toEqual([
				expect.stringMatching(/^NAME_\d+$/),
				expect.stringMatching(/^NAME_\d+$/),
				expect.stringMatching(/^EMAIL_\d+$/),
				expect.stringMatching(/^PHONE_\d+$/),
				'Engine Room Gallery',
			]);
			expect(answerOf(grace, ADDRESS)).toEqual([
				...Array.from({ length: 5 }, () => expect.stringMatching(/^ADDRESS_\d+$/)),
				'USA',
			]);
			// Formbricks' default: no headline; still judged by its type.
			expect(answerOf(ada, 3)).toEqual([
				expect.stringMatching(/^ADDRESS_\d+$/),
				'',
				expect.stringMatching(/^ADDRESS_\d+$/),
				'',
				expect.stringMatching(/^ADDRESS_\d+$/),
				'United Kingdom',
			]);
			// The name found again in free text.
			expect(answerOf(ada, 11)).toMatch(
				/^NAME_\d+ NAME_\d+ will bring the notes; NAME_\d+ NAME_\d+ sends the crates\.$/,
			);
			expect(answerOf(ada, 9)).toBe('Notes on the Analytical Engine');
		});

		it('Applicant Record → Export, Redact and Omit: no name, street or postcode; companies and countries kept', async () => {
			const redacted = await run(
				{
					resource: 'applicantRecords',
					operation: 'export',
					surveyId: byId(surveyId),
					personalData: 'redact',
				},
				{ tool: false },
			);
			expect(leakedPlatformValues(redacted)).toEqual([]);
			expect(missingKeptValues(redacted, PLATFORM_KEPT_VALUES.formbricks)).toEqual([]);
			const omitted = await run(
				{
					resource: 'applicantRecords',
					operation: 'export',
					surveyId: byId(surveyId),
					personalData: 'omit',
				},
				{ tool: false },
			);
			expect(leakedPlatformValues(omitted)).toEqual([]);
			expect(omitted[0][questionIds[CONTACT]]).toEqual([
				'[removed]',
				'[removed]',
				'[removed]',
				'[removed]',
				'Engine Room Gallery',
			]);
			expect(omitted[0][questionIds[ADDRESS]]).toEqual([
				'[removed]',
				'[removed]',
				'[removed]',
				'[removed]',
				'[removed]',
				'United Kingdom',
			]);
		});

		it('Response → Get as a tool, with answers by question text: the author’s headlines as keys, the values redacted', async () => {
			const [got] = await run({
				resource: 'response',
				operation: 'get',
				responseId: responseIds[0],
				options: { answers: 'text' },
			});
			expect(leakedPlatformValues(got.data)).toEqual([]);
			expect((got.data as IDataObject)['Where should we send the contract?']).toEqual([
				...Array.from({ length: 5 }, () => expect.stringMatching(/^ADDRESS_\d+$/)),
				'United Kingdom',
			]);
		});

		it.each(['redact', 'omit'])(
			'the Survey Trigger with Personal Data %s: the answers by type',
			async (personalData) => {
				const item = await deliver(responseIds[0], { personalData });
				expect(leakedPlatformValues(item.data)).toEqual([]);
				expect(
					missingKeptValues(item.data, [
						'Engine Room Gallery',
						'Galerie Nord',
						'España',
						'Notes on the Analytical Engine',
					]),
				).toEqual([]);
			},
		);
	});

	describe('item 2: contact and contact attributes, by one rule on every path', () => {
		const respondent = (record: IDataObject) => ({
			contact: record.contact,
			contactId: record.contactId,
			contactAttributes: record.contactAttributes,
		});

		it.each([
			['version 2, Simplify off', 2, { simplify: false }],
			['version 1', 1, {}],
		])('as a tool, Response → Get and Get Many (%s) redact the contact and every contact attribute, custom keys too', async (_name, version, extra) => {
			const got = await run({ resource: 'response', operation: 'get', responseId: responseIds[0], ...extra }, { version });
			const many = await run(
				{ resource: 'response', operation: 'getMany', surveyId: byId(surveyId), returnAll: true, ...extra },
				{ version },
			);
			for (const record of [...got, ...many]) {
				expect(record.contactAttributes).toBeTruthy();
				expect(leakedPlatformValues(respondent(record))).toEqual([]);
			}
			expect(got[0].contactAttributes).toEqual({
				email: expect.stringMatching(/^EMAIL_\d+$/),
				firstName: expect.stringMatching(/^NAME_\d+$/),
				lastName: expect.stringMatching(/^NAME_\d+$/),
				plz: expect.stringMatching(/^PERSONAL_\d+$/),
				wohnort: expect.stringMatching(/^PERSONAL_\d+$/),
				linkedin: expect.stringMatching(/^PERSONAL_\d+$/),
				cohort: expect.stringMatching(/^PERSONAL_\d+$/),
				intake: expect.stringMatching(/^PERSONAL_\d+$/),
			});
			expect(got[0].contact).toEqual({ id: expect.stringMatching(/^ID_\d+$/), userId: expect.stringMatching(/^ID_\d+$/) });
			// The same person: the same pseudonym in the answers and in the contact's attributes.
			expect((got[0].contactAttributes as IDataObject).lastName).toBe((answerOf(got[0], 0) as string[])[1]);
		});

		it.each([
			['version 2, Simplify off', 2, { simplify: false }],
			['version 2', 2, {}],
			['version 1', 1, {}],
		])('as a tool (%s), no timestamp, ID or URL is altered by redaction, with year-like and number-like attributes', async (_name, version, extra) => {
			const read = async (tool: boolean) => [
				...(await run({ resource: 'response', operation: 'getMany', surveyId: byId(surveyId), returnAll: true, ...extra }, { version, tool })),
				...(await run({ resource: 'response', operation: 'get', responseId: responseIds[0], ...extra }, { version, tool })),
			];
			const kept = await read(false);
			const redacted = await read(true);
			// The simplified response (version 2's default) has no contact attributes.
			if (version === 1 || 'simplify' in extra) expect(JSON.stringify(kept)).toContain('"cohort":"2026"');
			const structural = structuralValues(kept);
			expect(structural.filter(([path]) => /createdAt|updatedAt/.test(path)).length).toBeGreaterThan(0);
			expect(structuralValues(redacted)).toEqual(structural);
			expect(JSON.stringify(redacted)).not.toMatch(/(?:PERSONAL|ID|NAME)_\d+[-:T.]\d/);
		});

		it.each(['redact', 'omit'])('the Survey Trigger with Personal Data %s applies the same rule to the response beside the answers', async (personalData) => {
			for (const responseId of responseIds) {
				const item = await deliver(responseId, { personalData }, 1);
				expect(leakedPlatformValues(respondent(item.response as IDataObject))).toEqual([]);
			}
		});
	});

	describe('item 4: the corpus through every operation as a tool, and through the trigger', () => {
		const operations: Array<[string, () => Parameters]> = [
			['Survey → Get', () => ({ resource: 'survey', operation: 'get', surveyId: byId(surveyId) })],
			['Survey → Get Many', () => ({ resource: 'survey', operation: 'getMany', returnAll: true })],
			[
				'Survey → Get Metrics',
				() => ({ resource: 'survey', operation: 'getMetrics', surveyId: byId(surveyId) }),
			],
			[
				'Response → Get',
				() => ({ resource: 'response', operation: 'get', responseId: responseIds[0] }),
			],
			[
				'Response → Get, Simplify off',
				() => ({
					resource: 'response',
					operation: 'get',
					responseId: responseIds[0],
					simplify: false,
				}),
			],
			[
				'Response → Get Many',
				() => ({
					resource: 'response',
					operation: 'getMany',
					surveyId: byId(surveyId),
					returnAll: true,
				}),
			],
			[
				'Response → Get Many, Simplify off, answers by both',
				() => ({
					resource: 'response',
					operation: 'getMany',
					surveyId: byId(surveyId),
					returnAll: true,
					simplify: false,
					options: { answers: 'both' },
				}),
			],
			['Response → Mark as Read', () => ({ resource: 'response', operation: 'markAsRead' })],
			[
				'Applicant Record → Export',
				() => ({ resource: 'applicantRecords', operation: 'export', surveyId: byId(surveyId) }),
			],
			[
				'Applicant Record → Export, answers by question text',
				() => ({
					resource: 'applicantRecords',
					operation: 'export',
					surveyId: byId(surveyId),
					options: { answers: 'text' },
				}),
			],
		];

		it.each([1, 2])(
			'version %i: 0 personal values through any operation; companies, countries and the project title kept',
			async (version) => {
				for (const [name, parameters] of operations) {
					const output = await run(parameters(), { version });
					expect([name, output.length > 0]).toEqual([name, true]);
					expect([name, leakedPlatformValues(output)]).toEqual([name, []]);
					if (/Response → Get Many|Export/.test(name)) {
						expect([name, missingKeptValues(output, PLATFORM_KEPT_VALUES.formbricks)]).toEqual([
							name,
							[],
						]);
					}
				}
			},
		);

		it('Response → Delete, with the author’s consent, returns no personal value', async () => {
			const extra = await h.control<{ data: { id: string } }>(
				`surveys/${surveyId}/responses`,
				'POST',
				{
					data: { [questionIds[0]]: FORMBRICKS_CORPUS_RESPONSES[0].answers[0] },
					contact: FORMBRICKS_CORPUS_RESPONSES[0].contact,
				},
			);
			const output = await run({
				resource: 'response',
				operation: 'delete',
				responseId: extra.data.id,
				allowDeleteAsTool: true,
			});
			expect(output).toHaveLength(1);
			expect(leakedPlatformValues(output)).toEqual([]);
		});

		it.each([
			['redact', 2, 'id'],
			['redact', 2, 'both'],
			['omit', 2, 'text'],
			['redact', 1, 'id'],
			['omit', 1, 'both'],
		])(
			'the Survey Trigger, Personal Data %s, version %i, answers by %s: 0 personal values',
			async (personalData, version, answers) => {
				for (const responseId of responseIds) {
					const item = await deliver(responseId, { personalData, answers }, version as number);
					expect(leakedPlatformValues(item)).toEqual([]);
				}
			},
		);
	});
});

describe('Documenso: documents’ own records of their fields, and their file', () => {
	let d: DocumensoHarness;
	const signing = new Signing();
	let templateId = 0;
	const documents = {
		pending: 0,
		signedIn: 0,
		formValues: 0,
		draft: 0,
		completed: 0,
		toCancel: 0,
		rejected: 0,
	};
	/** The team's webhook (Documenso's settings → Webhooks): every event of the corpus' documents arrives here. */
	let receiver: Receiver;
	const WEBHOOK_SECRET = 'privacy-corpus-documenso-secret';
	const templateFieldIds: Record<string, number> = {};

	const run = async (parameters: Parameters, options: { version?: number; tool?: boolean } = {}) =>
		await runNode(signing, 'signing', parameters, d.credentials(), options);
	const document = (operation: string, documentId: number, extra: Parameters = {}): Parameters => ({
		resource: 'document',
		operation,
		documentId: String(documentId),
		...extra,
	});
	const prefill = () =>
		Object.entries(DOCUMENSO_PREFILL).map(([label, value]) => ({
			id: templateFieldIds[label],
			value,
		}));
	const generate = (extra: Parameters = {}): Parameters => ({
		resource: 'document',
		operation: 'generateFromTemplate',
		templateId: byId(templateId),
		title: DOCUMENSO_TITLE,
		recipientsInput: 'json',
		recipientsJson: JSON.stringify([
			{ ...DOCUMENSO_APPLICANT, role: 'SIGNER' },
			{ ...DOCUMENSO_DIRECTOR, role: 'APPROVER' },
		]),
		prefillInput: 'json',
		prefillFieldsJson: JSON.stringify(prefill()),
		...extra,
	});
	const newDocument = async (extra: Parameters = {}) =>
		Number((await run(generate(extra), { tool: false, version: 1 }))[0].id);
	/** The document as Documenso's API answers it, read directly. */
	const raw = async (documentId: number): Promise<IDataObject> => {
		const response = await fetch(`${d.sandbox.signing.url}/api/v2/envelope/get-many`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${d.sandbox.signing.apiKey}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ ids: { type: 'documentId', ids: [documentId] } }),
		});
		return ((await response.json()) as { data: IDataObject[] }).data[0];
	};

	beforeAll(async () => {
		d = await startDocumensoHarness();
		receiver = await startReceiver();
		await d.control('/webhook-endpoints', 'POST', { url: receiver.url, secret: WEBHOOK_SECRET });
		const template = await d.control<IDataObject>('/templates', 'POST', DOCUMENSO_CORPUS_TEMPLATE);
		templateId = template.id as number;
		for (const field of template.fields as IDataObject[]) {
			const meta = (field.fieldMeta ?? {}) as IDataObject;
			if (typeof meta.label === 'string') templateFieldIds[meta.label] = field.id as number;
		}
		documents.pending = await newDocument({ distribute: true });
		documents.signedIn = await newDocument({ distribute: true });
		documents.draft = await newDocument({ distribute: false });
		documents.completed = await newDocument({ distribute: true });
		documents.toCancel = await newDocument({ distribute: true });
		// The applicant fills in their fields and signs; the director has still to approve.
		const fields = (await raw(documents.signedIn)).fields as IDataObject[];
		const fieldOf = (key: string) =>
			fields.find(
				(field) => (field.fieldMeta as IDataObject | null)?.label === key || field.type === key,
			)!.id;
		await d.control(`/documents/${documents.signedIn}/sign`, 'POST', {
			email: DOCUMENSO_APPLICANT.email,
			fields: Object.entries(DOCUMENSO_SIGNED_IN).map(([key, value]) => ({
				id: fieldOf(key),
				value,
			})),
		});
		await d.control(`/documents/${documents.completed}/complete`, 'POST');
		documents.rejected = await newDocument({
			distribute: true,
			emailOptions: DOCUMENSO_EMAIL_OPTIONS,
		});
		await d.control(`/documents/${documents.rejected}/reject`, 'POST', {
			email: DOCUMENSO_DIRECTOR.email,
			reason: DOCUMENSO_REJECTION_REASON,
		});
		// A document made through Documenso's own API with its PDF form's values (`formValues`).
		const slots = template.recipients as IDataObject[];
		const templateEnvelope = await fetch(`${d.sandbox.signing.url}/api/v2/envelope/get-many`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${d.sandbox.signing.apiKey}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ ids: { type: 'templateId', ids: [templateId] } }),
		});
		const form = new FormData();
		form.append(
			'payload',
			JSON.stringify({
				envelopeId: ((await templateEnvelope.json()) as { data: IDataObject[] }).data[0].id,
				recipients: [
					{ id: slots[0].id, ...DOCUMENSO_APPLICANT },
					{ id: slots[1].id, ...DOCUMENSO_DIRECTOR },
				],
				distributeDocument: true,
				override: { title: DOCUMENSO_TITLE },
				formValues: DOCUMENSO_FORM_VALUES,
			}),
		);
		const made = await fetch(`${d.sandbox.signing.url}/api/v2/envelope/use`, {
			method: 'POST',
			headers: { authorization: `Bearer ${d.sandbox.signing.apiKey}` },
			body: form,
		});
		const madeId = ((await made.json()) as IDataObject).id as string;
		documents.formValues = Number(
			/^document_(\d+)$/.exec(
				String(
					(
						await fetch(`${d.sandbox.signing.url}/api/v2/envelope/${madeId}`, {
							headers: { authorization: `Bearer ${d.sandbox.signing.apiKey}` },
						}).then(async (answer) => (await answer.json()) as IDataObject)
					).secondaryId,
				),
			)?.[1],
		);
	});
	afterAll(async () => {
		// Every request the node sent parses under Documenso's SDK schemas, and no answer broke them.
		expect(await d.schemaProblems()).toEqual([]);
		await receiver?.close();
		await d?.stop();
	});

	it('holds every listed value: an ordinary node returns them all', async () => {
		const outputs = [
			...(await run(document('get', documents.signedIn, { simplify: false }), { tool: false })),
			...(await run(document('get', documents.formValues, { simplify: false }), { tool: false })),
			...(await run(document('get', documents.rejected, { simplify: false }), { tool: false })),
		];
		expect(leakedPlatformValues(outputs).sort()).toEqual([...DOCUMENSO_PERSONAL_VALUES].sort());
	});

	describe('item 3: never the PDF’s bytes as JSON; field values by their label', () => {
		// Issue 41: the envelope routes give no file record, only the items; `documentData` keeps its id
		// and item for expressions written against the document routes, never a byte of the file.
		it('documentData and templateDocumentData: the file’s id and item, never its base64, as a tool or not', async () => {
			const [item] = (await raw(documents.completed)).envelopeItems as IDataObject[];
			for (const tool of [false, true]) {
				const [got] = await run(document('get', documents.completed, { simplify: false }), {
					tool,
				});
				const [v1] = await run(document('get', documents.completed), { tool, version: 1 });
				for (const record of [got, v1]) {
					expect(record.documentData).toEqual({
						id: item.documentDataId,
						envelopeItemId: item.id,
						size: null,
						initialSize: null,
					});
				}
				const [template] = await run(
					{ resource: 'template', operation: 'get', templateId: byId(templateId) },
					{ tool },
				);
				expect(template.templateDocumentData).toEqual({
					id: expect.any(String),
					envelopeItemId: expect.any(String),
					size: null,
					initialSize: null,
				});
				const [generated] = await run(generate({ allowAsTool: true }), { tool, version: 1 });
				expect(Object.keys(generated.documentData as IDataObject).sort()).toEqual([
					'envelopeItemId',
					'id',
					'initialSize',
					'size',
				]);
			}
		});

		it('as a tool, prefilled and signed-in values, in fieldMeta and customText, and form values are redacted by their label (or type); the rest kept', async () => {
			const [got] = await run(document('get', documents.signedIn, { simplify: false }));
			expect(leakedPlatformValues(got)).toEqual([]);
			const fields = got.fields as IDataObject[];
			const field = (key: string) =>
				fields.find(
					(entry) => (entry.fieldMeta as IDataObject | null)?.label === key || entry.type === key,
				)!;
			const meta = (key: string) => field(key).fieldMeta as IDataObject;
			expect(meta('Applicant address').text).toMatch(/^ADDRESS_\d+$/);
			expect(meta('Nom complet du mentor').text).toMatch(/^NAME_\d+$/);
			expect(meta('Project title').text).toBe('Notes on the Analytical Engine');
			expect(meta('Stipend (EUR)').value).toBe('1500');
			expect(meta('Studio').defaultValue).toBe('North studio');
			expect(field('Start date').customText).toMatch(/^2027-01-04 /);
			expect(field('Home address').customText).toMatch(/^ADDRESS_\d+$/);
			expect(field('NAME').customText).toMatch(/^NAME_\d+$/);
			expect(field('EMAIL').customText).toMatch(/^EMAIL_\d+$/);

			const [withForm] = await run(document('get', documents.formValues, { simplify: false }));
			expect(leakedPlatformValues(withForm)).toEqual([]);
			expect(withForm.formValues).toEqual({
				'Applicant name': expect.stringMatching(/^NAME_\d+$/),
				Telefonnummer: expect.stringMatching(/^PHONE_\d+$/),
				'Date de naissance': expect.stringMatching(/^BIRTHDATE_\d+$/),
				Text1: expect.stringMatching(/^Mentor: NAME_\d+$/),
				studioPreference: 'North studio',
				housing: true,
			});

			const log = await run(document('getAuditLog', documents.signedIn));
			expect(leakedPlatformValues(log)).toEqual([]);
			const inserted = log.filter((entry) => entry.type === 'DOCUMENT_FIELD_INSERTED');
			expect(
				inserted.map((entry) => ((entry.data as IDataObject).field as IDataObject).data),
			).toEqual([
				expect.stringMatching(/^PERSONAL_\d+$/),
				expect.stringMatching(/^NAME_\d+$/),
				expect.stringMatching(/^EMAIL_\d+$/),
			]);
		});

		it('as a tool, a prefilled value whose label asks for nothing personal stays: "Project title" is not PERSONAL_n', async () => {
			for (const version of [1, 2]) {
				const [got] = await run(document('get', documents.pending, { simplify: false }), {
					version,
				});
				expect(got.templateId).toBe(templateId);
				const values = Object.fromEntries(
					(got.prefillFields as IDataObject[]).map((entry) => [entry.label, entry.value]),
				);
				expect(values).toEqual({
					'Project title': 'Notes on the Analytical Engine',
					'Applicant address': expect.stringMatching(/^ADDRESS_\d+$/),
					'Nom complet du mentor': expect.stringMatching(/^NAME_\d+$/),
					'Start date': expect.stringMatching(/^2027-01-04 /),
					'Stipend (EUR)': '1500',
					Studio: 'North studio',
				});
			}
		});
	});

	describe('item 4: the corpus through every operation as a tool', () => {
		const operations: Array<[string, () => Parameters]> = [
			[
				'Template → Get Many',
				() => ({ resource: 'template', operation: 'getMany', returnAll: true }),
			],
			[
				'Template → Get',
				() => ({ resource: 'template', operation: 'get', templateId: byId(templateId) }),
			],
			[
				'Document → Get Many',
				() => ({ resource: 'document', operation: 'getMany', returnAll: true }),
			],
			['Document → Get', () => document('get', documents.signedIn)],
			[
				'Document → Get, Simplify off',
				() => document('get', documents.signedIn, { simplify: false }),
			],
			[
				'Document → Get, form values',
				() => document('get', documents.formValues, { simplify: false }),
			],
			['Document → Get Audit Log', () => document('getAuditLog', documents.signedIn)],
			[
				'Document → Get Audit Log, one item',
				() => document('getAuditLog', documents.signedIn, { auditOutput: 'single' }),
			],
			['Document → Download', () => document('download', documents.completed)],
		];

		it.each([1, 2])(
			'version %i: 0 personal values through any operation; the project title, dates, amounts and choices kept',
			async (version) => {
				for (const [name, parameters] of operations) {
					const output = await run(parameters(), { version });
					expect([name, output.length > 0]).toEqual([name, true]);
					expect([name, leakedPlatformValues(output)]).toEqual([name, []]);
					if (
						/Simplify off|version 1/.test(name) ||
						(version === 1 && /Document → Get$/.test(name))
					) {
						expect([name, missingKeptValues(output, PLATFORM_KEPT_VALUES.documenso)]).toEqual([
							name,
							[],
						]);
					}
				}
			},
		);

		it('Generate From Template, Send, Resend and Cancel, with the author’s consent', async () => {
			for (const version of [1, 2]) {
				const draft = await newDocument({ distribute: false });
				const pending = await newDocument({ distribute: true });
				const outputs = [
					...(await run(generate({ allowAsTool: true, distribute: true }), { version })),
					...(await run(document('send', draft, { allowAsTool: true }), { version })),
					...(await run(document('resend', pending, { allowAsTool: true }), { version })),
					...(await run(
						document('cancel', version === 1 ? documents.toCancel : pending, { allowAsTool: true }),
						{ version },
					)),
				];
				expect(outputs).toHaveLength(4);
				expect(leakedPlatformValues(outputs)).toEqual([]);
			}
		});
	});

	describe('items 3 and 4: the Signing Trigger, fed the events Documenso delivered for the corpus', () => {
		let deliveries: ReceivedDelivery[] = [];
		const credentials = () => ({
			signingApi: { ...d.credentials().signingApi, webhookSecret: WEBHOOK_SECRET },
		});
		const items = async (typeVersion: number, simplify: boolean, options: IDataObject) =>
			await signingTriggerItems(deliveries, {
				typeVersion,
				parameters: { simplify },
				options,
				credentials: credentials(),
			});
		const SHAPES: Array<[string, number, boolean]> = [
			['version 1', 1, true],
			['version 2, simplified', 2, true],
			['version 2, Simplify off', 2, false],
		];
		/** A delivery's document: Documenso's webhook payload has no fields (ZWebhookDocumentSchema), so no value prefilled or signed in. */
		const IN_FIELDS_ONLY = [
			'12 St James Square',
			'London',
			'7 Rue de Rivoli',
			'Augusta Ada King',
			'augusta@ockham.example',
		];

		beforeAll(async () => {
			const log = await settledDeliveries(d.sandbox.signing.url);
			deliveries = [...(await receiver.waitFor(log.length))];
			const events = new Set(deliveries.map((delivery) => delivery.body.event));
			for (const event of [
				'DOCUMENT_CREATED',
				'DOCUMENT_SENT',
				'DOCUMENT_OPENED',
				'DOCUMENT_SIGNED',
				'DOCUMENT_RECIPIENT_COMPLETED',
				'DOCUMENT_COMPLETED',
				'DOCUMENT_REJECTED',
			]) {
				expect([event, events.has(event)]).toEqual([event, true]);
			}
		});

		it('holds every listed value a delivery can carry: without Personal Data (Keep, a trigger’s default) the items carry them all', async () => {
			const kept = await items(1, true, {});
			expect(kept.length).toBeGreaterThan(0);
			expect(leakedPlatformValues(kept).sort()).toEqual(
				DOCUMENSO_PERSONAL_VALUES.filter((value) => !IN_FIELDS_ONLY.includes(value)).sort(),
			);
		});

		it.each(
			SHAPES.flatMap(([name, version, simplify]) =>
				['redact', 'omit'].map((mode) => [mode, name, version, simplify] as const),
			),
		)(
			'Personal Data %s, %s: 0 personal values in any event; the title and the form’s other values kept',
			async (personalData, _name, version, simplify) => {
				const output = await items(version, simplify, { personalData });
				expect(output.length).toBeGreaterThan(0);
				expect(leakedPlatformValues(output)).toEqual([]);
				const raw = version === 1 || !simplify;
				expect(
					missingKeptValues(
						output,
						raw ? ['Gallery residency', 'North studio'] : ['Gallery residency'],
					),
				).toEqual([]);
			},
		);

		it('Redact: form values by their names, the rejection reason and the invitation’s text scanned, recipients as pseudonyms', async () => {
			const output = await items(2, false, { personalData: 'redact' });
			const withForm = output.find(
				(item) => (item.document as IDataObject).id === documents.formValues,
			)!;
			expect((withForm.document as IDataObject).formValues).toEqual({
				'Applicant name': expect.stringMatching(/^NAME_\d+$/),
				Telefonnummer: expect.stringMatching(/^PHONE_\d+$/),
				'Date de naissance': expect.stringMatching(/^BIRTHDATE_\d+$/),
				Text1: expect.stringMatching(/^Mentor: NAME_\d+$/),
				studioPreference: 'North studio',
				housing: true,
			});
			const rejected = output.find((item) => item.event === 'document.rejected')!;
			expect(rejected.rejectionReason).toMatch(
				/^Ich, NAME_\d+, lehne ab\. Rückfragen bitte an EMAIL_\d+ oder PHONE_\d+\.$/,
			);
			expect((rejected.recipient as IDataObject).name).toMatch(/^NAME_\d+$/);
			const document = rejected.document as IDataObject;
			expect(document.title).toMatch(/^Gallery residency – NAME_\d+$/);
			expect((document.documentMeta as IDataObject).subject).toMatch(/^Votre résidence, NAME_\d+$/);
			expect((document.documentMeta as IDataObject).message).toMatch(
				/^Chère NAME_\d+, merci de signer avant le 4 janvier\.\nVotre mentor : NAME_\d+$/,
			);
			for (const recipients of [document.recipients, document.Recipient] as IDataObject[][]) {
				expect(recipients.map((recipient) => [recipient.name, recipient.email])).toEqual([
					[expect.stringMatching(/^NAME_\d+$/), expect.stringMatching(/^EMAIL_\d+$/)],
					[expect.stringMatching(/^NAME_\d+$/), expect.stringMatching(/^EMAIL_\d+$/)],
				]);
			}
		});
	});
});
