/* eslint-disable @typescript-eslint/no-explicit-any -- node outputs and Karakeep's answers are JSON; each test states what it expects */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: it runs a local stand-in for OpenAI */
/**
 * Bookmark → Check URL and Bookmark → Summarize (issue 44) on the real Karakeep, each request checked
 * against Karakeep's OpenAPI file by the validating mock in front of it. Summarize runs twice: on a
 * Karakeep without an AI provider (its 400 "No inference client configured"), and on one whose
 * OPENAI_BASE_URL is a local stand-in for OpenAI's chat completions (packages/shared/inference.ts
 * `OpenAIInferenceClient.inferFromText`), after which the summary is read back through Karakeep's API.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import type { KarakeepServer } from '../harness/karakeep';
import type { KarakeepSpecMock } from '../harness/karakeepSpecMock';
import { executeContext } from '../unit/helpers/context';
import { expectStatus } from './api';
import { byId, karakeepBehindSpec, nodeFailure, runNode } from './node';

const SUMMARY = 'A short summary, as the AI wrote it.';
const prompts: string[] = [];
let openAi: http.Server;
const withAi = { env: {} as Record<string, string> };

beforeAll(async () => {
	// OpenAI's chat completions, as much of them as Karakeep's client reads.
	openAi = http.createServer((request, response) => {
		let body = '';
		request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
		request.on('end', () => {
			if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
				response.writeHead(404).end();
				return;
			}
			prompts.push(String(JSON.parse(body).messages?.[0]?.content ?? ''));
			response.writeHead(200, { 'content-type': 'application/json' }).end(
				JSON.stringify({
					id: 'chatcmpl-1',
					object: 'chat.completion',
					created: 1,
					model: 'stand-in',
					choices: [{ index: 0, message: { role: 'assistant', content: SUMMARY }, finish_reason: 'stop' }],
					usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
				}),
			);
		});
	});
	await new Promise<void>((resolve) => openAi.listen(0, '127.0.0.1', resolve));
	const { port } = openAi.address() as AddressInfo;
	Object.assign(withAi.env, { OPENAI_API_KEY: 'sk-stand-in', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` });
});
afterAll(async () => {
	await new Promise((resolve) => openAi?.close(resolve));
});

// Started after the stand-in (hooks run in the order they are declared), with its address.
const plain = karakeepBehindSpec();
const ai = karakeepBehindSpec(withAi);
let karakeep: KarakeepServer;
let mock: KarakeepSpecMock;
let viaSpec: { url: string; apiKey: string };
beforeAll(() => ({ karakeep, mock, viaSpec } = plain));

const newLink = async (server: { url: string; apiKey: string }, url: string) =>
	(await expectStatus(201, server, 'POST', '/bookmarks', { body: { type: 'link', url, title: 'A page about tides' } })).json;

describe('Bookmark → Check URL', () => {
	test('a saved link: saved, with its record; Karakeep ignores a fragment and a trailing slash; an unknown link: not saved', async () => {
		const record = await newLink(karakeep, 'https://example.org/check/tides');
		const check = async (url: string) => (await runNode(viaSpec, { resource: 'bookmark', operation: 'checkUrl', url })).json;
		expect(await check('https://example.org/check/tides')).toEqual([{ url: 'https://example.org/check/tides', saved: true, recordId: record.id }]);
		expect(await check('https://example.org/check/tides/#part-2')).toEqual([
			{ url: 'https://example.org/check/tides/#part-2', saved: true, recordId: record.id },
		]);
		expect(await check('https://example.org/check/tid')).toEqual([{ url: 'https://example.org/check/tid', saved: false, recordId: null }]);
		// Nothing was saved by looking.
		const { json } = await expectStatus(200, karakeep, 'GET', '/bookmarks', { query: { limit: 100 } });
		expect(json.bookmarks.filter((bookmark: any) => bookmark.content?.url?.startsWith('https://example.org/check/'))).toHaveLength(1);
	});

	test('not an http(s) URL: refused naming the field, before any request; the documented API: the shared error', async () => {
		const before = mock.requests.length;
		const refused = await nodeFailure(viaSpec, { resource: 'bookmark', operation: 'checkUrl', url: 'tides' });
		expect(refused.message).toContain('URL');
		expect(refused.message).toContain('"tides" is not an http(s) URL');
		expect(mock.requests.length).toBe(before);
		const { context } = executeContext({
			parameters: { resource: 'bookmark', operation: 'checkUrl', url: 'https://example.org/' },
			credentials: { bookmarkApi: { api: 'documented', baseUrl: viaSpec.url, apiKey: viaSpec.apiKey } },
		});
		const documented = await new Bookmarks().execute.call(context).then(
			() => new Error('Expected the node to fail'),
			(error: Error) => error,
		);
		expect(documented.message).toMatch(/^Bookmark → Check URL is available with the Karakeep API; this credential uses/);
		expect(mock.requests.length).toBe(before);
	});
});

describe('Bookmark → Summarize', () => {
	test('without an AI provider: Karakeep’s own message, and what the server needs', async () => {
		const record = await newLink(karakeep, 'https://example.org/summarize/none');
		const error = await nodeFailure(viaSpec, { resource: 'bookmark', operation: 'summarize', recordId: byId(record.id) });
		expect(error.message).toContain('No inference client configured');
		expect(error.description).toContain('OPENAI_API_KEY');
		expect((await expectStatus(200, karakeep, 'GET', `/bookmarks/${record.id}`)).json.summary).toBeNull();
	});

	test('with one: the summary, stored on the record (read back through Karakeep’s API)', async () => {
		const server = ai.viaSpec;
		const record = await newLink(ai.karakeep, 'https://example.org/summarize/tides');
		const asked = prompts.length;
		const { json } = await runNode(server, { resource: 'bookmark', operation: 'summarize', recordId: byId(record.id) });
		expect(json).toEqual([{ recordId: record.id, summary: SUMMARY }]);
		// Karakeep asked the AI once, with its summary prompt (the page's crawled details: none here, uncrawled).
		expect(prompts.slice(asked)).toEqual([expect.stringContaining('Title:')]);
		expect((await expectStatus(200, ai.karakeep, 'GET', `/bookmarks/${record.id}`)).json.summary).toBe(SUMMARY);
	});

	test('a text record: Karakeep summarizes links only, and says so', async () => {
		const text = (await expectStatus(201, ai.karakeep, 'POST', '/bookmarks', { body: { type: 'text', text: 'Just a note' } })).json;
		const error = await nodeFailure(ai.viaSpec, { resource: 'bookmark', operation: 'summarize', recordId: byId(text.id) });
		expect(error.message).toContain('not a link');
		expect(error.description).toContain('link records only');
	});

	test('as an AI agent’s tool: refused without the author’s consent, nothing sent; with it, summarized', async () => {
		const record = await newLink(ai.karakeep, 'https://example.org/summarize/agent');
		const before = ai.mock.requests.length;
		const refused = await nodeFailure(ai.viaSpec, { resource: 'bookmark', operation: 'summarize', recordId: byId(record.id) }, { tool: true });
		expect(refused.message).toBe('Summarizing bookmarks is not allowed for an AI agent');
		expect(ai.mock.requests.length).toBe(before);
		const { json } = await runNode(
			ai.viaSpec,
			{ resource: 'bookmark', operation: 'summarize', recordId: byId(record.id), allowAsTool: true },
			{ tool: true },
		);
		expect(json).toEqual([{ recordId: record.id, summary: SUMMARY }]);
	});
});
