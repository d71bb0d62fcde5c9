/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 18 item 7, issue 28 item 3 and issue 46: every documentation link of a node or credential
 * lands on the section of docs/ that documents it (headings turned into anchors as GitHub does),
 * on the page of its service (nodes) or of the credentials, also as n8n's editor builds the link it
 * opens, with its tracking query. The end-to-end test
 * test/e2e/package.test.ts checks the same on the descriptions a real n8n serves.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { BookmarkApi } from '../../credentials/BookmarkApi.credentials';
import { SigningApi } from '../../credentials/SigningApi.credentials';
import { SurveyApi } from '../../credentials/SurveyApi.credentials';
import {
	docsHeadingOf,
	type EditorNodeType,
	githubAnchors,
	n8nCredentialDocsUrl,
	n8nNodeDocsUrl,
	n8nReportIssueUrl,
	REPOSITORY_FILES_URL,
	REPOSITORY_URL,
} from '../harness/n8nEditor';
import { PROJECT_ROOT } from '../harness/paths';

interface Codex {
	node: string;
	resources: {
		primaryDocumentation?: Array<{ url: string }>;
		credentialDocumentation?: Array<{ url: string }>;
	};
}

const codexFiles = readdirSync(path.join(PROJECT_ROOT, 'nodes'), { withFileTypes: true })
	.filter((entry) => entry.isDirectory())
	.flatMap((entry) =>
		readdirSync(path.join(PROJECT_ROOT, 'nodes', entry.name))
			.filter((file) => file.endsWith('.node.json'))
			.map((file) => path.join(PROJECT_ROOT, 'nodes', entry.name, file)),
	);

type NodeDescription = EditorNodeType & { credentials?: Array<{ name: string }> };

/**
 * The node type as n8n hands it to the editor: the class's description, named with the package,
 * with the codex file's resources (n8n-core's DirectoryLoader.addCodex / getCodex).
 */
function nodeTypeOf(codexFile: string): NodeDescription {
	const className = path.basename(codexFile, '.node.json');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require(codexFile.replace(/\.json$/, '.ts')) as Record<
		string,
		new () => { description: NodeDescription }
	>;
	const { description } = new module[className]();
	const codex = JSON.parse(readFileSync(codexFile, 'utf8')) as Codex;
	return {
		...description,
		name: `n8n-nodes-sign-survey-bookmark.${description.name}`,
		codex: { resources: codex.resources },
	};
}

/** The page of docs/ each node folder's nodes are documented on. */
const SERVICE_PAGES: Record<string, string> = { Bookmarks: 'bookmarks', Signing: 'signing', Survey: 'survey' };
/** The file of the repository a documentation link opens. */
const pageOf = (url: string) => new URL(url).pathname.replace(new URL(REPOSITORY_FILES_URL).pathname, '');

const credentialTypes = [new SigningApi(), new BookmarkApi(), new SurveyApi()];
const codexOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Codex;
const eachNode = codexFiles.map((file) => [path.basename(file), file]);
const eachCredential = credentialTypes.map((credential) => [credential.displayName, credential] as const);

describe('Documentation links land on their section of docs/', () => {
	it('computes anchors as GitHub does', () => {
		const sample = githubAnchors(
			'# A b\n## Signed → archived (`x.json`)\n```\n# not a heading\n```\n## A b\n',
		);
		expect([...sample.keys()]).toEqual(['a-b', 'signed--archived-xjson', 'a-b-1']);
	});

	it('finds the seven nodes’ codex files', () => {
		expect(codexFiles).toHaveLength(7);
	});

	it.each(eachNode)('%s: primary documentation is the node’s own section, on its service’s page', (_, file) => {
		const urls = codexOf(file).resources.primaryDocumentation?.map((entry) => entry.url) ?? [];
		expect(urls).toHaveLength(1);
		expect(docsHeadingOf(urls[0])).toBe(nodeTypeOf(file).displayName);
		expect(pageOf(urls[0])).toBe(`docs/${SERVICE_PAGES[path.basename(path.dirname(file))]}.md`);
		expect(pageOf(String(nodeTypeOf(file).documentationUrl))).toBe(pageOf(urls[0]));
	});

	it.each(eachNode)('%s: credential documentation is the credential’s section', (_, file) => {
		const urls = codexOf(file).resources.credentialDocumentation?.map((entry) => entry.url) ?? [];
		const expected = (nodeTypeOf(file).credentials ?? []).map(
			({ name }) => credentialTypes.find((credential) => credential.name === name)!.displayName,
		);
		expect(urls.map(docsHeadingOf)).toEqual(expected);
	});

	it.each(eachCredential)('%s: documentationUrl is the credential’s section', (_, credential) => {
		expect(docsHeadingOf(String(credential.documentationUrl))).toBe(credential.displayName);
		expect(pageOf(String(credential.documentationUrl))).toBe('docs/credentials.md');
	});

	it.each(eachNode)('%s: the link n8n’s editor opens for the node lands on its section', (_, file) => {
		const nodeType = nodeTypeOf(file);
		expect(docsHeadingOf(n8nNodeDocsUrl(nodeType))).toBe(nodeType.displayName);
	});

	it.each(eachCredential)(
		'%s: the link n8n’s editor opens for the credential lands on its section',
		(_, credential) => {
			const url = n8nCredentialDocsUrl(String(credential.documentationUrl));
			expect(docsHeadingOf(url)).toBe(credential.displayName);
		},
	);

	it('a codex link alone would land at the top: n8n appends its query after the #', () => {
		const url = n8nNodeDocsUrl({ ...nodeTypeOf(codexFiles[0]), documentationUrl: undefined });
		expect(url).toMatch(/#[a-z-]+\?utm_source=n8n_app&/);
		expect(docsHeadingOf(url)).toBeUndefined();
	});
});

// Issue 37 item 11: a community node's "Report issue" opens the package's bugs URL from its
// registry metadata, else the registry's JSON.
describe('Report issue', () => {
	it('opens the repository’s issues, not the registry', () => {
		const packageJson = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
			name: string;
			bugs?: { url?: string };
		};
		expect(n8nReportIssueUrl(packageJson)).toBe(`${REPOSITORY_URL}/issues`);
	});
});
