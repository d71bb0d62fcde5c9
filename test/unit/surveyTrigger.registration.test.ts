/* eslint-disable @n8n/community-nodes/no-restricted-imports */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { NodeApiError } from 'n8n-workflow';

import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { Sandbox, startSandbox } from '../sandbox';
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

	const activate = async (parameters: Parameters, staticData: Record<string, unknown> = {}, baseUrl?: string) => {
		const harness = hookContext({
			parameters: { registration: 'automatic', allSurveys: true, ...parameters },
			credentials: { surveyApi: { baseUrl: baseUrl ?? sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
			webhookUrl: url,
			staticData,
		});
		const exists = await checkExists.call(harness.context);
		if (!exists) await create.call(harness.context);
		return { ...harness, existed: exists };
	};

	it('registers its URL with the chosen events and keeps the id and secret', async () => {
		const { staticData, existed } = await activate({ events: ['responseFinished'] });
		expect(existed).toBe(false);
		const hooks = await remoteHooks();
		expect(hooks).toEqual([
			expect.objectContaining({ url, triggers: ['responseFinished'], surveyIds: [], id: staticData.webhookId }),
		]);
		expect(staticData.secret).toMatch(/^whsec_/);
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
