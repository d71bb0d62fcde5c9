import { N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { Sandbox, startSandbox } from '../sandbox';

jest.setTimeout(300_000);

describe('"Test credential" in a real n8n', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;

	beforeAll(async () => {
		sandbox = await startSandbox();
		n8n = await startN8n({ packageTarball: await packPackage() });
	});
	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
	});

	/** Saves the credential, then presses "Test" on it as the editor does. */
	const test = async (type: string, data: Record<string, string>) => {
		const saved = await n8n.api<{ id: string; name: string }>('POST', '/credentials', {
			name: `${type} under test ${Math.random()}`,
			type,
			data,
		});
		return await n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', {
			credentials: { id: saved.id, name: saved.name, type, data },
		});
	};

	const cases = () => [
		{ type: 'signingApi', url: sandbox.signing.url, secretField: 'apiToken', secret: sandbox.signing.apiKey },
		{ type: 'bookmarkApi', url: sandbox.bookmark.url, secretField: 'apiKey', secret: sandbox.bookmark.apiKey },
		{ type: 'surveyApi', url: sandbox.survey.url, secretField: 'apiKey', secret: sandbox.survey.apiKey },
	];

	it.each(['signingApi', 'bookmarkApi', 'surveyApi'])('%s: succeeds with the right secret', async (type) => {
		const { url, secretField, secret } = cases().find((c) => c.type === type)!;
		expect(await test(type, { baseUrl: url, [secretField]: secret })).toMatchObject({ status: 'OK' });
	});

	it.each(['signingApi', 'bookmarkApi', 'surveyApi'])('%s: says a wrong secret is refused', async (type) => {
		const { url, secretField } = cases().find((c) => c.type === type)!;
		const result = await test(type, { baseUrl: `${url}/`, [secretField]: 'wrong-secret' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused|401/i);
	});

	it.each(['signingApi', 'bookmarkApi', 'surveyApi'])('%s: says an unreachable URL cannot be reached', async (type) => {
		const { secretField, secret } = cases().find((c) => c.type === type)!;
		const result = await test(type, { baseUrl: 'http://127.0.0.1:1', [secretField]: secret });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/ECONNREFUSED|reach|refused the connection/i);
	});
});
