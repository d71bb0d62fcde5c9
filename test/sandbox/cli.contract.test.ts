/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

import { DEFAULT_KEYS, DOCUMENSO_DEFAULT_KEY } from './index';
import { call, type Receiver, startReceiver } from './testkit';

jest.setTimeout(30_000);

const ROOT = resolve(__dirname, '../..');
const TS_NODE = require.resolve('ts-node/dist/bin.js');

interface Child {
	process: ChildProcess;
	/** Resolves with the first line the process writes to stdout. */
	firstLine: Promise<string>;
	exit: Promise<{ code: number | null; at: number }>;
	stderr(): string;
}

/** Runs node with `args`; a process still running after `timeoutMs` is killed, so that a hang fails the test. */
function run(args: string[], env: Record<string, string> = {}, timeoutMs = 15_000): Child {
	// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- the test runs the CLI it tests
	const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env } });
	const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
	let stdout = '';
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exit = once(child, 'exit').then(([code]) => {
		clearTimeout(killer);
		return { code: code as number | null, at: Date.now() };
	});
	const firstLine = new Promise<string>((resolveLine, reject) => {
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			if (stdout.includes('\n')) resolveLine(stdout.split('\n')[0]);
		});
		void exit.then(({ code }) => reject(new Error(`exited with ${code} before a line: ${stderr}`)));
	});
	firstLine.catch(() => undefined);
	return { process: child, firstLine, exit, stderr: () => stderr };
}

