/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a local server and files on disk, as n8n's filesystem binary mode keeps them */
/**
 * Uploads through `serviceAnswer` with a multipart body (nodes/shared/multipart.ts) whose file comes
 * from an input item (nodes/shared/inputFile.ts): streamed from n8n's binary data, never read whole,
 * read anew when the request is sent again after a 429. The server here is a plain local one that
 * records what arrives; the real Karakeep reads the same bodies in test/karakeep/assets.test.ts, and
 * n8n's own HTTP client sends them in test/e2e/bookmarksKarakeep.test.ts.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { inputFile, sniffedType } from '../../nodes/shared/inputFile';
import { multipartBody } from '../../nodes/shared/multipart';
import { type RetryPolicy, serviceAnswer } from '../../nodes/shared/request';
import { parseMultipart } from '../harness/karakeepSpecMock';
import { executeContext, inputBinary, storedBinary } from './helpers/context';

const NO_WAIT: RetryPolicy = { maxRateLimitRetries: 3, maxServerErrorRetries: 0, maxRetryAfterSeconds: 1, backoffMs: 0 };
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Received {
	contentLength: string | undefined;
	contentType: string;
	body: Buffer;
}

let server: Server;
let url: string;
let received: Received[] = [];
/** The statuses the server answers, one per request, then 200. */
let statuses: number[] = [];
let folder: string;

beforeAll(async () => {
	folder = mkdtempSync(path.join(os.tmpdir(), 'multipart-'));
	server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push({
				contentLength: request.headers['content-length'],
				contentType: String(request.headers['content-type']),
				body: Buffer.concat(chunks),
			});
			const status = statuses.shift() ?? 200;
			// A 429 that asks for no wait: the test counts attempts, it does not time them.
			const wait = status === 429 ? { 'retry-after': '0' } : {};
			response.writeHead(status, { 'content-type': 'application/json', ...wait }).end(JSON.stringify({ ok: status === 200 }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
	rmSync(folder, { recursive: true, force: true });
});
beforeEach(() => {
	received = [];
	statuses = [];
});

function pdf(size: number): Buffer {
	const bytes = Buffer.alloc(size, 0x61);
	Buffer.from('%PDF-1.4\n').copy(bytes);
	for (let index = 9; index < size; index += 997) bytes[index] = index % 251;
	return bytes;
}

async function upload(binary: ReturnType<typeof inputBinary>) {
	const { context, requests } = executeContext({
		parameters: {},
		binaries: [{ data: binary }],
		credentials: { bookmarkApi: { baseUrl: url, apiKey: 'key' } },
	});
	const file = await inputFile(context, 0, 'data', 'Input Binary Field');
	const answer = await serviceAnswer(
		context,
		'bookmarkApi',
		'test server',
		{ method: 'POST', path: '/upload', multipart: multipartBody({ file }), itemIndex: 0 },
		NO_WAIT,
	);
	return { file, answer, requests };
}

describe('a streamed multipart upload', () => {
	test('from n8n’s filesystem mode: the file’s exact bytes in one part, with its Content-Length known before sending', async () => {
		const bytes = pdf(3_000_000);
		const onDisk = path.join(folder, 'big.pdf');
		writeFileSync(onDisk, bytes);
		const { file, answer, requests } = await upload(storedBinary(onDisk, 'big.pdf', 'application/pdf'));
		// n8n's HTTP client follows redirects through follow-redirects, which keeps the whole body to
		// send it again: the upload goes without (bench createFromFile measures what that keeps).
		expect(requests[0]).toMatchObject({ disableFollowRedirect: true });
		expect(file).toMatchObject({ fileName: 'big.pdf', size: 3_000_000, declaredType: 'application/pdf' });
		expect(sniffedType(file.head)).toBe('application/pdf');
		expect(answer.statusCode).toBe(200);
		const [request] = received;
		expect(Number(request.contentLength)).toBe(request.body.length);
		const parts = parseMultipart(request.body, request.contentType);
		if (typeof parts === 'string') throw new Error(parts);
		expect(parts.map((part) => ({ ...part, body: digest(part.body) }))).toEqual([
			{ name: 'file', fileName: 'big.pdf', contentType: 'application/pdf', body: digest(bytes) },
		]);
	});

	test('from n8n’s in-memory mode (base64 in the item), decoded a piece at a time', async () => {
		const bytes = pdf(1_234_567);
		const { file } = await upload(inputBinary(bytes, 'memory.pdf', 'application/pdf'));
		expect(file.size).toBe(1_234_567);
		const parts = parseMultipart(received[0].body, received[0].contentType);
		if (typeof parts === 'string') throw new Error(parts);
		expect(digest(parts[0].body)).toBe(digest(bytes));
	});

	test('sent again after a 429, the file is read again from the start: each attempt carries all of it', async () => {
		const bytes = pdf(700_000);
		const onDisk = path.join(folder, 'again.pdf');
		writeFileSync(onDisk, bytes);
		statuses = [429, 429];
		const { answer } = await upload(storedBinary(onDisk, 'again.pdf', 'application/pdf'));
		expect(answer.statusCode).toBe(200);
		expect(received).toHaveLength(3);
		for (const attempt of received) {
			const parts = parseMultipart(attempt.body, attempt.contentType);
			if (typeof parts === 'string') throw new Error(parts);
			expect(digest(parts[0].body)).toBe(digest(bytes));
		}
	});

	test.each([
		['%PDF-1.7', 'application/pdf'],
		['\xff\xd8\xff\xe0', 'image/jpeg'],
		['\x89PNG\r\n\x1a\n', 'image/png'],
		['GIF89a', 'image/gif'],
		['RIFF\0\0\0\0WEBPVP8 ', 'image/webp'],
		['\0\0\0\x18ftypmp42', 'video/mp4'],
		['\x1a\x45\xdf\xa3\x01\0\0\0webm', 'video/webm'],
		['<html>', undefined],
		['', undefined],
	])('the type its first bytes say: %j is %s', (head, type) => {
		expect(sniffedType(Buffer.from(head, 'latin1'))).toBe(type);
	});
});
