/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 28 item 1: one output shape per node. In version 2 every operation that returns a
 * record, and the node's trigger, give it with the same top-level fields, so an expression
 * written after one works after the others; with Simplify off, version 2 gives what version 1
 * gives (acceptance 3). Everything runs against the sandbox; the triggers get the deliveries the
 * sandbox really sent to a receiver.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { BookmarksTrigger } from '../../nodes/Bookmarks/BookmarksTrigger.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { SigningTrigger } from '../../nodes/Signing/SigningTrigger.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { type Sandbox, SEED, startSandbox } from '../sandbox';
import { callWebhook, executeContext, type Parameters as NodeParameters, pollContext } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(60_000);

interface Received {
	path: string;
	headers: IncomingHttpHeaders;
	body: Buffer;
}

/** An HTTP endpoint the services deliver their webhooks to; tests wait for what they expect. */
class Receiver {
	readonly received: Received[] = [];
	private waiters: Array<() => void> = [];
	private server?: Server;
	url = '';

	async start(): Promise<void> {
		this.server = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on('data', (chunk: Buffer) => chunks.push(chunk));
			request.on('end', () => {
				this.received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
				response.writeHead(200).end('{}');
				for (const wake of this.waiters.splice(0)) wake();
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async stop(): Promise<void> {
		await new Promise((resolve) => this.server?.close(resolve));
	}

	/** The deliveries that match, once there are `count` of them. */
	async waitFor(count: number, matches: (delivery: Received) => boolean): Promise<Received[]> {
		for (;;) {
			const found = this.received.filter(matches);
			if (found.length >= count) return found;
			await new Promise<void>((resolve) => this.waiters.push(resolve));
		}
	}
}

const keysOf = (item: IDataObject) => Object.keys(item).sort();
const json = (delivery: Received) => JSON.parse(delivery.body.toString('utf8')) as IDataObject;

type Webhook = Parameters<typeof callWebhook>[0];

async function execute(
	node: INodeType,
	parameters: NodeParameters,
	credentials: Record<string, IDataObject>,
	typeVersion = 2,
): Promise<IDataObject[]> {
	const { context } = executeContext({ parameters, credentials, node: { typeVersion } });
	const execute = node.execute as (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;
	return (await execute.call(context))[0].map((item) => item.json);
}

describe('One output shape per node (version 2)', () => {
	const receiver = new Receiver();
	let sandbox: Sandbox;

	beforeAll(async () => {
		await receiver.start();
		sandbox = await startSandbox({
			rateLimits: { survey: null },
			signingWebhookEndpoints: [{ url: `${receiver.url}/signing` }],
		});
	});
	afterAll(async () => {
		await sandbox?.stop();
		await receiver.stop();
	});

	describe('Bookmarks: Create, Update, Get, Get Many, Search and the Bookmarks Trigger', () => {
		const node = new Bookmarks();
		const credentials = () => ({ bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey } });
		const run = async (parameters: NodeParameters, typeVersion = 2) =>
			await execute(node, { resource: 'bookmark', ...parameters }, credentials(), typeVersion);
		const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });
		const url = 'https://example.org/one-shape/essay';

		it('gives the record with the same fields everywhere, Simplify on by default', async () => {
			const triggerState: Record<string, unknown> = {};
			const poll = async () => {
				const { context } = pollContext({
					credentials: credentials(),
					parameters: { watch: 'newRecords' },
					staticData: triggerState,
					typeVersion: 2,
				});
				return ((await new BookmarksTrigger().poll!.call(context)) ?? [[]])[0].map((item) => item.json);
			};
			expect(await poll()).toEqual([]); // the first poll only remembers what exists

			const [created] = await run({ operation: 'create', type: 'link', url, title: 'One shape', tags: 'one-shape, essay', notes: 'First note' });
			const id = String(created.id);
			await run({ operation: 'addToList', recordId: byId(id), listId: byId(SEED.readingListId) });
			const [updated] = await run({ operation: 'update', recordId: byId(id), updateFields: { note: 'Second note' } });
			const [got] = await run({ operation: 'get', recordId: byId(id) });
			const many = await run({ operation: 'getMany', returnAll: true, filters: { tag: 'one-shape' } });
			const found = await run({ operation: 'search', query: 'one-shape/essay', returnAll: true });
			const emitted = await poll();
			const [text] = await run({ operation: 'create', type: 'text', text: 'A text record', title: 'Text', tags: '' });

			const shape = keysOf(got);
			expect(shape).toEqual(
				['archived', 'createdAt', 'favourited', 'id', 'lists', 'modifiedAt', 'note', 'tags', 'text', 'title', 'type', 'url'].sort(),
			);
			const records = [updated, many.find((record) => record.id === id)!, found.find((record) => record.id === id)!, emitted.find((record) => record.id === id)!];
			for (const record of records) expect(keysOf(record)).toEqual(shape);
			// Create also says whether the URL was stored already.
			expect(keysOf(created)).toEqual([...shape, 'alreadyExists'].sort());
			expect(keysOf(text)).toEqual([...shape, 'alreadyExists'].sort());

			// The expressions a user writes after one operation read the same after every other.
			for (const record of [created, ...records]) {
				expect(record).toMatchObject({ id, type: 'link', url, text: null, title: 'One shape', tags: ['one-shape', 'essay'] });
			}
			for (const record of [updated, ...records]) {
				expect(record).toMatchObject({ note: 'Second note', lists: [{ id: SEED.readingListId, name: 'Reading' }] });
			}
			expect(text).toMatchObject({ type: 'text', url: null, text: 'A text record', alreadyExists: false });
		});

		it('with Simplify off, gives what version 1 gives', async () => {
			const create: NodeParameters = { operation: 'create', type: 'link', url, title: 'One shape' };
			const [v1Create] = await run(create, 1);
			const [v2Create] = await run({ ...create, simplify: false });
			expect(v2Create).toEqual(v1Create);
			expect(v2Create).toHaveProperty('content.url', url);

			const get = { operation: 'get', recordId: byId(SEED.adaPortfolioBookmarkId) };
			expect(await run({ ...get, simplify: false })).toEqual(await run(get, 1));
			const getMany = { operation: 'getMany', returnAll: true };
			expect(await run({ ...getMany, simplify: false })).toEqual(await run(getMany, 1));

			const update = { operation: 'update', recordId: byId(SEED.adaPortfolioBookmarkId), updateFields: { favourited: true } };
			const [v1Update] = await run(update, 1);
			const [v2Update] = await run({ ...update, simplify: false });
			expect(v2Update).toEqual({ ...v1Update, modifiedAt: v2Update.modifiedAt });
			expect(v2Update).toHaveProperty('listIds');
		});
	});

	describe('Signing: Generate From Template, Get, Get Many, Send, Cancel and the Signing Trigger', () => {
		const node = new Signing();
		const credentials = () => ({ signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey } });
		const run = async (parameters: NodeParameters, typeVersion = 2) =>
			await execute(node, { resource: 'document', ...parameters }, credentials(), typeVersion);
		const generate = (title: string, distribute = true): NodeParameters => ({
			operation: 'generateFromTemplate',
			templateId: { __rl: true, mode: 'id', value: SEED.residencyTemplateId },
			title,
			recipientsInput: 'fields',
			recipients: { recipient: [{ name: 'Ada Lovelace', email: 'ada@example.org', role: 'SIGNER' }] },
			distribute,
		});
		const deliver = async (delivery: Received, typeVersion = 2, workflowId = `wf-signing-${typeVersion}`) => {
			const outcome = await callWebhook(new SigningTrigger().webhook as Webhook, {
				workflowId,
				typeVersion,
				body: json(delivery),
				rawBody: delivery.body,
				headers: Object.fromEntries(Object.entries(delivery.headers).map(([key, value]) => [key, String(value)])),
				parameters: { events: ['document.created', 'document.sent', 'document.signed', 'document.completed'] },
			});
			return outcome.result.workflowData![0][0].json;
		};
		const eventsOf = async (documentId: string, count: number) =>
			await receiver.waitFor(count, (delivery) => delivery.path === '/signing' && (json(delivery).payload as IDataObject).id === documentId);

		it('gives the document with the same fields everywhere, Simplify on by default', async () => {
			const [generated] = await run(generate('One shape – Ada Lovelace'));
			const documentId = String(generated.documentId);
			const [got] = await run({ operation: 'get', documentId });
			const many = await run({ operation: 'getMany', returnAll: true });
			const [draft] = await run(generate('One shape – draft', false));
			const [sent] = await run({ operation: 'send', documentId: draft.documentId });
			const [cancelled] = await run({ operation: 'cancel', documentId: draft.documentId });
			await sandboxControl(sandbox, 'signing').call('POST', `/documents/${documentId}/complete`, {});
			const deliveries = await eventsOf(documentId, 4);
			const emitted = [];
			for (const delivery of deliveries) emitted.push(await deliver(delivery));

			const shape = keysOf(got);
			expect(shape).toEqual(
				['certifiedPackageUrl', 'completedAt', 'createdAt', 'documentId', 'recipients', 'status', 'templateId', 'title', 'updatedAt'].sort(),
			);
			const documents = [generated, many.find((document) => document.documentId === documentId)!, sent];
			for (const document of documents) expect(keysOf(document)).toEqual(shape);
			const eventFields = ['deliveryId', 'event', 'eventAt', 'recipient', 'rejectionReason'];
			for (const event of emitted) expect(keysOf(event)).toEqual([...shape, ...eventFields].sort());
			// Cancel answers with the document's ID and status only, under the same names, and whether it was gone already.
			expect(cancelled).toEqual({ documentId: draft.documentId, status: 'CANCELLED', alreadyGone: false });

			const recipientShape = ['email', 'name', 'recipientId', 'role', 'signedAt', 'signingStatus'];
			for (const document of [got, ...documents, ...emitted]) {
				expect(document).toMatchObject({ templateId: SEED.residencyTemplateId });
				for (const recipient of document.recipients as IDataObject[]) {
					expect(keysOf(recipient).filter((key) => key !== 'signingUrl')).toEqual(recipientShape);
				}
			}
			for (const document of [got, generated, ...emitted]) {
				expect(document).toMatchObject({ documentId, title: 'One shape – Ada Lovelace' });
			}
			const completed = emitted.find((event) => event.event === 'document.completed')!;
			expect(completed).toMatchObject({ status: 'COMPLETED', recipient: null, certifiedPackageUrl: expect.stringMatching(/^https?:/) });
			const signed = emitted.find((event) => event.event === 'document.signed')!;
			expect(signed.recipient).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.org', signingStatus: 'SIGNED' });
		});

		it('with Simplify off, gives what version 1 gives', async () => {
			const [generated] = await run(generate('One shape – raw'), 1);
			const documentId = String(generated.documentId);
			const [v2Generated] = await run({ ...generate('One shape – raw'), simplify: false });
			expect(keysOf(v2Generated)).toEqual(keysOf(generated));
			expect(await run({ operation: 'get', documentId, simplify: false })).toEqual(await run({ operation: 'get', documentId }, 1));
			const getMany = { operation: 'getMany', limit: 5 };
			expect(await run({ ...getMany, simplify: false })).toEqual(await run(getMany, 1));

			const [created] = await eventsOf(documentId, 1);
			const v1 = await deliver(created, 1, 'wf-raw-v1');
			const call = await callWebhook(new SigningTrigger().webhook as Webhook, {
				workflowId: 'wf-raw-v2',
				typeVersion: 2,
				body: json(created),
				rawBody: created.body,
				headers: { 'x-signing-delivery': String(created.headers['x-signing-delivery']) },
				parameters: { events: ['document.created'], simplify: false },
			});
			expect(call.result.workflowData![0][0].json).toEqual(v1);
			expect(v1).toHaveProperty('document.id', documentId);
		});
	});

	describe('Survey: Response → Get, Get Many and the Survey Trigger', () => {
		const node = new Survey();
		const credentials = () => ({ surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } });
		const run = async (parameters: NodeParameters, typeVersion = 2) =>
			await execute(node, { resource: 'response', ...parameters }, credentials(), typeVersion);
		const surveyId = { __rl: true, mode: 'id', value: SEED.alumniSurveyId };
		let secret = '';

		beforeAll(async () => {
			const registered = await fetch(`${sandbox.survey.url}/api/v1/webhooks`, {
				method: 'POST',
				headers: { 'x-api-key': sandbox.survey.apiKey, 'content-type': 'application/json' },
				body: JSON.stringify({
					url: `${receiver.url}/survey`,
					triggers: ['responseCreated', 'responseUpdated', 'responseFinished'],
					surveyIds: [SEED.alumniSurveyId],
				}),
			});
			secret = ((await registered.json()) as { data: { secret: string } }).data.secret;
		});

		const deliver = async (delivery: Received, parameters: NodeParameters = {}, typeVersion = 2) => {
			const outcome = await callWebhook(new SurveyTrigger().webhook as Webhook, {
				workflowId: `wf-survey-${typeVersion}-${String(parameters.simplify)}`,
				typeVersion,
				body: json(delivery),
				rawBody: delivery.body,
				headers: Object.fromEntries(Object.entries(delivery.headers).map(([key, value]) => [key, String(value)])),
				credentials: { surveyApi: { ...credentials().surveyApi, webhookSecret: secret } },
				parameters: {
					registration: 'manual',
					events: ['responseCreated', 'responseUpdated', 'responseFinished'],
					allSurveys: true,
					...parameters,
				},
			});
			return outcome.result.workflowData![0][0].json;
		};
		const respond = async () => {
			const { data } = await sandboxControl(sandbox, 'survey').call<{ data: IDataObject }>(
				'POST',
				`/surveys/${SEED.alumniSurveyId}/responses`,
				{ data: { fullName: 'Grace Hopper', email: 'grace@example.org', rating: 5 }, finished: true },
			);
			const responseId = String(data.id);
			const deliveries = await receiver.waitFor(2, (delivery) => delivery.path === '/survey' && json(delivery).responseId === responseId);
			return { responseId, deliveries };
		};

		it('gives the response with the same fields everywhere, Simplify on by default', async () => {
			const { responseId, deliveries } = await respond();
			const [got] = await run({ operation: 'get', responseId });
			const many = await run({ operation: 'getMany', surveyId, returnAll: true });
			const emitted = [];
			for (const delivery of deliveries) emitted.push(await deliver(delivery));
			const [deleted] = await run({ operation: 'delete', responseId });

			const shape = keysOf(got);
			expect(shape).toEqual(['createdAt', 'data', 'finished', 'responseId', 'surveyId', 'updatedAt']);
			expect(keysOf(many.find((response) => response.responseId === responseId)!)).toEqual(shape);
			for (const event of emitted) expect(keysOf(event)).toEqual([...shape, 'deliveryId', 'event'].sort());
			for (const response of [got, ...emitted]) {
				expect(response).toMatchObject({ responseId, surveyId: SEED.alumniSurveyId, createdAt: got.createdAt, data: got.data });
			}
			expect(emitted.find((event) => event.event === 'responseFinished')).toMatchObject({ finished: true });
			expect(deleted).toMatchObject({ deleted: true, responseId, surveyId: SEED.alumniSurveyId });
		});

		it('with Simplify off, gives what version 1 gives', async () => {
			const { responseId, deliveries } = await respond();
			const get = { operation: 'get', responseId };
			expect(await run({ ...get, simplify: false })).toEqual(await run(get, 1));
			const getMany = { operation: 'getMany', surveyId, returnAll: true };
			expect(await run({ ...getMany, simplify: false })).toEqual(await run(getMany, 1));
			const v1 = await deliver(deliveries[0], {}, 1);
			expect(await deliver(deliveries[0], { simplify: false })).toEqual(v1);
			expect(v1).toMatchObject({ responseId, event: 'responseCreated' });
		});
	});
});
