/* eslint-disable @typescript-eslint/no-explicit-any -- node outputs are JSON; each test states what it expects */
/** The Bookmarks node run against a Karakeep (real, or the spec mock in front of it) with the credential's API set to Karakeep. */
import type { IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { type KarakeepOptions, type KarakeepServer, startKarakeep } from '../harness/karakeep';
import { type KarakeepSpecMock, startKarakeepSpecMock } from '../harness/karakeepSpecMock';
import { type ExecuteOptions, executeContext, type Parameters } from '../unit/helpers/context';
import { START_TIMEOUT_MS } from './api';

export const credentialsOf = (server: { url: string; apiKey: string }) => ({
	bookmarkApi: { api: 'karakeep', baseUrl: server.url, apiKey: server.apiKey },
});

export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

export interface NodeRun {
	/** The output items' JSON. */
	json: any[];
	items: INodeExecutionData[];
	/** What the node sent, in order. */
	requests: IHttpRequestOptions[];
}

/** Runs the Bookmarks node once on `server` with these parameters (and items, binaries, tool use…). */
export async function runNode(
	server: { url: string; apiKey: string },
	parameters: Parameters | Parameters[],
	options: Omit<ExecuteOptions, 'parameters' | 'credentials'> = {},
): Promise<NodeRun> {
	const { context, requests } = executeContext({ ...options, parameters, credentials: credentialsOf(server) });
	const [items] = await new Bookmarks().execute.call(context);
	return { json: items.map((item) => item.json), items, requests };
}

/** The node's error for these parameters (the test fails when it succeeds). */
export async function nodeFailure(
	server: { url: string; apiKey: string },
	parameters: Parameters,
	options: Omit<ExecuteOptions, 'parameters' | 'credentials'> = {},
): Promise<any> {
	let run: NodeRun;
	try {
		run = await runNode(server, parameters, options);
	} catch (error) {
		return error;
	}
	throw new Error(`Expected the node to fail; it answered ${JSON.stringify(run.json).slice(0, 300)}`);
}

/**
 * After each test of the file: every request the node sent through the mock during the test is one
 * Karakeep's OpenAPI file allows (`lists.stats`, Karakeep's tRPC route, is outside the document).
 */
export function checkEachTestAgainstSpec(mock: () => KarakeepSpecMock): void {
	let firstOfTest = 0;
	beforeEach(() => {
		firstOfTest = mock().requests.length;
	});
	afterEach(() => {
		const invalid = mock()
			.requests.slice(firstOfTest)
			.filter((request) => !request.valid && !request.path.startsWith('/api/trpc/'));
		expect(invalid).toEqual([]);
	});
}

export interface KarakeepBehindSpec {
	karakeep: KarakeepServer;
	mock: KarakeepSpecMock;
	/** Where the node is pointed: the mock, which validates each request against the spec and forwards it. */
	viaSpec: { url: string; apiKey: string };
}

/**
 * For the test file: a real Karakeep (with `options`) and the validating mock of its spec in front
 * of it, started before its tests and stopped after; each test's requests through the mock checked
 * against the spec. The fields are set once the servers run.
 */
export function karakeepBehindSpec(options: KarakeepOptions = {}): KarakeepBehindSpec {
	const servers = {} as KarakeepBehindSpec;
	beforeAll(async () => {
		servers.karakeep = await startKarakeep(options);
		servers.mock = await startKarakeepSpecMock({ upstream: servers.karakeep });
		servers.viaSpec = { url: servers.mock.url, apiKey: servers.karakeep.apiKey };
	}, START_TIMEOUT_MS);
	afterAll(async () => {
		await servers.mock?.stop();
		await servers.karakeep?.stop();
	});
	checkEachTestAgainstSpec(() => servers.mock);
	return servers;
}
