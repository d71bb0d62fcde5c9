/**
 * What `npm start` prints once everything runs: where n8n is and how to log in, the workflows,
 * the demo commands, the MCP server with its header, and the sandbox. A function of its inputs
 * only, so that docs/development.md can show it exactly (test/unit/banner.test.ts keeps them equal).
 */

export const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';

/** The Bookmarks credential of `BOOKMARKS=karakeep npm start`, in place of the sandbox's. */
export const KARAKEEP_CREDENTIAL = 'Karakeep (local)';

/** The path of the first MCP Server Trigger among the workflows' nodes, if any. */
export function mcpPathOf(
	nodes: Array<{ type: string; parameters?: unknown }>,
): string | undefined {
	const trigger = nodes.find((node) => node.type === MCP_TRIGGER_TYPE);
	return trigger
		? String((trigger.parameters as { path?: unknown } | undefined)?.path ?? '')
		: undefined;
}

/** The paths of every MCP Server Trigger among the workflows' nodes, in their order. */
export function mcpPathsOf(nodes: Array<{ type: string; parameters?: unknown }>): string[] {
	return nodes
		.filter((node) => node.type === MCP_TRIGGER_TYPE)
		.map((node) => String((node.parameters as { path?: unknown } | undefined)?.path ?? ''));
}

export interface BannerInput {
	n8nUrl: string;
	login: { email: string; password: string };
	workflows: Array<{ name: string; active: boolean }>;
	/** Path(s) of the samples' MCP Server Triggers, e.g. "attunement-tools"; one line each. */
	mcpPath?: string | string[];
	mcpToken: string;
	sandbox: Record<'signing' | 'bookmark' | 'survey', { url: string; apiKey: string; api?: string }>;
	/**
	 * A real Karakeep in place of the bookmark sandbox (`BOOKMARKS=karakeep npm start`): its REST API,
	 * and the Bookmarks credential's URL, a proxy in front of it that also answers search.
	 */
	karakeep?: { url: string; apiKey: string; searchUrl: string; credential: string };
	/** The SMTP sink of the contacts sample's e-mails (`SURVEYS=formbricks npm start`). */
	smtp?: { address: string; folder: string; credential: string };
	logFile: string;
}

export function bannerLines(input: BannerInput): string[] {
	const lines = [
		`n8n is ready:      ${input.n8nUrl}`,
		`  login:           ${input.login.email} / ${input.login.password}`,
		'  workflows:',
		...[...input.workflows]
			.sort((a, b) => a.name.localeCompare(b.name))
			.map((workflow) => `    ${workflow.name}${workflow.active ? '  (active)' : ''}`),
		'',
		'Try it (in another terminal, in this folder):',
		'  npm run demo -- apply            an approved application: the signing envelope is generated',
		'  npm run demo -- apply rejected   a rejected one: no envelope',
		input.karakeep
			? '  npm run demo -- sign             everyone signs: the signed PDF is filed in Karakeep'
			: '  npm run demo -- sign             everyone signs: the certified package is filed as a bookmark',
		'',
	];
	const mcpPaths = input.mcpPath === undefined ? [] : [input.mcpPath].flat();
	if (mcpPaths.length) {
		lines.push(
			...mcpPaths.map((mcpPath) => `MCP server:        ${input.n8nUrl}/mcp/${mcpPath}`),
			`  header:          Authorization: Bearer ${input.mcpToken}`,
			'',
		);
	}
	lines.push(
		`Signing sandbox:   ${input.sandbox.signing.url}  (token ${input.sandbox.signing.apiKey})`,
		...(input.karakeep
			? [
					`Karakeep:          ${input.karakeep.url}  (key ${input.karakeep.apiKey}; its REST API only: no web UI, a browser gets 404)`,
					`  credential:      "${input.karakeep.credential}", the only Bookmarks credential: ${input.karakeep.searchUrl}`,
					'                   (in front of Karakeep, adds the search that Karakeep does with Meilisearch, not run here)',
					'  holds:           a few demo records; its webhooks go to the Karakeep sample',
				]
			: [`Bookmark sandbox:  ${input.sandbox.bookmark.url}  (key ${input.sandbox.bookmark.apiKey})`]),
		`Survey sandbox:    ${input.sandbox.survey.url}  (key ${input.sandbox.survey.apiKey}${input.sandbox.survey.api === 'formbricks' ? ', speaks Formbricks' : ''})`,
		...(input.smtp
			? [`SMTP sink:         ${input.smtp.address}  (credential "${input.smtp.credential}"; each e-mail lands in ${input.smtp.folder}/)`]
			: []),
		`n8n log:           ${input.logFile}`,
		'',
		'Press Ctrl+C to stop everything.',
	);
	return lines;
}
