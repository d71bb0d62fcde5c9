/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 43 items 1–3 and 5: what `npm start`'s flavours set up. In a platform's flavour only that
 * platform's credential exists for its service (a node added by hand can pick nothing else), and
 * the banner says what runs where; the contacts sample reads the spreadsheet that ships beside it,
 * where `npm start` puts it, and a missing file stops the run; the Karakeep flavour keeps the
 * signed PDF. The e2e test surveyFormbricksContactsSample.test.ts runs the contacts sample as
 * `SURVEYS=formbricks npm start` sets it up.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { bannerLines, KARAKEEP_CREDENTIAL } from '../../scripts/banner';
import type { N8nInstance } from '../harness/n8n';
import { PROJECT_ROOT } from '../harness/paths';
import { createSandboxCredentials, withSignedPdfKept, type WorkflowFile } from '../harness/provision';
import type { Sandbox } from '../sandbox';

const workflow = (file: string) => JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'workflows', file), 'utf8')) as WorkflowFile;

/** An n8n whose public API records the credentials created. */
function fakeN8n(created: Array<{ name: string; type: string }>): N8nInstance {
	return {
		api: async (method: string, route: string, body?: { name: string; type: string }) => {
			if (method === 'POST' && route === '/credentials' && body) {
				created.push({ name: body.name, type: body.type });
				return { id: `c${created.length}`, name: body.name };
			}
			return {};
		},
	} as unknown as N8nInstance;
}

const sandbox = (survey: 'documented' | 'formbricks') =>
	({
		signing: { url: 'http://127.0.0.1:4101', apiKey: 's' },
		bookmark: { url: 'http://127.0.0.1:4102', apiKey: 'b' },
		survey: { url: 'http://127.0.0.1:4103', apiKey: 'v', api: survey },
	}) as unknown as Sandbox;

describe('npm start: the credentials of a flavour', () => {
	it('the default: one sandbox credential per service, and the MCP one', async () => {
		const created: Array<{ name: string; type: string }> = [];
		await createSandboxCredentials(fakeN8n(created), sandbox('documented'));
		expect(created.map((credential) => credential.name)).toEqual(['Signing (sandbox)', 'Bookmarks (sandbox)', 'Survey (sandbox)', 'MCP clients (sandbox)']);
	});

	it('BOOKMARKS=karakeep: Karakeep’s is the only Bookmarks credential; no sandbox one is made', async () => {
		const created: Array<{ name: string; type: string }> = [];
		const karakeep = { id: 'k1', name: KARAKEEP_CREDENTIAL };
		const credentials = await createSandboxCredentials(fakeN8n(created), sandbox('documented'), { bookmarkApi: karakeep });
		expect(created.filter((credential) => credential.type === 'bookmarkApi')).toEqual([]);
		expect(credentials.bookmarkApi).toEqual(karakeep);
	});

	it('SURVEYS=formbricks: the Survey credential is Formbricks’ only, and the SMTP sink’s is kept', async () => {
		const created: Array<{ name: string; type: string }> = [];
		const smtp = { id: 'm1', name: 'SMTP (sandbox sink)' };
		const credentials = await createSandboxCredentials(fakeN8n(created), sandbox('formbricks'), { smtp });
		expect(created.filter((credential) => credential.type === 'surveyApi').map((credential) => credential.name)).toEqual(['Formbricks (sandbox)']);
		expect(credentials.smtp).toEqual(smtp);
	});
});