describe('sandbox CLI', () => {
	let receiver: Receiver;
	beforeAll(async () => (receiver = await startReceiver()));
	afterAll(async () => await receiver.close());


	it('starts the survey service as Formbricks with SANDBOX_SURVEY_API=formbricks', async () => {
		const child = run([TS_NODE, '--transpile-only', 'test/sandbox/cli.ts'], {
			SANDBOX_SIGNING_PORT: '0',
			SANDBOX_BOOKMARK_PORT: '0',
			SANDBOX_SURVEY_PORT: '0',
			SANDBOX_SURVEY_API: 'formbricks',
		});
		try {
			const { survey } = JSON.parse(await child.firstLine);
			expect(survey).toEqual({ url: expect.any(String), apiKey: DEFAULT_KEYS.survey, api: 'formbricks' });
			const me = await call(`${survey.url}/api/v1/management/me`, { headers: { 'x-api-key': survey.apiKey } });
			expect(me.json.workspace).toEqual({ id: expect.any(String), name: 'Residency programme' });
		} finally {
			child.process.kill('SIGTERM');
			await child.exit;
		}
	});
	it('prints each service’s URL and key once listening, serves, and stops on SIGTERM', async () => {
		const endpoints = [{ url: receiver.url, secret: 'cli-secret' }];
		const child = run([TS_NODE, '--transpile-only', 'test/sandbox/cli.ts'], {
			// Port 0: a free port, so that the test does not depend on 4101-4103 being free.
			SANDBOX_SIGNING_PORT: '0',
			SANDBOX_BOOKMARK_PORT: '0',
			SANDBOX_SURVEY_PORT: '0',
			SANDBOX_SIGNING_WEBHOOKS: JSON.stringify(endpoints),
		});
		try {
			const printed = JSON.parse(await child.firstLine);
			expect(printed).toEqual({
				signing: {
					url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
					apiKey: DEFAULT_KEYS.signing,
				},
				bookmark: {
					url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
					apiKey: DEFAULT_KEYS.bookmark,
				},
				survey: {
					url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
					apiKey: DEFAULT_KEYS.survey,
				},
			});
			for (const service of ['signing', 'bookmark', 'survey']) {
				expect((await call(`${printed[service].url}/_sandbox/health`)).json).toMatchObject({
					ok: true,
					service,
				});
			}
			const configured = await call(`${printed.signing.url}/_sandbox/webhook-endpoints`);
			expect(configured.json.endpoints).toEqual([{ id: expect.any(String), ...endpoints[0] }]);
		} finally {
			child.process.kill('SIGTERM');
		}
		expect((await child.exit).code).toBe(0);
	});

	it('makes the signing service a Documenso with SANDBOX_SIGNING_API=documenso', async () => {
		const child = run([TS_NODE, '--transpile-only', 'test/sandbox/cli.ts'], {
			SANDBOX_SIGNING_PORT: '0',
			SANDBOX_BOOKMARK_PORT: '0',
			SANDBOX_SURVEY_PORT: '0',
			SANDBOX_SIGNING_API: 'documenso',
			SANDBOX_SIGNING_WEBHOOKS: JSON.stringify([{ url: receiver.url, secret: 'cli-secret' }]),
		});
		try {
			const printed = JSON.parse(await child.firstLine);
			expect(printed.signing.apiKey).toBe(DOCUMENSO_DEFAULT_KEY);
			const headers = { authorization: `Bearer ${printed.signing.apiKey}` };
			const templates = await call(`${printed.signing.url}/api/v2/template`, { headers });
			expect(templates.json).toMatchObject({ count: 2, currentPage: 1 });
			const configured = await call(`${printed.signing.url}/_sandbox/webhook-endpoints`);
			expect(configured.json.endpoints).toMatchObject([
				{ webhookUrl: receiver.url, secret: 'cli-secret' },
			]);
		} finally {
			child.process.kill('SIGTERM');
		}
		expect((await child.exit).code).toBe(0);
	});

	it('refuses an unknown SANDBOX_SIGNING_API', async () => {
		const child = run([TS_NODE, '--transpile-only', 'test/sandbox/cli.ts'], {
			SANDBOX_SIGNING_API: 'docusign',
		});
		expect((await child.exit).code).toBe(1);
		expect(child.stderr()).toContain('SANDBOX_SIGNING_API');
	});

	it('refuses a port that is not a number', async () => {
		const child = run([TS_NODE, '--transpile-only', 'test/sandbox/cli.ts'], {
			SANDBOX_SURVEY_PORT: 'survey',
		});
		expect((await child.exit).code).toBe(1);
		expect(child.stderr()).toContain('SANDBOX_SURVEY_PORT');
	});

	it('leaves nothing running after stop(): a process with a retry pending exits by itself', async () => {
		// A retry 60 s away and a receiver that always fails: a timer left behind would keep the process alive.
		const script = `
			const { createServer } = require('node:http');
			const { startSandbox, SEED } = require('./test/sandbox');
			(async () => {
				const receiver = createServer((request, response) => request.resume().on('end', () => response.writeHead(500).end()));
				await new Promise((done) => receiver.listen(0, '127.0.0.1', done));
				const firstAttempt = new Promise((done) => receiver.once('request', done));
				const url = 'http://127.0.0.1:' + receiver.address().port + '/hook';
				const sandbox = await startSandbox({ webhookRetryDelayMs: 60000, signingWebhookEndpoints: [{ url }] });
				const response = await fetch(sandbox.signing.url + '/api/v2/templates/' + SEED.residencyTemplateId + '/generate-document', {
					method: 'POST',
					headers: { authorization: 'Bearer ' + sandbox.signing.apiKey, 'content-type': 'application/json' },
					body: JSON.stringify({ title: 'T', recipients: [{ name: 'A', email: 'a@example.org', role: 'SIGNER' }] }),
				});
				await response.text();
				await firstAttempt;
				await sandbox.stop();
				receiver.closeAllConnections();
				receiver.close();
				process.stdout.write('stopped\\n');
			})();
		`;
		const child = run(['-r', 'ts-node/register/transpile-only', '-e', script], {}, 10_000);
		expect(await child.firstLine).toBe('stopped');
		const stoppedAt = Date.now();
		const { code, at } = await child.exit;
		expect(code).toBe(0);
		expect(at - stoppedAt).toBeLessThan(3_000);
	});
});
