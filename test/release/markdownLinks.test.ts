/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 46: every link of the README, the CHANGELOG and docs/ that stays in the repository resolves:
 * the file or folder exists, and an anchor (`#…`) is a heading of the Markdown file it points into,
 * as GitHub turns headings into anchors. Links to the repository's own files on GitHub
 * (`…/blob/main/…`) are checked the same way; other web addresses are not fetched.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

import { githubAnchors, REPOSITORY_FILES_URL, REPOSITORY_URL } from '../harness/n8nEditor';
import { PROJECT_ROOT } from '../harness/paths';

/** The link targets of a Markdown text, outside code blocks and inline code, with their line. */
export function markdownLinks(markdown: string): Array<{ line: number; target: string }> {
	const links: Array<{ line: number; target: string }> = [];
	let inFence = false;
	markdown.split('\n').forEach((text, index) => {
		if (/^\s*(```|~~~)/.test(text)) inFence = !inFence;
		if (inFence) return;
		const prose = text.replace(/`[^`]*`/g, '');
		for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line: index + 1, target: match[1] });
		const reference = /^\s*\[[^\]]+\]:\s+(\S+)/.exec(prose);
		if (reference) links.push({ line: index + 1, target: reference[1] });
	});
	return links;
}

/** Why a link of `file` (a path relative to the project) does not resolve, or undefined when it does. */
export function brokenLink(file: string, target: string, root = PROJECT_ROOT): string | undefined {
	let local: string;
	let anchor: string;
	if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
		const url = new URL(target);
		const page = `${url.origin}${url.pathname}`;
		if (page === REPOSITORY_URL) local = 'README.md';
		else if (page.startsWith(REPOSITORY_FILES_URL)) local = decodeURIComponent(page.slice(REPOSITORY_FILES_URL.length));
		else return undefined;
		anchor = decodeURIComponent(url.hash.slice(1));
	} else {
		const [pathPart, hash = ''] = target.split('#');
		local = pathPart === '' ? file : path.posix.join(path.posix.dirname(file), decodeURIComponent(pathPart));
		anchor = decodeURIComponent(hash);
	}
	const absolute = path.join(root, ...local.split('/'));
	if (!absolute.startsWith(root + path.sep)) return `${target}: outside the repository`;
	if (!existsSync(absolute)) return `${target}: no ${local}`;
	if (anchor === '') return undefined;
	if (statSync(absolute).isDirectory() || !local.endsWith('.md')) return `${target}: an anchor into ${local}, which is not a Markdown file`;
	return githubAnchors(readFileSync(absolute, 'utf8')).has(anchor) ? undefined : `${target}: no heading #${anchor} in ${local}`;
}

const documents = [
	'README.md',
	'CHANGELOG.md',
	...readdirSync(path.join(PROJECT_ROOT, 'docs'))
		.filter((file) => file.endsWith('.md'))
		.map((file) => `docs/${file}`),
];

describe('links of the README, the CHANGELOG and docs/', () => {
	it.each(documents)('%s: every link into the repository resolves, anchors included', (file) => {
		const links = markdownLinks(readFileSync(path.join(PROJECT_ROOT, file), 'utf8'));
		const broken = links.flatMap(({ line, target }) => {
			const problem = brokenLink(file, target);
			return problem ? [`${file}:${line} ${problem}`] : [];
		});
		expect(broken).toEqual([]);
	});

	it('docs/ has the pages the README lists, and the README links every page of docs/', () => {
		const readmeTargets = markdownLinks(readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8')).map((link) => link.target.split('#')[0]);
		for (const file of documents.filter((document) => document.startsWith('docs/'))) expect(readmeTargets).toContain(file);
	});

	it('finds what is broken: a missing file, a missing heading, an anchor into a file that is no Markdown', () => {
		const sample = '[a](docs/nowhere.md) [b](#not-a-heading) `[c](#in-code)`\n```\n[d](#in-a-fence)\n```\n[e](LICENSE#x)\n[f]: docs/signing.md#signing';
		const links = markdownLinks(sample);
		expect(links.map((link) => link.target)).toEqual(['docs/nowhere.md', '#not-a-heading', 'LICENSE#x', 'docs/signing.md#signing']);
		expect(links.map((link) => brokenLink('README.md', link.target))).toEqual([
			'docs/nowhere.md: no docs/nowhere.md',
			'#not-a-heading: no heading #not-a-heading in README.md',
			'LICENSE#x: an anchor into LICENSE, which is not a Markdown file',
			undefined,
		]);
		expect(brokenLink('docs/signing.md', '../README.md#nodes-and-credentials')).toBeUndefined();
		expect(brokenLink('docs/signing.md', `${REPOSITORY_FILES_URL}docs/signing.md#nope`)).toMatch(/no heading #nope in docs\/signing\.md/);
		expect(brokenLink('docs/signing.md', 'https://example.com/#whatever')).toBeUndefined();
	});
});

// The sample workflows' sticky notes point at the documentation with links n8n renders; relative
// links would mean nothing inside n8n.
const sampleFiles = ['workflows', 'workflows/queue'].flatMap((folder) =>
	readdirSync(path.join(PROJECT_ROOT, folder))
		.filter((file) => file.endsWith('.json'))
		.map((file) => `${folder}/${file}`),
);

describe('links of the sample workflows’ sticky notes', () => {
	it.each(sampleFiles)('%s: every link to the repository lands on a heading of its page', (file) => {
		const workflow = JSON.parse(readFileSync(path.join(PROJECT_ROOT, file), 'utf8')) as {
			nodes: Array<{ name: string; type: string; parameters: { content?: string } }>;
		};
		const notes = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
		const problems = notes.flatMap((note) => {
			const content = note.parameters.content ?? '';
			const links = markdownLinks(content).map(({ target }) => {
				if (!/^https?:/.test(target)) return `${note.name}: ${target} is not a web address`;
				if (target.startsWith(REPOSITORY_URL) && !new URL(target).hash) return `${note.name}: ${target} has no anchor`;
				const problem = brokenLink(file, target);
				return problem && `${note.name}: ${problem}`;
			});
			const unlinked = /\bREADME\b/.test(content) ? [`${note.name} names the README, which no longer holds the reference`] : [];
			return [...links.filter((problem): problem is string => Boolean(problem)), ...unlinked];
		});
		expect(problems).toEqual([]);
	});
});
