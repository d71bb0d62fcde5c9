/* eslint-disable @n8n/community-nodes/no-restricted-imports */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { NodeApiError } from 'n8n-workflow';

import { sealingContext, SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { openSecret, sealSecret } from '../../nodes/shared/webhooks';
import { Sandbox, startSandbox } from '../sandbox';
import { runWithFakeTime } from './helpers/clock';
import { hookContext, Parameters } from './helpers/context';

jest.setTimeout(30_000);

interface RemoteHook {
	id: string;
	url: string;
	triggers: string[];
	surveyIds: string[];
}

describe('Survey Trigger registration against the sandbox', () => {
	let sandbox: Sandbox;
	const { checkExists, create, delete: remove } = new SurveyTrigger().webhookMethods.default;
	const url = 'http://127.0.0.1:5678/webhook/survey-hook/webhook';

	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => {
		await fetch(`${sandbox.survey.url}/_sandbox/reset`, { method: 'POST' });
	});

	const remoteHooks = async (): Promise<RemoteHook[]> =>
		(
			(await fetch(`${sandbox.survey.url}/api/v1/webhooks`, {
				headers: { 'x-api-key': sandbox.survey.apiKey },
			}).then(async (response) => await response.json())) as { data: RemoteHook[] }
		).data;

	const activate = async (
		parameters: Parameters,
		staticData: Record<string, unknown> = {},
		baseUrl?: string,
		webhookUrl = url,
	) => {
		const harness = hookContext({
			parameters: { registration: 'automatic', allSurveys: true, ...parameters },
			credentials: { surveyApi: { baseUrl: baseUrl ?? sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
			webhookUrl,
			staticData,
		});
		const exists = await checkExists.call(harness.context);
		if (!exists) await create.call(harness.context);
		return { ...harness, existed: exists };
	};

	it('registers its URL with the chosen events and keeps the id, the service and the secret (encrypted)', async () => {
		const { staticData, existed } = await activate({ events: ['responseFinished'] });
		expect(existed).toBe(false);
		const hooks = await remoteHooks();
		expect(hooks).toEqual([
			expect.objectContaining({ url, triggers: ['responseFinished'], surveyIds: [], id: staticData.webhookId }),
		]);
		expect(staticData.baseUrl).toBe(sandbox.survey.url);
		// Regression: the secret was kept in clear, readable by anyone who can read the workflow.
		expect(JSON.stringify(staticData)).not.toMatch(/whsec_/);
		const secret = openSecret(
			String(staticData.sealedSecret),
			sandbox.survey.apiKey,
			sealingContext(String(staticData.webhookId), sandbox.survey.url),
		);
		expect(secret).toMatch(/^whsec_/);
	});

	it('replaces a hook whose secret an earlier version kept in clear, and drops that secret', async () => {
		const first = await activate({ events: ['responseFinished'] });
		const clearText = `whsec_${Buffer.from('kept-in-clear').toString('base64')}`;
		const legacy = { webhookId: first.staticData.webhookId, secret: clearText };
		const again = await activate({ events: ['responseFinished'] }, legacy);
		expect(again.existed).toBe(false);
		expect(JSON.stringify(again.staticData)).not.toMatch(/whsec_/);
		expect((await remoteHooks()).map((hook) => hook.id)).toEqual([again.staticData.webhookId]);
	});

	describe('when the credential is switched to another service (regression: the old hook stayed)', () => {
		let other: Sandbox;
		beforeAll(async () => (other = await startSandbox()));
		afterAll(async () => await other?.stop());

		const hooksAt = async (service: Sandbox) =>
			(
				(await fetch(`${service.survey.url}/api/v1/webhooks`, {
					headers: { 'x-api-key': service.survey.apiKey },
				}).then(async (response) => await response.json())) as { data: RemoteHook[] }
			).data;

		it('removes the hook at the service it was registered at on activation', async () => {
			const first = await activate({ events: ['responseFinished'] });
			const second = await activate({ events: ['responseFinished'] }, first.staticData, other.survey.url);
			expect(second.existed).toBe(false);
			expect(await remoteHooks()).toEqual([]);
			expect((await hooksAt(other)).map((hook) => hook.id)).toEqual([second.staticData.webhookId]);
			expect(second.staticData.baseUrl).toBe(other.survey.url);
			await remove.call(second.context);
		});

		it('removes it there on deactivation', async () => {
			const first = await activate({ events: ['responseFinished'] });
			const hookId = String(first.staticData.webhookId);
			const switched = hookContext({
				parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'] },
				credentials: { surveyApi: { baseUrl: other.survey.url, apiKey: other.survey.apiKey } },
				webhookUrl: url,
				staticData: first.staticData,
			});
			await remove.call(switched.context);
			expect(await remoteHooks()).toEqual([]);
			// Looked for at the credential's address first (a service that moved keeps its hooks).
			expect(switched.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
				`GET ${other.survey.url}/api/v1/webhooks`,
				`DELETE ${sandbox.survey.url}/api/v1/webhooks/${hookId}`,
			]);
		});

		it('does not send the API key to a base URL written into static data by someone else', async () => {
			const first = await activate({ events: ['responseFinished'] });
			const forged = () => ({ ...first.staticData, baseUrl: other.survey.url });
			const harness = hookContext({
				parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'] },
				credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
				webhookUrl: url,
				staticData: forged(),
			});
			await remove.call(harness.context);
			expect(harness.requests.filter((request) => request.url.startsWith(other.survey.url))).toEqual([]);
			// The hook is the credential's service's: removed there.
			expect(await remoteHooks()).toEqual([]);

			// Not at the credential's service either: the key goes nowhere, and the log says so.
			const nowhere = hookContext({
				parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'] },
				credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
				webhookUrl: url,
				staticData: { ...forged(), webhookId: 'wh_unknown' },
			});
			await remove.call(nowhere.context);
			expect(nowhere.requests.filter((request) => request.url.startsWith(other.survey.url))).toEqual([]);
			expect(nowhere.warnings.join()).toMatch(/could not be removed/);
		});
	});

	describe('hooks left behind (issue 32 items 6 and 7)', () => {
		/** An address nothing answers at (port 1), as the old address of a service that moved. */
		const nowhere = 'http://127.0.0.1:1';
		/** The record `create` keeps for a hook registered while the service answered at `baseUrl`. */
		const storedAt = (baseUrl: string, webhookId: string, secret: string) => ({
			webhookId,
			baseUrl,
			sealedSecret: sealSecret(secret, sandbox.survey.apiKey, sealingContext(webhookId, baseUrl)),
		});

		it('n8n’s URL changed (WEBHOOK_URL, a new domain): activation removes the hook it registered at the old URL', async () => {
			const first = await activate({ events: ['responseFinished'] });
			const movedUrl = 'http://127.0.0.1:5679/webhook/survey-hook/webhook';
			const moved = await activate({ events: ['responseFinished'] }, first.staticData, undefined, movedUrl);
			expect(moved.existed).toBe(false);
			expect((await remoteHooks()).map((hook) => [hook.id, hook.url])).toEqual([[moved.staticData.webhookId, movedUrl]]);
		});

		it('the survey service moved to a new address: the hook is removed there and activation goes on (regression: "cannot be reached")', async () => {
			const first = await activate({ events: ['responseFinished'] });
			const { apiKey } = sandbox.survey;
			const secretOf = (staticData: Record<string, unknown>) =>
				String(openSecret(String(staticData.sealedSecret), apiKey, sealingContext(String(staticData.webhookId), sandbox.survey.url)));
			const moved = await activate(
				{ events: ['responseFinished'] },
				storedAt(nowhere, String(first.staticData.webhookId), secretOf(first.staticData)),
			);
			expect(moved.existed).toBe(false);
			expect((await remoteHooks()).map((hook) => hook.id)).toEqual([moved.staticData.webhookId]);
			expect(moved.staticData.baseUrl).toBe(sandbox.survey.url);
			expect(moved.requests.filter((request) => request.url.startsWith(nowhere))).toEqual([]);

			// Deactivated after the move, before an activation renewed the record: removed at the new address too.
			const again = await activate({ events: ['responseFinished'] });
			const deactivation = hookContext({
				parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'] },
				credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey } },
				webhookUrl: url,
				staticData: storedAt(nowhere, String(again.staticData.webhookId), secretOf(again.staticData)),
			});
			await remove.call(deactivation.context);
			expect(await remoteHooks()).toEqual([]);
			expect(deactivation.requests.filter((request) => request.url.startsWith(nowhere))).toEqual([]);
		});

		it('a hook at an old address nothing answers at any more, and not at the new one: activation goes on and the log says where it was', async () => {
			const secret = `whsec_${Buffer.from('a hook of a service gone').toString('base64')}`;
			const { result: again } = await runWithFakeTime(
				async () => await activate({ events: ['responseFinished'] }, storedAt(nowhere, 'wh_left', secret)),
			);
			expect(again.existed).toBe(false);
			expect((await remoteHooks()).map((hook) => hook.id)).toEqual([again.staticData.webhookId]);
			expect(again.warnings).toEqual([
				expect.stringContaining(`the webhook wh_left this trigger registered at ${nowhere} could not be removed there`),
			]);
		});
	});

	it('reuses its hook when nothing changed', async () => {
		const first = await activate({ events: ['responseFinished'] });
		const second = await activate({ events: ['responseFinished'] }, first.staticData);
		expect(second.existed).toBe(true);
		expect((await remoteHooks()).map((hook) => hook.id)).toEqual([first.staticData.webhookId]);
	});

	it('registers again when the events or surveys change, removing the old hook', async () => {
		const first = await activate({ events: ['responseFinished'] });
		const oldId = first.staticData.webhookId;
		const second = await activate(
			{ events: ['responseFinished', 'responseCreated'], allSurveys: false, surveyIds: ['srv_a'] },
			first.staticData,
		);
		expect(second.existed).toBe(false);
		const hooks = await remoteHooks();
		expect(hooks).toHaveLength(1);
		expect(hooks[0].id).not.toBe(oldId);
		expect(hooks[0].triggers.sort()).toEqual(['responseCreated', 'responseFinished']);
		expect(hooks[0].surveyIds).toEqual(['srv_a']);
	});

	it('replaces a hook of its URL whose secret it does not know', async () => {
		await activate({ events: ['responseFinished'] });
		const fresh = await activate({ events: ['responseFinished'] }, {});
		expect(fresh.existed).toBe(false);
		expect((await remoteHooks()).map((hook) => hook.id)).toEqual([fresh.staticData.webhookId]);
	});

	it('deletes its hook on deactivation, and tolerates one already gone', async () => {
		const { context, staticData } = await activate({ events: ['responseFinished'] });
		const id = String(staticData.webhookId);
		expect(await remove.call(context)).toBe(true);
		expect(await remoteHooks()).toEqual([]);
		expect(staticData).toEqual({});
		staticData.webhookId = id;
		expect(await remove.call(context)).toBe(true);
	});

	it('a new hook without a usable secret that cannot be removed: the missing secret is the error, the hook left is in the log', async () => {
		const secretGiven = 'not-a-standard-secret';
		const server = createServer((request, response) => {
			const answer = (status: number, body: unknown) =>
				response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
			if (request.method === 'GET') answer(200, { data: [] });
			else if (request.method === 'POST') answer(201, { data: { id: 'wh_nosecret', secret: secretGiven } });
			else answer(500, { message: 'Database unavailable' });
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		try {
			const harness = hookContext({
				parameters: { registration: 'automatic', allSurveys: true, events: ['responseFinished'] },
				credentials: { surveyApi: { baseUrl: `http://127.0.0.1:${port}`, apiKey: sandbox.survey.apiKey } },
				webhookUrl: url,
				staticData: {},
			});
			const error = await create.call(harness.context).catch((e) => e);
			expect(error.message).toBe('The survey service returned no usable signing secret for the new webhook');
			expect(error.description).toContain('wh_nosecret could not be removed');
			expect(harness.staticData.webhookId).toBeUndefined();
			expect(harness.warnings).toHaveLength(1);
			expect(harness.warnings[0]).toContain('wh_nosecret');
			expect(harness.warnings[0]).toContain('Database unavailable');
			expect(harness.warnings.join()).not.toContain(secretGiven);
			expect(harness.warnings.join()).not.toContain(sandbox.survey.apiKey);
		} finally {
			server.close();
		}
	});

	it('reports a service without the webhook API with a hint to register manually', async () => {
		// An older deployment: every route of the webhook API answers 404.
		const server = createServer((_, response) => response.writeHead(404).end('Not Found'));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		try {
			const error = await activate({ events: ['responseFinished'] }, {}, `http://127.0.0.1:${port}`).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('404');
			expect(`${error.message} ${error.description}`).toMatch(/Manual/);
		} finally {
			server.close();
		}
	});

	it('does not touch the service in Manual registration', async () => {
		const harness = hookContext({
			parameters: { registration: 'manual', events: ['responseFinished'] },
			credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
			webhookUrl: url,
		});
		expect(await checkExists.call(harness.context)).toBe(true);
		expect(await remove.call(harness.context)).toBe(true);
		expect(harness.requests).toHaveLength(0);
	});
});
