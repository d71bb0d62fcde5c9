/**
 * The Survey Trigger with the Survey API credential set to Formbricks.
 *
 * Registration runs against the Formbricks flavour of the sandbox, which refuses requests that
 * Formbricks' OpenAPI files do not allow. Deliveries are built exactly as Formbricks builds them,
 * by test/sandbox/formbricks/webhook.ts (`buildDelivery`), a port of formbricks/formbricks at
 * commit b66c1dd978af618a0e402bd3343b456bed68594c:
 * apps/web/modules/response-pipeline/lib/process-response-pipeline-job.ts (`createWebhookDeliveryTask`:
 * the nested body `{ webhookId, event, data: { <response>, survey } }`, the headers, and
 * `createWebhookMessageId`: the same `webhook-id` on every attempt of a job to a hook) and
 * apps/web/lib/crypto.ts (`generateStandardWebhookSignature`).
 */
import { NodeApiError, sleep } from 'n8n-workflow';
import { Webhook } from 'standardwebhooks';

import { sealingContext, SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { openSecret, sealSecret } from '../../nodes/shared/webhooks';
import { FORMBRICKS_SEED } from '../sandbox';
import { buildDelivery, FORMBRICKS_COMMIT, type PipelineEvent } from '../sandbox/formbricks/webhook';
import { settledDeliveries, startReceiver } from '../sandbox/testkit';
import { runWithFakeTime } from './helpers/clock';
import { callWebhook, hookContext, type Parameters as NodeParameters, type WebhookCall } from './helpers/context';
import { startFormbricksHarness, type FormbricksHarness } from './helpers/formbricks';

jest.setTimeout(60_000);

const { surveys, questions, responses, workspaceId } = FORMBRICKS_SEED;

interface SandboxHook {
	id: string;
	url: string;
	name: string | null;
	source: string;
	workspaceId: string;
	triggers: string[];
	surveyIds: string[];
	secret: string | null;
}

describe('Survey Trigger on Formbricks: registration', () => {
	let h: FormbricksHarness;
	const { checkExists, create, delete: remove } = new SurveyTrigger().webhookMethods.default;
	const url = 'http://127.0.0.1:5678/webhook/survey-hook/webhook';

	beforeAll(async () => (h = await startFormbricksHarness()));
	afterAll(async () => await h?.stop());
	beforeEach(async () => await h.control('reset', 'POST'));
	afterEach(async () => expect(await h.specProblems()).toEqual([]));

	const hooks = async () => (await h.control<{ data: SandboxHook[] }>('webhooks')).data;
	const activate = async (
		parameters: NodeParameters,
		staticData: Record<string, unknown> = {},
		credentials: Record<string, unknown> = {},
		where: Partial<Pick<Parameters<typeof hookContext>[0], 'webhookUrl' | 'mode' | 'workflowId' | 'nodeId' | 'instanceId'>> = {},
	) => {
		const harness = hookContext({
			parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'], ...parameters },
			credentials: h.credentials(credentials as never),
			webhookUrl: url,
			staticData,
			...where,
		});
		const existed = await checkExists.call(harness.context);
		if (!existed) await create.call(harness.context);
		return { ...harness, existed };
	};

	it('registers in the key’s workspace (from GET /me) and keeps the id, the service, the API and the secret sealed', async () => {
		const { staticData, requests } = await activate({ events: ['responseFinished', 'responseCreated'] });
		const [hook] = await hooks();
		expect(hook).toMatchObject({
			url,
			workspaceId,
			source: 'n8n',
			name: 'n8n: workflow › Hook Under Test [n8n workflow-under-test/hook-under-test]',
			triggers: ['responseFinished', 'responseCreated'],
			surveyIds: [],
		});
		expect(staticData).toMatchObject({ webhookId: hook.id, baseUrl: h.fb.url, api: 'formbricks' });
		expect(JSON.stringify(staticData)).not.toMatch(/whsec_/);
		const secret = openSecret(String(staticData.sealedSecret), h.fb.apiKey, sealingContext(hook.id, h.fb.url));
		expect(secret).toBe(hook.secret);
		expect(requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
			'GET /api/v1/webhooks',
			'GET /api/v1/management/me',
			'POST /api/v1/webhooks',
		]);
	});

	it('registers for the chosen surveys only', async () => {
		await activate({ allSurveys: false, surveyIds: [surveys.residency] });
		expect((await hooks())[0].surveyIds).toEqual([surveys.residency]);
	});

	it('takes the credential’s Workspace ID without asking /me, e.g. for a key with several workspaces', async () => {
		await h.control('formbricks', 'PUT', { extraWorkspaces: 1 });
		const { requests } = await activate({}, {}, { workspaceId });
		expect((await hooks())[0].workspaceId).toBe(workspaceId);
		expect(requests.some((request) => request.url.endsWith('/me'))).toBe(false);
	});

	it('a key with several workspaces and no Workspace ID: Formbricks’ 400, and what to set', async () => {
		await h.control('formbricks', 'PUT', { extraWorkspaces: 1 });
		const error = await activate({}).catch((e) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('400');
		expect(error.description).toMatch(/Workspace ID/);
		expect(await hooks()).toEqual([]);
	});

	it('a workspace migrated from an environment: the id /me gives is accepted', async () => {
		const legacy = await startFormbricksHarness({ legacyEnvironmentId: true });
		try {
			const harness = hookContext({
				parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'] },
				credentials: legacy.credentials(),
				webhookUrl: url,
			});
			expect(await checkExists.call(harness.context)).toBe(false);
			await create.call(harness.context);
			const [hook] = (await legacy.control<{ data: SandboxHook[] }>('webhooks')).data;
			expect(hook.workspaceId).toBe(workspaceId);
			expect(await legacy.specProblems()).toEqual([]);
		} finally {
			await legacy.stop();
		}
	});

	it('a URL on localhost refused by Formbricks: the error says which server setting allows it', async () => {
		await h.control('formbricks', 'PUT', { allowInternalWebhookUrls: false });
		const error = await activate({}).catch((e) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(/must not point to private or internal IP addresses/);
		expect(error.description).toMatch(/DANGEROUSLY_ALLOW_WEBHOOK_INTERNAL_URLS/);
	});

	it('reuses its hook when nothing changed, and replaces it when the events change', async () => {
		const first = await activate({});
		const again = await activate({}, first.staticData);
		expect(again.existed).toBe(true);
		const changed = await activate({ events: ['responseCreated'] }, first.staticData);
		expect(changed.existed).toBe(false);
		expect((await hooks()).map((hook) => [hook.id, hook.triggers])).toEqual([[changed.staticData.webhookId, ['responseCreated']]]);
	});

	it('removes its hook on deactivation with a manage key; one already gone counts as removed', async () => {
		const { context, staticData } = await activate({});
		const id = String(staticData.webhookId);
		expect(await remove.call(context)).toBe(true);
		expect(await hooks()).toEqual([]);
		staticData.webhookId = id;
		staticData.api = 'formbricks';
		staticData.baseUrl = h.fb.url;
		expect(await remove.call(context)).toBe(true);
	});

	it('a key without Manage access cannot remove the hook: the error says so', async () => {
		const { context } = await activate({});
		await h.control('formbricks', 'PUT', { permission: 'write' });
		const error = await remove.call(context).catch((e) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('401');
		expect(error.description).toContain('"Manage" access');
		expect(await hooks()).toHaveLength(1);
	});

	/**
	 * Issue 32 item 6. Formbricks keeps a hook's `name` (apps/web/app/api/v1/webhooks/types/webhooks.ts
	 * `ZWebhookInput`, lib/webhook.ts `createWebhook`) and lists it (`getWebhooks`): the trigger marks its
	 * hooks with its workflow and node there, and recognises them by it whatever their URL.
	 */
	describe('hooks left behind when n8n’s URL changes', () => {
		const movedUrl = 'http://127.0.0.1:5679/webhook/survey-hook/webhook';

		it('imported elsewhere (no static data) under another URL: the other n8n\'s hook stays, marked as this trigger\'s or not', async () => {
			// Issue 42: the marked hook at another URL was removed, and the n8n it belonged to stopped receiving.
			const original = await activate({});
			const otherNode = await activate({}, {}, {}, { nodeId: 'another-node', webhookUrl: 'http://127.0.0.1:5678/webhook/b/webhook' });
			await h.control('webhooks', 'POST', { url: 'https://zapier.example.org/hook', workspaceId, triggers: ['responseFinished'], name: 'Zapier' });
			const imported = await activate({}, {}, {}, { webhookUrl: movedUrl, instanceId: 'another-n8n' });
			expect(imported.existed).toBe(false);
			const remaining = await hooks();
			expect(remaining.map((hook) => hook.id).sort()).toEqual(
				[
					original.staticData.webhookId,
					imported.staticData.webhookId,
					otherNode.staticData.webhookId,
					remaining.find((hook) => hook.name === 'Zapier')?.id,
				].sort(),
			);
		});

		it('static data imported from another n8n (its hook\'s record): that n8n\'s hook stays, on activation and deactivation', async () => {
			const production = await activate({});
			const staging = await activate({}, { ...production.staticData }, {}, { webhookUrl: movedUrl, instanceId: 'staging-n8n' });
			expect(staging.existed).toBe(false);
			expect((await hooks()).map((hook) => hook.url).sort()).toEqual([url, movedUrl].sort());
			const foreignRecord = hookContext({
				parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'] },
				credentials: h.credentials(),
				webhookUrl: movedUrl,
				staticData: { ...production.staticData },
				instanceId: 'staging-n8n',
			});
			await remove.call(foreignRecord.context);
			expect((await hooks()).map((hook) => hook.url).sort()).toEqual([url, movedUrl].sort());
		});

		it('two n8n instances with the same imported workflow, one workspace: both receive after both activate; each deactivation removes only its own hook', async () => {
			const receivers = [await startReceiver(), await startReceiver()];
			try {
				const instances = await Promise.all(
					receivers.map(async (receiver, index) => {
						const harness = hookContext({
							parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'] },
							credentials: h.credentials(),
							webhookUrl: receiver.url,
							staticData: {},
							instanceId: index === 0 ? 'staging-n8n' : 'production-n8n',
						});
						return harness;
					}),
				);
				// Activated one after the other, each as n8n does: checkExists, then create.
				for (const instance of instances) {
					if (!(await checkExists.call(instance.context))) await create.call(instance.context);
				}
				// Staging restarts: it activates again, finds its own hook and leaves production's.
				expect(await checkExists.call(instances[0].context)).toBe(true);
				expect((await hooks()).map((hook) => hook.url).sort()).toEqual(receivers.map((receiver) => receiver.url).sort());

				const respond = async () =>
					await h.control(`surveys/${surveys.residency}/responses`, 'POST', { data: {}, finished: true });
				await respond();
				for (const [index, receiver] of receivers.entries()) {
					const [delivery] = await receiver.waitFor(1);
					const secret = openSecret(
						String(instances[index].staticData.sealedSecret),
						h.fb.apiKey,
						sealingContext(String(instances[index].staticData.webhookId), h.fb.url),
					);
					// Signed with the secret this instance holds: its trigger accepts it.
					expect(() => new Webhook(String(secret)).verify(delivery.rawBody, delivery.headers as Record<string, string>)).not.toThrow();
				}

				await remove.call(instances[0].context);
				expect((await hooks()).map((hook) => hook.url)).toEqual([receivers[1].url]);
				for (const receiver of receivers) receiver.clear();
				await respond();
				await receivers[1].waitFor(1);
				await settledDeliveries(h.fb.url);
				expect(receivers[0].received).toHaveLength(0);

				await remove.call(instances[1].context);
				expect(await hooks()).toEqual([]);
			} finally {
				for (const receiver of receivers) await receiver.close();
			}
		});

		it('"Listen for test event" and the active workflow leave each other’s hook alone', async () => {
			const testUrl = 'http://127.0.0.1:5678/webhook-test/survey-hook/webhook';
			const production = await activate({});
			const listening = await activate({}, { ...production.staticData }, {}, { mode: 'manual', webhookUrl: testUrl });
			expect(listening.existed).toBe(false);
			expect((await hooks()).map((hook) => hook.url).sort()).toEqual([url, testUrl].sort());
			expect((await hooks()).find((hook) => hook.url === testUrl)?.name).toMatch(/ test\]$/);
			const again = await activate({}, production.staticData);
			expect(again.existed).toBe(true);
			expect((await hooks()).map((hook) => hook.url).sort()).toEqual([url, testUrl].sort());
		});

		it('a credential switched to another organisation’s key: the log says which hook was left where', async () => {
			// Registered earlier with the other organisation's key, in its workspace, which this key cannot see.
			const { data: left } = await h.control<{ data: SandboxHook }>('webhooks', 'POST', {
				url,
				workspaceId: 'cmotherorganisation0000001',
				triggers: ['responseFinished'],
				source: 'n8n',
				name: 'n8n: workflow › Hook Under Test [n8n workflow-under-test/hook-under-test]',
			});
			const oldKey = 'fbk_anotherOrganisationKey';
			const stored = {
				webhookId: left.id,
				baseUrl: h.fb.url,
				api: 'formbricks',
				sealedSecret: sealSecret(String(left.secret), oldKey, sealingContext(left.id, h.fb.url)),
			};
			const switched = await activate({}, stored);
			expect(switched.existed).toBe(false);
			expect((await hooks()).map((hook) => hook.id).sort()).toEqual([left.id, switched.staticData.webhookId].sort());
			expect(switched.warnings).toEqual([
				expect.stringMatching(
					new RegExp(
						`the webhook ${left.id} this trigger registered at ${h.fb.url.replace(/[.:/]/g, '\\$&')} with an earlier API key is not among this key's webhooks`,
					),
				),
			]);
		});
	});

	it('switched from the documented API to Formbricks: the old hook is removed through the API it was registered with', async () => {
		const first = await activate({});
		const oldId = String(first.staticData.webhookId);
		// As an earlier registration through the documented API would have left it (no `api` kept).
		const documented = { ...first.staticData };
		delete documented.api;
		const again = await activate({}, documented);
		expect(again.existed).toBe(false);
		// The documented API's DELETE /api/v1/webhooks/{id} is also Formbricks' route: the old hook went.
		expect((await hooks()).map((hook) => hook.id)).toEqual([again.staticData.webhookId]);
		expect(again.staticData.webhookId).not.toBe(oldId);
		expect(again.staticData.api).toBe('formbricks');
	});
});

describe(`Survey Trigger on Formbricks: deliveries as Formbricks builds them (commit ${FORMBRICKS_COMMIT.slice(0, 7)})`, () => {
	const webhook = new SurveyTrigger().webhook as Parameters<typeof callWebhook>[0];
	const secret = `whsec_${Buffer.from('formbricks-trigger-unit-secret-32').toString('base64')}`;
	const hookId = 'cmwebhookunit000000000001';
	const baseUrl = 'http://127.0.0.1:1';
	const apiKey = 'fbk_unitKey';
	const credentials = { surveyApi: { api: 'formbricks', baseUrl, apiKey } };
	const urls = { publicUrl: 'https://forms.example.org', webappUrl: 'https://app.example.org' };
	/** What `create` keeps after registering the hook (sealed once, as n8n keeps it between deliveries). */
	const stored = {
		webhookId: hookId,
		baseUrl,
		api: 'formbricks',
		sealedSecret: sealSecret(secret, apiKey, sealingContext(hookId, baseUrl)),
	};
	const registered = () => ({ ...stored });
	const response = {
		id: responses.ada,
		createdAt: '2026-11-03T10:00:00.000Z',
		updatedAt: '2026-11-03T10:14:00.000Z',
		surveyId: surveys.residency,
		displayId: null,
		contact: null,
		contactAttributes: null,
		finished: true,
		endingId: null,
		data: {
			[questions.residency.fullName]: 'Ada Lovelace',
			[questions.residency.email]: 'ada.lovelace@example.org',
			[questions.residency.decision]: 'approved',
		},
		variables: {},
		ttc: { _total: 5000 },
		tags: [],
		meta: { source: 'newsletter', country: 'GB' },
		singleUseId: null,
		language: 'default',
	};
	const survey = {
		name: 'Residency application',
		type: 'link',
		status: 'inProgress',
		createdAt: '2026-10-01T08:00:00.000Z',
		updatedAt: '2026-10-02T08:00:00.000Z',
	};
	let job = 0;
	/** One attempt of a job's delivery to the hook, as Formbricks' worker sends it at `now`. */
	const attempt = (
		options: { jobId?: string; event?: PipelineEvent; secret?: string | null; now?: Date; workflowId?: string } = {},
	): WebhookCall & { jobId: string } => {
		const jobId = options.jobId ?? String(++job);
		const delivery = buildDelivery({
			jobId,
			event: options.event ?? 'responseFinished',
			webhook: { id: hookId, secret: options.secret === undefined ? secret : options.secret },
			response,
			survey,
			urls,
			now: options.now,
		});
		return {
			jobId,
			workflowId: options.workflowId ?? 'wf-formbricks',
			rawBody: delivery.body,
			body: JSON.parse(delivery.body),
			headers: delivery.headers,
			parameters: { registration: 'automatic', events: ['responseFinished'], allSurveys: true },
			staticData: registered(),
			credentials,
		};
	};
	const started = (outcome: Awaited<ReturnType<typeof callWebhook>>) => outcome.result.workflowData?.[0] ?? [];

	it('starts one item: the documented output, then the response and the survey Formbricks sends', async () => {
		const call = attempt();
		const outcome = await callWebhook(webhook, call);
		const [item] = started(outcome);
		const responseWithoutAnswers: Record<string, unknown> = { ...response };
		delete responseWithoutAnswers.data;
		expect(item.json).toEqual({
			event: 'responseFinished',
			surveyId: surveys.residency,
			responseId: responses.ada,
			createdAt: '2026-11-03T10:00:00.000Z',
			data: response.data,
			deliveryId: call.headers!['webhook-id'],
			response: responseWithoutAnswers,
			survey: { title: 'Residency application', type: 'link', status: 'inProgress', createdAt: survey.createdAt, updatedAt: survey.updatedAt },
			webhookId: hookId,
		});
		expect(Object.keys(item.json).slice(0, 6)).toEqual(['event', 'surveyId', 'responseId', 'createdAt', 'data', 'deliveryId']);
		// Formbricks' own delivery needs no credential read once the hook's secret is open.
		expect(outcome.credentialReads).toBe(1);
		expect((await callWebhook(webhook, attempt())).credentialReads).toBe(0);
	});

	it('version 2 with Simplify: the one shape, with finished and updatedAt as Formbricks tells them', async () => {
		const call = { ...attempt({ event: 'responseFinished' }), typeVersion: 2 };
		const [item] = started(await callWebhook(webhook, call));
		expect(item.json).toEqual({
			event: 'responseFinished',
			deliveryId: call.headers!['webhook-id'],
			responseId: responses.ada,
			surveyId: surveys.residency,
			createdAt: response.createdAt,
			updatedAt: response.updatedAt,
			finished: true,
			data: response.data,
		});
		const raw = { ...attempt(), typeVersion: 2, parameters: { ...call.parameters, simplify: false } };
		const [whole] = started(await callWebhook(webhook, raw));
		expect(whole.json).toHaveProperty('survey.title', 'Residency application');
	});

	it('one execution per event; none for a redelivery of the same job (same webhook-id, new timestamp and signature)', async () => {
		const first = attempt({ workflowId: 'wf-redelivery' });
		const retry = attempt({ jobId: first.jobId, workflowId: 'wf-redelivery', now: new Date(Date.now() + 15_000) });
		expect(retry.headers!['webhook-id']).toBe(first.headers!['webhook-id']);
		expect(retry.headers!['webhook-signature']).not.toBe(first.headers!['webhook-signature']);
		expect(started(await callWebhook(webhook, first))).toHaveLength(1);
		const outcome = await callWebhook(webhook, retry);
		expect(started(outcome)).toHaveLength(0);
		expect(outcome.result.webhookResponse).toBe('OK');
		// The next job (another event of the same response) is a new delivery.
		expect(started(await callWebhook(webhook, attempt({ workflowId: 'wf-redelivery' })))).toHaveLength(1);
	});

	it('answers 401 to a bad signature, a tampered body and a delivery signed with another secret', async () => {
		const other = `whsec_${Buffer.from('another-secret-of-another-hook!!').toString('base64')}`;
		const tampered = attempt();
		tampered.rawBody = String(tampered.rawBody).replace('approved', 'rejected');
		const badSignature = attempt();
		badSignature.headers!['webhook-signature'] = `v1,${Buffer.from('not the signature').toString('base64')}`;
		for (const call of [tampered, badSignature, attempt({ secret: other })]) {
			const outcome = await callWebhook(webhook, call);
			expect(outcome.status).toBe(401);
			expect(started(outcome)).toHaveLength(0);
		}
	});

	it('answers 401 to an unsigned delivery (a hook from before Formbricks had secrets), failing closed', async () => {
		const unsigned = attempt({ secret: null });
		expect(unsigned.headers!['webhook-signature']).toBeUndefined();
		const outcome = await callWebhook(webhook, unsigned);
		expect(outcome.status).toBe(401);
		expect(started(outcome)).toHaveLength(0);
	});

	it('acknowledges events that were not selected, and refuses a body of the documented API’s shape', async () => {
		const created = await callWebhook(webhook, attempt({ event: 'responseCreated' }));
		expect(started(created)).toHaveLength(0);
		expect(created.result.webhookResponse).toBe('OK');

		const flat = attempt();
		const body = JSON.stringify({ event: 'responseFinished', surveyId: surveys.residency, responseId: 'x', data: {} });
		const signed = buildDelivery({ jobId: 'flat', event: 'responseFinished', webhook: { id: hookId, secret }, response, survey, urls });
		// Signed correctly, but not Formbricks' envelope: the API chosen in the credential decides.
		const { Webhook } = await import('standardwebhooks');
		flat.rawBody = body;
		flat.body = JSON.parse(body);
		flat.headers = {
			...signed.headers,
			'webhook-signature': new Webhook(secret).sign(signed.messageId, new Date(), body),
		};
		const outcome = await callWebhook(webhook, flat);
		expect(outcome.status).toBe(400);
		expect(JSON.stringify(outcome.responseBody)).toMatch(/Formbricks webhook/);
	});

	it('Personal Data Redact and Omit reach the response Formbricks sends beside the answers: its meta and contact attributes', async () => {
		const h = await startFormbricksHarness();
		try {
			const personal = {
				...response,
				contactAttributes: { email: 'ada.private@example.org', firstName: 'Augusta' },
				meta: { source: 'newsletter', country: 'GB', userAgent: { browser: 'Firefox 131' }, url: 'https://forms.example.org/s/ada-lovelace' },
			};
			for (const personalData of ['redact', 'omit']) {
				const delivery = buildDelivery({ jobId: `pd-${personalData}`, event: 'responseFinished', webhook: { id: hookId, secret }, response: personal, survey, urls });
				const [item] = started(
					await callWebhook(webhook, {
						workflowId: `wf-personal-${personalData}`,
						rawBody: delivery.body,
						body: JSON.parse(delivery.body),
						headers: delivery.headers,
						parameters: { registration: 'manual', events: ['responseFinished'], allSurveys: true, options: { personalData } },
						staticData: {},
						credentials: h.credentials({ webhookSecret: secret }),
					}),
				);
				const output = JSON.stringify(item.json);
				for (const clear of ['Ada Lovelace', 'ada.lovelace@example.org', 'ada.private@example.org', 'Augusta', 'Firefox 131', 'ada-lovelace']) {
					expect(output).not.toContain(clear);
				}
				// What says how the survey was reached, and the answers that are no one's details, stay.
				expect(item.json).toMatchObject({ response: { meta: { source: 'newsletter' }, finished: true } });
				expect(output).toContain('approved');
			}
		} finally {
			await h.stop();
		}
	});

	/**
	 * Issue 32 item 5. Formbricks gives every hook a secret (apps/web/app/api/v1/webhooks/lib/webhook.ts
	 * `createWebhook`, apps/web/modules/integrations/webhooks/lib/webhook.ts: `secret ?? generateWebhookSecret()`)
	 * and signs every delivery with it (process-response-pipeline-job.ts, `createWebhookDeliveryTask`):
	 * a Manual trigger whose credential has no Webhook Secret has nothing to check them with.
	 */
	it('Manual registration without a Webhook Secret refuses every delivery with 401 and logs what to set', async () => {
		for (const call of [attempt(), attempt({ secret: null })]) {
			call.parameters = { ...call.parameters, registration: 'manual' };
			call.staticData = {};
			const outcome = await callWebhook(webhook, call);
			expect(outcome.status).toBe(401);
			expect(started(outcome)).toHaveLength(0);
			expect(JSON.stringify(outcome.responseBody)).toMatch(/Webhook Secret/);
			expect(outcome.warnings).toEqual([
				expect.stringMatching(
					/Survey Trigger "Trigger Under Test" \(workflow wf-formbricks\) refused a delivery: its credential has no Webhook Secret\. Copy the webhook's signing secret \(whsec_…\) from the survey service into the credential's Webhook Secret/,
				),
			]);
		}
	});

	/**
	 * Issue 32 item 8. Answers by text and Personal Data need the survey's questions. Formbricks
	 * waits 5 s for an answer and retries a delivery twice, 5 s and then 10 s later
	 * (process-response-pipeline-job.ts `WEBHOOK_TIMEOUT_MS`, packages/jobs/src/constants.ts; see
	 * test/sandbox/formbricks/timing.ts), and answers a 429 without Retry-After
	 * (apps/web/app/lib/api/response.ts `tooManyRequestsResponse`).
	 */
	describe('the survey’s questions, for Answers by text and Personal Data', () => {
		let fb: FormbricksHarness;
		beforeAll(async () => (fb = await startFormbricksHarness()));
		afterAll(async () => await fb?.stop());

		const deliver = async (jobId: string, options: { data?: Record<string, unknown>; workflowId?: string } = {}) => {
			const delivery = buildDelivery({
				jobId,
				event: 'responseFinished',
				webhook: { id: hookId, secret },
				response: { ...response, data: options.data ?? response.data },
				survey,
				urls,
			});
			return await callWebhook(webhook, {
				workflowId: options.workflowId ?? 'wf-questions',
				rawBody: delivery.body,
				body: JSON.parse(delivery.body),
				headers: delivery.headers,
				parameters: {
					registration: 'manual',
					events: ['responseFinished'],
					allSurveys: true,
					options: { answers: 'text', personalData: 'redact' },
				},
				staticData: {},
				credentials: fb.credentials({ webhookSecret: secret }),
			});
		};
		const surveyReads = async () =>
			(await fb.requests()).filter((request) => request.method === 'GET' && request.path.endsWith(`/surveys/${surveys.residency}`))
				.length;

		it('are read once per workflow, and again for a question id they do not know (once)', async () => {
			for (const job of ['q-1', 'q-2', 'q-3']) {
				const [item] = started(await deliver(job));
				expect(item.json.data).toHaveProperty(['Your full name']);
			}
			expect(await surveyReads()).toBe(1);
			// A question added since: read again; an answer the survey has no question for (a hidden field) once only.
			const added = { ...response.data, cmaddedquestion00000000001: 'A new answer' };
			expect(started(await deliver('q-4', { data: added }))).toHaveLength(1);
			expect(started(await deliver('q-5', { data: added }))).toHaveLength(1);
			expect(await surveyReads()).toBe(2);
			expect(started(await deliver('q-6', { workflowId: 'wf-questions-other' }))).toHaveLength(1);
			expect(await surveyReads()).toBe(3);
		});

		it('the 10-minute refresh keeps the answer ids learnt before (a hidden field): no read for each delivery that has them', async () => {
			const withHidden = { ...response.data, campaign: 'spring' };
			const { result } = await runWithFakeTime(async () => {
				started(await deliver('h-1', { data: withHidden, workflowId: 'wf-hidden' }));
				const first = await surveyReads();
				await sleep(11 * 60_000);
				// The kept survey is old: this delivery refreshes it in the background.
				started(await deliver('h-2', { workflowId: 'wf-hidden' }));
				await sleep(1_000);
				const refreshed = await surveyReads();
				started(await deliver('h-3', { data: withHidden, workflowId: 'wf-hidden' }));
				return { first, refreshed, last: await surveyReads() };
			});
			expect(result.refreshed).toBe(result.first + 1);
			expect(result.last).toBe(result.refreshed);
		});

		it('rate-limited: the delivery is started within Formbricks’ wait, without the questions and with every answer treated as personal; the read goes on for the next delivery', async () => {
			// A 429 closes Formbricks' window until the next minute of its clock (rate-limit.ts): the
			// read waits its turn in the rate budget, past the 5 s Formbricks waits for an answer.
			await fb.control('faults', 'PUT', { status: 429, count: 1, path: `/surveys/${surveys.residency}` });
			const readsBefore = await surveyReads();
			const { result } = await runWithFakeTime(async () => {
				// Half a second into a minute of the clock Formbricks' windows follow, so that its window
				// reopens long after the 3 s a delivery waits (late in a minute it would reopen sooner).
				await sleep(60_000 - (Date.now() % 60_000) + 500);
				const sent = Date.now();
				const first = await deliver('rl-1', { workflowId: 'wf-rate-limited' });
				const waitedMs = Date.now() - sent;
				await sleep(61_000);
				const readsMeanwhile = (await surveyReads()) - readsBefore;
				const second = await deliver('rl-2', { workflowId: 'wf-rate-limited' });
				return { first, waitedMs, readsMeanwhile, second };
			});
			expect(result.waitedMs).toBeLessThan(5_000);
			const [item] = started(result.first);
			expect(item.json.questionsUnavailable).toBe(true);
			// Keyed by question ID, as the questions' text is not known, and nothing in clear.
			expect(Object.keys(item.json.data as object).sort()).toEqual(Object.keys(response.data).sort());
			const output = JSON.stringify(item.json);
			for (const clear of ['Ada Lovelace', 'ada.lovelace@example.org', 'approved']) expect(output).not.toContain(clear);
			expect(result.first.warnings).toEqual([
				expect.stringMatching(/emitted delivery \w+ without the questions of survey \w+, which could not be read within 3 s/),
			]);
			// The read that met the 429 went on once the window reopened, after Formbricks had its answer:
			// the next delivery finds the questions kept.
			expect(result.readsMeanwhile).toBe(2);
			const [later] = started(result.second);
			expect(later.json.questionsUnavailable).toBeUndefined();
			expect(later.json.data).toHaveProperty(['Your full name']);
			// The one that met the 429, and the one sent again once the window reopened.
			expect((await surveyReads()) - readsBefore).toBe(2);
		});
	});

	it('Manual registration verifies with the credential’s Webhook Secret and parses Formbricks’ body', async () => {
		const call = attempt();
		call.parameters = { ...call.parameters, registration: 'manual' };
		call.staticData = {};
		call.credentials = { surveyApi: { ...credentials.surveyApi, webhookSecret: secret } };
		const [item] = started(await callWebhook(webhook, call));
		expect(item.json).toMatchObject({ event: 'responseFinished', responseId: responses.ada, webhookId: hookId });
	});
});
