import { freePort, N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { createCredential } from '../harness/provision';
import { Sandbox, startSandbox } from '../sandbox';
import { type FormbricksSandbox, startFormbricks } from '../sandbox/formbricks';

jest.setTimeout(300_000);

/**
 * "Test credential" in a real n8n, through the same REST call the editor makes. Each of the
 * four ways the settings can be wrong gets its own message (issue 18 items 1 and 2).
 */
describe('"Test credential" in a real n8n', () => {
	let sandbox: Sandbox;
	let formbricks: FormbricksSandbox;
	let n8n: N8nInstance;
	let closedPort: number;

	beforeAll(async () => {
		sandbox = await startSandbox();
		formbricks = await startFormbricks();
		n8n = await startN8n({ packageTarball: await packPackage() });
		closedPort = await freePort();
	});
	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
		await formbricks?.stop();
	});

	/** Saves the credential, then presses "Test" on it as the editor does. */
	const test = async (type: string, data: Record<string, string>) => {
		const saved = await createCredential(n8n, `${type} under test ${Math.random()}`, type, data);
		return await n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', {
			credentials: { id: saved.id, name: saved.name, type, data },
		});
	};

	type Case = {
		type: string;
		service: string;
		secretField: string;
		secret: string;
		url: string;
		apiPrefix: string;
		otherService: string;
	};
	const cases = (): Case[] => [
		{
			type: 'signingApi',
			service: 'signing service',
			secretField: 'apiToken',
			secret: sandbox.signing.apiKey,
			url: sandbox.signing.url,
			apiPrefix: '/api/v2',
			otherService: sandbox.bookmark.url,
		},
		{
			type: 'bookmarkApi',
			service: 'bookmark service',
			secretField: 'apiKey',
			secret: sandbox.bookmark.apiKey,
			url: sandbox.bookmark.url,
			apiPrefix: '/api/v1',
			otherService: sandbox.survey.url,
		},
		{
			type: 'surveyApi',
			service: 'survey service',
			secretField: 'apiKey',
			secret: sandbox.survey.apiKey,
			url: sandbox.survey.url,
			apiPrefix: '/api/v1',
			otherService: sandbox.signing.url,
		},
	];
	const each = (title: string, body: (c: Case) => Promise<void>) =>
		it.each(['signingApi', 'bookmarkApi', 'surveyApi'])(`%s: ${title}`, async (type) => {
			await body(cases().find((c) => c.type === type)!);
		});

	each(
		'succeeds with the right settings (with or without a trailing slash)',
		async ({ type, url, secretField, secret }) => {
			expect(await test(type, { baseUrl: url, [secretField]: secret })).toMatchObject({
				status: 'OK',
			});
			expect(await test(type, { baseUrl: `${url}/`, [secretField]: secret })).toMatchObject({
				status: 'OK',
			});
		},
	);

	each('says the key was refused', async ({ type, url, secretField, service }) => {
		const result = await test(type, { baseUrl: url, [secretField]: 'wrong-secret' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			new RegExp(`^The ${service} refused the API (token|key) \\(401\\)`),
		);
		expect(result.message).not.toContain('wrong-secret');
	});

	each('says an unreachable URL cannot be reached', async ({ type, secretField, secret }) => {
		const result = await test(type, {
			baseUrl: `http://127.0.0.1:${closedPort}`,
			[secretField]: secret,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			new RegExp(`^Cannot reach http://127\\.0\\.0\\.1:${closedPort}: nothing accepts connections`),
		);
	});

	each(
		'says a Base URL that is not an http(s) URL is not one',
		async ({ type, secretField, secret }) => {
			for (const baseUrl of [
				'sign.example.com',
				'ftp://files.example.com',
				'http//missing-colon',
			]) {
				const result = await test(type, { baseUrl, [secretField]: secret });
				expect(result.status).toBe('Error');
				expect(result.message).toBe(
					`The Base URL "${baseUrl}" is not a valid http(s) URL: give the address of your ${cases().find((c) => c.type === type)!.service}, starting with http:// or https://.`,
				);
			}
		},
	);

	each(
		'says another service is not this one',
		async ({ type, secretField, secret, service, otherService }) => {
			const result = await test(type, { baseUrl: otherService, [secretField]: secret });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				new RegExp(`^Something answers at ${otherService}, but it is not the ${service} API`),
			);
		},
	);

	each('says n8n itself is not this service', async ({ type, secretField, secret, service }) => {
		const result = await test(type, { baseUrl: n8n.baseUrl, [secretField]: secret });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			new RegExp(`^Something answers at ${n8n.baseUrl}, but it is not the ${service} API`),
		);
	});

	each(
		'says a Base URL with the API path in it has an extra path',
		async ({ type, url, secretField, secret, service, apiPrefix }) => {
			const result = await test(type, { baseUrl: `${url}${apiPrefix}`, [secretField]: secret });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				new RegExp(`^Something answers at ${url}${apiPrefix}, but it is not the ${service} API`),
			);
			expect(result.message).toContain(`Remove ${apiPrefix} from the end of the Base URL.`);
		},
	);

	describe('Survey API with its API option (documented or Formbricks)', () => {
		it('Formbricks chosen, a Formbricks server: connected, naming the workspace', async () => {
			const result = await test('surveyApi', { api: 'formbricks', baseUrl: formbricks.url, apiKey: formbricks.apiKey });
			expect(result).toEqual({ status: 'OK', message: expect.stringMatching(/^Connected to Formbricks, workspace "Residency programme"/) });
		});

		it('the documented API chosen, a Formbricks server: says to choose Formbricks', async () => {
			const result = await test('surveyApi', { api: 'documented', baseUrl: formbricks.url, apiKey: formbricks.apiKey });
			expect(result).toEqual({
				status: 'Error',
				message: 'This server answers like Formbricks: choose "Formbricks" under API in this credential.',
			});
		});

		it('Formbricks chosen, a server of the documented API: says to choose the documented API', async () => {
			const result = await test('surveyApi', { api: 'formbricks', baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey });
			expect(result).toEqual({
				status: 'Error',
				message:
					'This server answers like the documented survey API: choose "Documented API (the Sandbox, or a Server Built to the README)" under API in this credential.',
			});
		});
	});

	// Issue 32 item 17: n8n 1.123.81's public API made a field shown for one API (`displayOptions.show`)
	// a requirement whenever `api` was left out (its credentials.service.js toJsonSchema), so a
	// Survey credential given as the first release took it was refused "requires property workspaceId".
	it.each([
		['signingApi', () => ({ baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey })],
		['bookmarkApi', () => ({ baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey })],
		['surveyApi', () => ({ baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey })],
		['surveyApi', () => ({ api: 'formbricks', baseUrl: formbricks.url, apiKey: formbricks.apiKey })],
		['bookmarkApi', () => ({ api: 'karakeep', baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey })],
		['surveyApi', () => ({ api: 'documented', baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey, workspaceId: '' })],
	])('the public API accepts a %s credential given with its Base URL and key alone (or with its API named)', async (type, data) => {
		const saved = await createCredential(n8n, `${type} by the public API ${Math.random()}`, type, data());
		expect(saved.id).toEqual(expect.any(String));
	});
});
