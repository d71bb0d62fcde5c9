/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * What n8n's editor does with a node's or credential's description, re-stated from its source so
 * that tests can check what a user sees: the documentation links it opens and the entries of its
 * nodes panel. Each function names the code it follows. The tests feed them the descriptions a
 * real n8n serves (`/types/nodes.json`) or, in unit tests, the classes with their codex files as
 * n8n's loader joins them.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { PROJECT_ROOT } from './paths';

export interface EditorNodeType {
	name: string;
	displayName: string;
	description: string;
	group: string[];
	documentationUrl?: string;
	codex?: { alias?: string[]; resources?: { primaryDocumentation?: Array<{ url: string }> } };
	properties?: Array<{ name: string; displayName?: string; options?: unknown[] }>;
}

const PACKAGE_JSON = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
	name: string;
	n8n: { nodes: string[] };
};

/**
 * Every node the package lists (`n8n.nodes` in package.json) as n8n serves it to the editor, for
 * what the nodes panel finds. As n8n's loader does (packages/core DirectoryLoader): the class named
 * like its file, the codex file beside it (`<Name>.node.json`) joined to it, the type named with
 * the package. Read from the sources (`nodes/…` for `dist/nodes/…`), so no build is needed.
 */
export function servedPackageNodeTypes(): EditorNodeType[] {
	return PACKAGE_JSON.n8n.nodes.map((entry) => {
		const source = path.join(PROJECT_ROOT, entry.replace(/^dist\//, '').replace(/\.js$/, ''));
		const className = path.basename(source, '.node');
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { description } = new (require(source) as Record<string, new () => INodeType>)[className]();
		const codex = JSON.parse(readFileSync(`${source}.json`, 'utf8')) as { alias?: string[] };
		return { ...description, name: `${PACKAGE_JSON.name}.${description.name}`, codex: { alias: codex.alias } };
	});
}

/**
 * The link a node's "Docs" opens: `useNodeDocsUrl` in n8n-editor-ui
 * (packages/frontend/editor-ui/src/composables/useNodeDocsUrl.ts; the same code in 2.41.1's
 * dist/assets/NodeSettings-BLwI6MoL.js and 1.123.81's NodeSettings-Byv9I2f-.js).
 */
export function n8nNodeDocsUrl(nodeType: EditorNodeType): string {
	if (nodeType.documentationUrl?.startsWith('http')) return nodeType.documentationUrl;
	const utmParams = new URLSearchParams({
		utm_source: 'n8n_app',
		utm_medium: 'node_settings_modal-credential_link',
		utm_campaign: nodeType.name,
	});
	const primaryDocUrl = nodeType.codex?.resources?.primaryDocumentation?.[0]?.url;
	if (primaryDocUrl) return `${primaryDocUrl}?${utmParams.toString()}`;
	// A community node with neither link gets its npm page.
	return `https://www.npmjs.com/package/${nodeType.name.split('.')[0]}`;
}

/**
 * A credential's "Open docs" link: the `documentationUrl` computed of CredentialConfig.vue
 * (2.41.1's dist/assets/index-BGyb28lC.js, 1.123.81's index-xY3FY4Zp.js). An http(s) link outside
 * docs.n8n.io is opened as it is; a slug is only for n8n's own credentials (none for a community
 * node's); only docs.n8n.io links get the tracking query, set with URLSearchParams.
 */
export function n8nCredentialDocsUrl(documentationUrl: string | undefined): string {
	if (!documentationUrl) return '';
	if (!documentationUrl.startsWith('https://') && !documentationUrl.startsWith('http://')) return '';
	const url = new URL(documentationUrl);
	if (url.hostname !== 'docs.n8n.io') return documentationUrl;
	url.searchParams.set('utm_source', 'n8n_app');
	url.searchParams.set('utm_medium', 'credential_settings');
	url.searchParams.set('utm_campaign', 'create_new_credentials_modal');
	return url.href;
}

/**
 * The entries of the nodes panel with the description each shows: `generateMergedNodesAndActions`
 * (useActionsGeneration in n8n-editor-ui; 2.41.1's dist/assets/workflows.store-1K8xwhMX.js). A
 * trigger `<name>Trigger` is merged into the action node `<name>` when that node has actions, and
 * the entry takes the trigger's description ("default to trigger description"). The entry's page
 * of a community node shows the same description (`prepareCommunityNodeDetailsViewStack`).
 */
export function n8nPanelEntries(nodeTypes: EditorNodeType[]): Map<string, string> {
	const entries = new Map<string, string>();
	for (const app of nodeTypes.filter((node) => !node.group.includes('trigger'))) {
		entries.set(app.name, app.description);
	}
	for (const trigger of nodeTypes.filter((node) => node.group.includes('trigger'))) {
		const normalizedName = trigger.name.replace('Trigger', '');
		const app = nodeTypes.find((node) => node.name === normalizedName && !node.group.includes('trigger'));
		// An action node has actions here: each of ours has an operation list (resource + operation).
		if (app && entries.has(normalizedName)) entries.set(normalizedName, trigger.description);
		else entries.set(trigger.name, trigger.description);
	}
	return entries;
}

/**
 * The title n8n's editor shows for a node's error: its message, followed by the item (` [item 1]`)
 * when the node's input has more than one item and the message does not name that item already.
 * `getErrorMessage`/`addItemIndexSuffix` of NodeErrorView in n8n-editor-ui (2.41.1's
 * dist/assets/RunData-Cg4Qzjgj.js: `function ke(e){let t=``;return D.value&&s.error?.context?.itemIndex!==void 0&&(t=`item ${…}`),e.includes(t)?e:`${e} [${t}]`}`,
 * with `D = ndvInputData.length > 1`).
 */
export function n8nErrorTitle(
	error: { message: string; context?: { itemIndex?: number } },
	inputItems: number,
): string {
	const itemIndex = error.context?.itemIndex;
	const item = inputItems > 1 && itemIndex !== undefined ? `item ${itemIndex}` : '';
	return error.message.includes(item) ? error.message : `${error.message} [${item}]`;
}

/**
 * The link of a community node's "Report issue" (CommunityNodeFooter in n8n-editor-ui; 2.41.1's
 * dist/assets/CommunityNodeUpdateInfo-CKN2Gp2o.js): the package's `bugs.url` as the npm registry
 * serves its metadata (the published package.json's `bugs`), else the registry's JSON page.
 */
export function n8nReportIssueUrl(packageJson: { name: string; bugs?: { url?: string } | string }): string {
	// npm publishes a `bugs` string as { url }.
	const bugs = typeof packageJson.bugs === 'string' ? { url: packageJson.bugs } : packageJson.bugs;
	return bugs?.url ? bugs.url : `https://registry.npmjs.org/${packageJson.name}`;
}

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

const homepage = (
	JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { homepage: string }
).homepage;
/** The repository's page on GitHub, where the README is shown. */
export const REPOSITORY_URL = homepage.replace(/#.*$/, '');
/** Where GitHub shows a file of the repository's main branch, e.g. `<this>/docs/signing.md`. */
export const REPOSITORY_FILES_URL = `${REPOSITORY_URL}/blob/main/`;

/**
 * The heading of the README or of a page of docs/ that a link lands on, as a browser goes there: the
 * repository's page (the README) or one of its Markdown files on the main branch (any query before
 * the `#` is the server's business and GitHub ignores it), and the whole fragment must be one
 * heading's anchor in that file as it is in this checkout. Undefined when it lands elsewhere or at
 * the top of the page.
 */
export function docsHeadingOf(url: string): string | undefined {
	const parsed = new URL(url);
	const page = `${parsed.origin}${parsed.pathname}`;
	let file: string;
	if (page === REPOSITORY_URL) file = 'README.md';
	else if (page.startsWith(REPOSITORY_FILES_URL) && page.endsWith('.md')) file = page.slice(REPOSITORY_FILES_URL.length);
	else return undefined;
	const local = path.join(PROJECT_ROOT, ...file.split('/'));
	if (parsed.hash === '' || !local.startsWith(PROJECT_ROOT + path.sep) || !existsSync(local)) return undefined;
	const anchors = githubAnchors(readFileSync(local, 'utf8'));
	return anchors.get(decodeURIComponent(parsed.hash.slice(1)));
}

/** The query's characters in `value` in order, ignoring case: the search's first test (`tb`). */
function containsInOrder(query: string, value: string): boolean {
	let found = 0;
	for (let at = 0; found < query.length && at < value.length; at++) {
		if (query.charAt(found).toLowerCase() === value.charAt(at).toLowerCase()) found++;
	}
	return query.length !== 0 && value.length !== 0 && found === query.length;
}

/**
 * The node types the nodes panel's search can find for `query`: it looks at each node's
 * `displayName` and its codex `alias` list (2.41.1's dist/assets/workflows.store-1K8xwhMX.js: keys
 * `properties.displayName`, weight 1.3, and `properties.codex.alias`, weight 1), and a value is a
 * candidate when it holds the query's characters in order, ignoring case (its `tb`), before the
 * fuzzy score ranks the candidates.
 */
export function n8nPanelSearch(nodeTypes: EditorNodeType[], query: string): string[] {
	return nodeTypes
		.filter((node) => [node.displayName, ...(node.codex?.alias ?? [])].some((value) => containsInOrder(query, value)))
		.map((node) => node.name);
}

/**
 * The entries a trigger gets in the nodes panel, one per event: `triggerNodeToActions` of
 * useActionsGeneration (2.41.1's dist/assets/workflows.store-1K8xwhMX.js, function `Ux`): for a
 * node whose display name says Trigger, each option of its property shown as Event, Events or
 * Trigger On, named by the option's `action`, else "On " and the name in lower-case words
 * (lodash `lowerCase`, after dots become spaces).
 */
export function n8nTriggerActions(nodeType: EditorNodeType & { properties: Array<{ options?: unknown[] }> }): string[] {
	if (!nodeType.displayName.toLowerCase().includes('trigger')) return [];
	const events = nodeType.properties.find((property) =>
		['event', 'events', 'trigger on'].includes(property.displayName?.toLowerCase() ?? ''),
	);
	const options = (events?.options ?? []) as Array<{ name: string; action?: string }>;
	return options
		.filter((option) => !['*', '', ' '].includes(option.name))
		.map(
			(option) =>
				option.action ??
				`On ${(option.name.split('.').join(' ').match(/[A-Z]{2,}(?=[A-Z][a-z]|\b)|[A-Z]?[a-z]+|[A-Z]+|\d+/g) ?? []).map((word) => word.toLowerCase()).join(' ')}`,
		);
}
