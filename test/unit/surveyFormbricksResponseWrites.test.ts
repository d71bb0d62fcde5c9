/**
 * Response → Create and Update on Formbricks, and the Survey Trigger's "Ignore Responses Written by
 * n8n", against the Formbricks flavour (test/sandbox/formbricks/routesV2.ts: POST and PUT of
 * apps/web/modules/api/v2/management/responses/… at b66c1dd, which run the response pipeline: its
 * deliveries are built as process-response-pipeline-job.ts builds them and fed to the trigger).
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { sealingContext, SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { sealSecret } from '../../nodes/shared/webhooks';
import { FORMBRICKS_SEED } from '../sandbox';
import { webhookSignature } from '../sandbox/formbricks/webhook';
import { startReceiver, type Receiver } from '../sandbox/testkit';
import { callWebhook, executeContext, type ExecuteOptions, type Parameters as NodeParameters } from './helpers/context';
import { formbricksForEachTest } from './helpers/formbricks';

jest.setTimeout(120_000);

const { surveys, questions, responses, workspaceId, contacts } = FORMBRICKS_SEED;
const survey = (id: string) => ({ mode: 'id', value: id });
const residency = questions.residency;

describe('Response → Create and Update on Formbricks', () => {
	const harness = formbricksForEachTest();
	const node = new Survey();
	const run = async (parameters: NodeParameters, options: Partial<ExecuteOptions> = {}) => {
		const { context } = executeContext({ parameters, credentials: harness().credentials(), ...options });
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const writes = async () =>
		(await harness().requests()).filter((request) => request.method === 'POST' || request.method === 'PUT');
	const create = (extra: NodeParameters = {}): NodeParameters => ({
		resource: 'response',
		operation: 'create',
		surveyId: survey(surveys.residency),
		...extra,
	});


	describe('Create', () => {
		it('answers by question ID (picked) and by question text (JSON), marked as written by n8n', async () => {
			const [byId] = await run(
				create({
					answerFields: { answer: [{ question: residency.fullName, value: 'Inès Vidal' }, { question: residency.decision, value: 'pending' }] },
					additionalFields: { createdAt: '2026-03-01T09:00:00Z', contactUserId: 'alumni-1' },
				}),
			);
			const [post] = await writes();
			expect(post.path).toBe('/api/v2/management/responses');
			const body = post.body as IDataObject;
			expect(body).toEqual({
				surveyId: surveys.residency,
				finished: true,
				data: { [residency.fullName]: 'Inès Vidal', [residency.decision]: 'pending' },
				createdAt: '2026-03-01T09:00:00.000Z',
				updatedAt: expect.any(String),
				variables: { n8nWrittenAt: body.updatedAt, n8nWriteSeal: expect.stringMatching(/^[\w-]{43}$/) },
				meta: { source: 'n8n' },
				userId: 'alumni-1',
			});
			expect(byId).toMatchObject({ surveyId: surveys.residency, finished: true, contactId: contacts.rosalind, data: body.data });

			const [byText] = await run(
				create({ answersInput: 'json', answersJson: JSON.stringify({ 'Your full name': 'Ada Byron', 'Favourite colour': 'x' }) }),
			).catch((e) => [e]);
			expect(byText).toBeInstanceOf(NodeOperationError);
			expect(byText.message).toBe(
				'Answers (JSON) › Favourite colour: "Favourite colour" is no question of the survey (by ID or by text), nor one of its hidden fields',
			);
			const [ok] = await run(create({ answersInput: 'json', answersJson: { 'your full name': 'Ada Byron', Decision: 'approved' } }));
			expect(ok.data).toEqual({ [residency.fullName]: 'Ada Byron', [residency.decision]: 'approved' });
		});

		it('types each answer as its question takes it, and writes hidden fields', async () => {
			const made = await harness().control<{ data: IDataObject }>('surveys', 'POST', {
				name: 'Typed',
				hiddenFields: ['campaign'],
				questions: [
					{ id: 'stars', headline: 'Stars', type: 'rating' },
					{ id: 'areas', headline: 'Areas', type: 'multipleChoiceMulti', choices: ['Sound', 'Writing', 'Sculpture'] },
					{ id: 'agree', headline: 'Agree', type: 'consent' },
				],
			});
			const [written] = await run({
				resource: 'response',
				operation: 'create',
				surveyId: survey(String(made.data.id)),
				answerFields: { answer: [{ question: 'Stars', value: '4' }, { question: 'areas', value: 'Sound, Writing' }, { question: 'agree', value: true }] },
				hiddenFields: { field: [{ id: 'campaign', value: 'spring' }] },
			});
			expect(written.data).toEqual({ stars: 4, areas: ['Sound', 'Writing'], agree: 'accepted', campaign: 'spring' });
			const twice = await run({
				resource: 'response',
				operation: 'create',
				surveyId: survey(String(made.data.id)),
				answersInput: 'json',
				answersJson: { stars: 4, campaign: 'autumn' },
				hiddenFields: { field: [{ id: 'campaign', value: 'spring' }] },
			}).catch((e) => e);
			expect(twice).toBeInstanceOf(NodeOperationError);
			expect(twice.message).toBe('Hidden Fields (hidden field 1): the hidden field "campaign" is given twice (here and in Answers, or in two rows)');
			const error = await run({
				resource: 'response',
				operation: 'create',
				surveyId: survey(String(made.data.id)),
				answerFields: { answer: [{ question: 'stars', value: 'four' }] },
			}).catch((e) => e);
			expect(error.message).toBe('Answers (answer 1): "four" is not a number, which a rating question takes');
			expect(await writes()).toHaveLength(1);
		});

		it('Created At is text read as the date filters read it, and a bad one fails before any request', async () => {
			const property = new Survey().description.properties
				.filter((parameter) => parameter.name === 'additionalFields')
				.flatMap((parameter) => (parameter.options ?? []) as Array<{ name: string; type?: string; placeholder?: string }>)
				.find((option) => option.name === 'createdAt');
			expect(property).toMatchObject({ type: 'string', placeholder: 'e.g. 2026-10-06 or 2026-10-06 18:30' });
			const error = await run(
				create({ answerFields: { answer: [{ question: residency.fullName, value: 'x' }] }, additionalFields: { createdAt: '2026-02-30' } }),
			).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe('Created At: February 30, 2026 does not exist');
			expect(await harness().requests()).toEqual([]);
		});

		it('as a tool: refused without the consent switch; the answers redacted in what it returns', async () => {
			const tool = { tool: true, node: { type: 'n8n-nodes-sign-survey-bookmark.surveyTool' } };
			const parameters = create({ answerFields: { answer: [{ question: residency.email, value: 'ines@example.org' }] } });
			const refused = await run(parameters, tool).catch((e) => e);
			expect(refused.message).toBe('Writing responses is not allowed for an AI agent');
			expect(await writes()).toEqual([]);
			const [written] = await run({ ...parameters, allowWriteAsTool: true }, tool);
			expect(JSON.stringify(written)).not.toContain('ines@example.org');
		});
	});

	describe('Update', () => {
		const update = (extra: NodeParameters = {}): NodeParameters => ({
			resource: 'response',
			operation: 'update',
			surveyId: survey(surveys.residency),
			responseId: responses.unfinished,
			...extra,
		});

		it('adds answers and finishes, keeping the others: the whole response goes back, stamped and marked', async () => {
			const before = (await harness().api<{ data: IDataObject }>(`/api/v2/management/responses/${responses.unfinished}`)).json.data;
			await harness().control('requests', 'DELETE');
			const [after] = await run(update({
				answerFields: { answer: [{ question: 'Link to your portfolio', value: 'https://mary.example.org' }] },
				updateFields: { finished: true },
			}));
			expect(after.data).toEqual({ ...(before.data as IDataObject), [residency.portfolio]: 'https://mary.example.org' });
			expect(after.finished).toBe(true);
			const [put] = await writes();
			const body = put.body as IDataObject;
			expect(Object.keys(body).sort()).toEqual(
				['createdAt', 'updatedAt', 'finished', 'contactId', 'endingId', 'data', 'variables', 'ttc', 'meta', 'contactAttributes', 'singleUseId', 'language', 'displayId'].sort(),
			);
			expect(body.meta).toEqual(before.meta);
			expect(Date.parse(String(body.updatedAt))).toBeGreaterThan(Date.parse(String(before.updatedAt)));
			expect(body.variables).toEqual({ n8nWrittenAt: body.updatedAt, n8nWriteSeal: expect.stringMatching(/^[\w-]{43}$/) });
		});

		it('a response of another survey than the one chosen: refused before anything is written', async () => {
			const error = await run(update({ surveyId: survey(surveys.alumni), answerFields: { answer: [{ question: questions.alumni.comment, value: 'x' }] } })).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(`Survey: the response ${responses.unfinished} belongs to another survey (${surveys.residency})`);
			expect(await writes()).toEqual([]);
		});
	});

	it('on the documented API both fail at once naming the Formbricks API', async () => {
		const { context, requests } = executeContext({
			parameters: create({ answerFields: { answer: [{ question: residency.fullName, value: 'x' }] } }),
			credentials: { surveyApi: { api: 'documented', baseUrl: harness().fb.url, apiKey: 'irrelevant' } },
		});
		const error = await node.execute.call(context).catch((e) => e);
		expect(error.message).toBe('Response → Create is available with the Formbricks API; this credential uses the documented API');
		expect(requests).toEqual([]);
	});

	describe('the Survey Trigger’s "Ignore Responses Written by the Survey Node"', () => {
		let receiver: Receiver;
		let hook: { id: string; secret: string };
		const webhook = new SurveyTrigger().webhook as Parameters<typeof callWebhook>[0];
		beforeEach(async () => {
			receiver = await startReceiver();
			const response = await fetch(`${harness().fb.url}/api/v1/webhooks`, {
				method: 'POST',
				headers: { 'x-api-key': harness().fb.apiKey, 'content-type': 'application/json' },
				body: JSON.stringify({ url: receiver.url, triggers: ['responseFinished'], workspaceId }),
			});
			hook = ((await response.json()) as { data: { id: string; secret: string } }).data;
		});
		afterEach(async () => await receiver.close());

		let workflow = 0;
		/** The last delivery the receiver got, fed to a Survey Trigger with these options (each in a workflow of its own). */
		const deliverLast = async (options: IDataObject) => {
			await harness().fb.idle();
			const delivery = receiver.received[receiver.received.length - 1];
			return await callWebhook(webhook, {
				workflowId: `wf-${++workflow}`,
				rawBody: delivery.rawBody,
				body: delivery.body,
				headers: Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)])),
				parameters: { registration: 'automatic', events: ['responseFinished'], allSurveys: true, options },
				staticData: {
					webhookId: hook.id,
					baseUrl: harness().fb.url,
					api: 'formbricks',
					sealedSecret: sealSecret(hook.secret, harness().fb.apiKey, sealingContext(hook.id, harness().fb.url)),
				},
				credentials: harness().credentials(),
			});
		};
		const started = (outcome: Awaited<ReturnType<typeof callWebhook>>) => outcome.result.workflowData?.[0] ?? [];

		it('skips a response as the node wrote it; a respondent’s later change starts the workflow again', async () => {
			const [written] = await run(create({ answerFields: { answer: [{ question: residency.fullName, value: 'Imported' }] } }));
			expect(started(await deliverLast({ ignoreN8nWrites: true }))).toEqual([]);
			// Off, or not added: the event starts the workflow as before.
			expect(started(await deliverLast({ ignoreN8nWrites: false }))).toHaveLength(1);
			expect(started(await deliverLast({}))).toHaveLength(1);
			// A respondent completes it: Formbricks moves updatedAt on, the mark no longer holds.
			await harness().control(`responses/${String(written.id)}`, 'PATCH', { data: { [residency.email]: 'imported@example.org' } });
			const [item] = started(await deliverLast({ ignoreN8nWrites: true }));
			expect(item.json).toMatchObject({ responseId: written.id, event: 'responseFinished' });
		});

		/**
		 * Issue 42: a respondent can write a response's variables through Formbricks' client API (on
		 * create, and on every update until it is finished), though not its updatedAt. The last delivery,
		 * its mark replaced as a respondent could write it, signed again as Formbricks signs it.
		 */
		const forged = async (variables: (mark: IDataObject) => IDataObject) => {
			await harness().fb.idle();
			const delivery = receiver.received[receiver.received.length - 1];
			const body = structuredClone(delivery.body);
			body.data.variables = variables(body.data.variables as IDataObject);
			const rawBody = JSON.stringify(body);
			const id = `forged-${++workflow}`;
			const timestamp = String(Math.floor(Date.now() / 1000));
			return await callWebhook(webhook, {
				workflowId: `wf-${workflow}`,
				rawBody,
				body,
				headers: {
					'content-type': 'application/json',
					'webhook-id': id,
					'webhook-timestamp': timestamp,
					'webhook-signature': webhookSignature(id, Number(timestamp), rawBody, hook.secret),
				},
				parameters: { registration: 'automatic', events: ['responseFinished'], allSurveys: true, options: { ignoreN8nWrites: true } },
				staticData: {
					webhookId: hook.id,
					baseUrl: harness().fb.url,
					api: 'formbricks',
					sealedSecret: sealSecret(hook.secret, harness().fb.apiKey, sealingContext(hook.id, harness().fb.url)),
				},
				credentials: harness().credentials(),
			});
		};

		it('a mark a respondent could write does not hide the response: the time alone, a seal of another key or time', async () => {
			await run(create({ answerFields: { answer: [{ question: residency.fullName, value: 'Imported' }] } }));
			// As the node wrote it: skipped.
			expect(started(await forged((mark) => mark))).toEqual([]);
			// The time alone (what a respondent can guess), another seal, the seal of another write's time.
			const { n8nWrittenAt } = (receiver.received[receiver.received.length - 1].body.data.variables ?? {}) as IDataObject;
			expect(started(await forged(() => ({ n8nWrittenAt })))).toHaveLength(1);
			expect(started(await forged((mark) => ({ ...mark, n8nWriteSeal: 'A'.repeat(43) })))).toHaveLength(1);
			expect(started(await forged((mark) => ({ ...mark, n8nWriteSeal: String(mark.n8nWriteSeal).slice(0, 42) })))).toHaveLength(1);
		});

		it('an update by the node of a respondent’s response is skipped too: no loop for Response Finished → Update', async () => {
			await run({
				resource: 'response',
				operation: 'update',
				surveyId: survey(surveys.residency),
				responseId: responses.ada,
				answerFields: { answer: [{ question: residency.decision, value: 'rejected' }] },
			});
			expect(started(await deliverLast({ ignoreN8nWrites: true }))).toEqual([]);
			expect(receiver.received.map((delivery) => delivery.body.data.id)).toEqual([responses.ada]);
		});
	});
});
