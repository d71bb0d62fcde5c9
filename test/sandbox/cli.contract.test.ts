/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

import { DEFAULT_KEYS, DOCUMENSO_DEFAULT_KEY, SEED } from './index';
import { call, eventually, type Receiver, startReceiver } from './testkit';

// Bounds that only end a hung run: starting ts-node on a busy machine takes what it takes.
jest.setTimeout(300_000);
const HUNG_AFTER_MS = 120_000;

const ROOT = resolve(__dirname, '../..');
const TS_NODE = require.resolve('ts-node/dist/bin.js');

interface Child {
	process: ChildProcess;
	/** Resolves with the first line the process writes to stdout. */
	firstLine: Promise<string>;
	exit: Promise<{ code: number | null }>;
	stderr(): string;
}

/** Runs node with `args`; a process still running after `timeoutMs` is killed, so that a hang fails the test. */
function run(args: string[], env: Record<string, string> = {}, timeoutMs = HUNG_AFTER_MS): Child {
	// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- the test runs the CLI it tests
	const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env } });
	const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
	let stdout = '';
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exit = once(child, 'exit').then(([code]) => {
		clearTimeout(killer);
		return { code: code as number | null };
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
			// The machine's clock by default: time is not the test's to move.
			expect((await call(`${printed.survey.url}/_sandbox/clock`)).json).toEqual({
				mode: 'system',
				now: expect.stringMatching(/Z$/),
				pending: [],
			});
			const advance = await call(`${printed.survey.url}/_sandbox/clock/advance`, {
				method: 'POST',
				body: { ms: 1_000 },
			});
			expect(advance.status).toBe(409);
			expect(advance.json.message).toContain('SANDBOX_CLOCK=manual');
		} finally {
			child.process.kill('SIGTERM');
		}
		expect((await child.exit).code).toBe(0);
	});

	it('runs on a clock moved only through the control API with SANDBOX_CLOCK=manual', async () => {
		receiver.clear();
		receiver.answers = [500];
		const child = run([TS_NODE, '--transpile-only', 'test/sandbox/cli.ts'], {
			SANDBOX_SIGNING_PORT: '0',
			SANDBOX_BOOKMARK_PORT: '0',
			SANDBOX_SURVEY_PORT: '0',
			SANDBOX_SIGNING_WEBHOOKS: JSON.stringify([{ url: receiver.url }]),
			SANDBOX_CLOCK: 'manual',
		});
		try {
			const printed = JSON.parse(await child.firstLine);
			const clock = async () => (await call(`${printed.bookmark.url}/_sandbox/clock`)).json;
			const advance = async (ms: number) =>
				await call(`${printed.survey.url}/_sandbox/clock/advance`, { method: 'POST', body: { ms } });
			const started = await clock();
			expect(started).toMatchObject({ mode: 'manual', pending: [] });

			// A rate-limit window: one request a minute, freed when the test moves time on.
			await call(`${printed.bookmark.url}/_sandbox/rate-limit`, { method: 'PUT', body: { limit: 1 } });
			const lists = async () =>
				await call(`${printed.bookmark.url}/api/v1/lists`, {
					headers: { authorization: `Bearer ${printed.bookmark.apiKey}` },
				});
			expect((await lists()).status).toBe(200);
			const refused = await lists();
			expect(refused.status).toBe(429);
			expect(refused.headers.get('retry-after')).toBe('60');
			// One clock for the three services: moved through the survey service, it frees the bookmark one.
			const moved = await advance(60_000);
			expect(moved.json).toEqual({ now: expect.any(String), ended: [], pending: [] });
			expect(Date.parse(moved.json.now) - Date.parse(started.now)).toBe(60_000);
			expect((await lists()).status).toBe(200);

			// A webhook retry waits for the clock: the second attempt comes once time moved 500 ms.
			await call(`${printed.signing.url}/api/v2/templates/${SEED.residencyTemplateId}/generate-document`, {
				method: 'POST',
				headers: { authorization: `Bearer ${printed.signing.apiKey}` },
				body: { title: 'T', recipients: [{ name: 'A', email: 'a@example.org', role: 'SIGNER' }] },
			});
			await receiver.waitFor(1);
			const waiting = await eventually('the webhook retry to wait', async () => {
				const { pending } = await clock();
				return pending.some((wait: { purpose: string }) => wait.purpose === 'webhook retry') && pending;
			});
			expect(waiting).toEqual([{ purpose: 'webhook retry', inMs: 500 }]);
			expect((await advance(500)).json.ended).toEqual(['webhook retry']);
			const [first, retried] = await receiver.waitFor(2);
			expect(retried.headers['x-signing-delivery']).toBe(first.headers['x-signing-delivery']);
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
			// A Documenso after 1 March 2027 by default: the envelope routes only.
			const templates = await call(`${printed.signing.url}/api/v2/envelope?type=TEMPLATE`, { headers });
			expect(templates.json).toMatchObject({ count: 2, currentPage: 1 });
			expect((await call(`${printed.signing.url}/api/v2/template`, { headers })).status).toBe(404);
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
		// A retry an hour away and a receiver that always fails: a timer left behind would keep the
		// process alive until it is killed as hung (no exit code), long before the hour is up.
		const script = `
			const { createServer } = require('node:http');
			const { startSandbox, SEED } = require('./test/sandbox');
			(async () => {
				const receiver = createServer((request, response) => request.resume().on('end', () => response.writeHead(500).end()));
				await new Promise((done) => receiver.listen(0, '127.0.0.1', done));
				const firstAttempt = new Promise((done) => receiver.once('request', done));
				const url = 'http://127.0.0.1:' + receiver.address().port + '/hook';
				const sandbox = await startSandbox({ webhookRetryDelayMs: 3600000, signingWebhookEndpoints: [{ url }] });
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
		const child = run(['-r', 'ts-node/register/transpile-only', '-e', script]);
		expect(await child.firstLine).toBe('stopped');
		expect((await child.exit).code).toBe(0);
	});
});