describe('npm start: the banner of a flavour says what runs where', () => {
	const base = {
		n8nUrl: 'http://127.0.0.1:5678',
		login: { email: 'a@example.org', password: 'p' },
		workflows: [],
		mcpToken: 't',
		sandbox: {
			signing: { url: 'http://127.0.0.1:4101', apiKey: 's' },
			bookmark: { url: 'http://127.0.0.1:4102', apiKey: 'b' },
			survey: { url: 'http://127.0.0.1:4103', apiKey: 'v', api: 'formbricks' },
		},
		logFile: '.tmp/n8n-5678.log',
	};

	it('Karakeep: no bookmark sandbox; its URL has no web UI; the credential named; no test jargon', () => {
		const banner = bannerLines({
			...base,
			karakeep: { url: 'http://127.0.0.1:4104', apiKey: 'ak2_x', searchUrl: 'http://127.0.0.1:4105', credential: KARAKEEP_CREDENTIAL },
		}).join('\n');
		expect(banner).not.toMatch(/Bookmark sandbox/);
		expect(banner).toMatch(/^Karakeep: +http:\/\/127\.0\.0\.1:4104 .*no web UI/m);
		expect(banner).toContain(`"${KARAKEEP_CREDENTIAL}", the only Bookmarks credential: http://127.0.0.1:4105`);
		expect(banner).toMatch(/the signed PDF is filed in Karakeep/);
		expect(banner).not.toMatch(/mock|validating|spec/i);
	});

	it('Formbricks: the SMTP sink, its credential and where the e-mails land', () => {
		const banner = bannerLines({ ...base, smtp: { address: '127.0.0.1:4106', folder: '.n8n-runtime/demo/mails', credential: 'SMTP (sandbox sink)' } }).join('\n');
		expect(banner).toMatch(/^SMTP sink: +127\.0\.0\.1:4106 +\(credential "SMTP \(sandbox sink\)"; each e-mail lands in \.n8n-runtime\/demo\/mails\/\)$/m);
	});
});

describe('the contacts sample’s spreadsheet', () => {
	const sample = workflow('applicants-to-formbricks-contacts.json');
	const read = sample.nodes.find((node) => node.type === 'n8n-nodes-base.readWriteFile')!;

	it('is read where npm start puts the one shipped beside it (n8n’s folder, applicants/)', () => {
		expect((read.parameters as { fileSelector: string }).fileSelector).toBe('applicants/applicants.csv');
		const n8nHarness = readFileSync(path.join(PROJECT_ROOT, 'test', 'harness', 'n8n.ts'), 'utf8');
		expect(n8nHarness).toMatch(/path\.join\(PROJECT_ROOT, 'workflows', 'applicants\.csv'\)/);
	});

	it('ships with the columns the sample reads', () => {
		const [header] = readFileSync(path.join(PROJECT_ROOT, 'workflows', 'applicants.csv'), 'utf8').split('\n');
		expect(header).toBe('First name,Last name,Email,Cohort');
		const contacts = JSON.stringify(sample.nodes.find((node) => node.name === 'Applicants as Contacts')!.parameters);
		for (const column of header.split(',')) expect(contacts).toContain(column);
	});

	it('a missing file stops the run: Read/Write Files from Disk 1.1 says "No file(s) found"; on n8n 1.x (version 1 only) Always Output Data makes the next node stop', () => {
		expect(read.typeVersion).toBe(1.1);
		expect(read.alwaysOutputData).toBe(true);
	});
});

describe('the Karakeep flavour files the signed PDF', () => {
	it('Signed → archived keeps the PDF (keepSignedPdf on); nothing else of it changes', () => {
		const shipped = workflow('signed-to-archived.json');
		const kept = withSignedPdfKept(shipped);
		const keep = (file: WorkflowFile) =>
			JSON.stringify(file.nodes.find((node) => node.name === 'Archive As')!.parameters).match(/"name":"keepSignedPdf","value":(\w+)/)![1];
		expect([keep(shipped), keep(kept)]).toEqual(['false', 'true']);
		expect(kept.nodes.filter((node) => node.name !== 'Archive As')).toEqual(shipped.nodes.filter((node) => node.name !== 'Archive As'));
		// The sticky note says what changes on the documented API.
		const note = String((shipped.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote')!.parameters as { content: string }).content);
		expect(note).toMatch(/BOOKMARKS=karakeep npm start/);
		expect(note).toMatch(/documented API/);
	});

	it('other samples are imported as they are', () => {
		const other = workflow('application-approved-to-signing.json');
		expect(withSignedPdfKept(other)).toEqual(other);
	});
});
