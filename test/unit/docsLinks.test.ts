/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 18 item 7: every documentation link of a node or credential lands on the README section
 * that documents that node or credential (headings turned into anchors as GitHub does).
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { BookmarkApi } from '../../credentials/BookmarkApi.credentials';
import { SigningApi } from '../../credentials/SigningApi.credentials';
import { SurveyApi } from '../../credentials/SurveyApi.credentials';

const ROOT = path.resolve(__dirname, '..', '..');
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const homepage = (
	JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { homepage: string }
).homepage;
const repositoryUrl = homepage.replace(/#.*$/, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function githubAnchors(markdown: string): Map<string, string> {
	const anchors = new Map<string, string>();
	const seen = new Map<string, number>();
	let inFence = false;
	for (const line of markdown.split('\n')) {
		if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
		const heading = !inFence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const text = heading[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
		const slug = text
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.set(count === 0 ? slug : `${slug}-${count}`, text);
	}
	return anchors;
}

const anchors = githubAnchors(readme);

/** The heading a documentation URL lands on, or undefined. */
function headingOf(url: string): string | undefined {
	const [base, anchor] = url.split('#');
	if (base !== repositoryUrl || !anchor) return undefined;
	return anchors.get(anchor);
}

interface Codex {
	node: string;
	resources: {
		primaryDocumentation?: Array<{ url: string }>;
		credentialDocumentation?: Array<{ url: string }>;
	};
}

const codexFiles = readdirSync(path.join(ROOT, 'nodes'), { withFileTypes: true })
	.filter((entry) => entry.isDirectory())
	.flatMap((entry) =>
		readdirSync(path.join(ROOT, 'nodes', entry.name))
			.filter((file) => file.endsWith('.node.json'))
			.map((file) => path.join(ROOT, 'nodes', entry.name, file)),
	);

/** The node's display name, from its class next to the codex file. */
function displayNameOf(codexFile: string): string {
	const className = path.basename(codexFile, '.node.json');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require(codexFile.replace(/\.json$/, '.ts')) as Record<
		string,
		new () => { description: { displayName: string; credentials?: Array<{ name: string }> } }
	>;
	return new module[className]().description.displayName;
}
function credentialsOf(codexFile: string): string[] {
	const className = path.basename(codexFile, '.node.json');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require(codexFile.replace(/\.json$/, '.ts')) as Record<
		string,
		new () => { description: { credentials?: Array<{ name: string }> } }
	>;
	return (new module[className]().description.credentials ?? []).map(
		(credential) => credential.name,
	);
}

const credentialTypes = [new SigningApi(), new BookmarkApi(), new SurveyApi()];

describe('Documentation links land on their README section', () => {
	it('computes anchors as GitHub does', () => {
		const sample = githubAnchors(
			'# A b\n## Signed → archived (`x.json`)\n```\n# not a heading\n```\n## A b\n',
		);
		expect([...sample.keys()]).toEqual(['a-b', 'signed--archived-xjson', 'a-b-1']);
	});

	it('finds the six nodes’ codex files', () => {
		expect(codexFiles).toHaveLength(6);
	});

	it.each(codexFiles.map((file) => [path.basename(file), file]))(
		'%s: primary documentation is the node’s own section',
		(_, file) => {
			const codex = JSON.parse(readFileSync(file, 'utf8')) as Codex;
			const urls = codex.resources.primaryDocumentation?.map((entry) => entry.url) ?? [];
			expect(urls).toHaveLength(1);
			expect(headingOf(urls[0])).toBe(displayNameOf(file));
		},
	);

	it.each(codexFiles.map((file) => [path.basename(file), file]))(
		'%s: credential documentation is the credential’s section',
		(_, file) => {
			const codex = JSON.parse(readFileSync(file, 'utf8')) as Codex;
			const urls = codex.resources.credentialDocumentation?.map((entry) => entry.url) ?? [];
			const expected = credentialsOf(file).map(
				(name) => credentialTypes.find((credential) => credential.name === name)!.displayName,
			);
			expect(urls.map(headingOf)).toEqual(expected);
		},
	);

	it.each(credentialTypes.map((credential) => [credential.displayName, credential]))(
		'%s: documentationUrl is the credential’s section',
		(_, credential) => {
			expect(headingOf(String(credential.documentationUrl))).toBe(credential.displayName);
		},
	);
});
