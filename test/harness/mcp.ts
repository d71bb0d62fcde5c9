import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** A tool's answer as an MCP client gets it: its text parts joined, and whether it is an error. */
export async function callMcpTool(
	client: Client,
	name: string,
	args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
	const result = (await client.callTool({ name, arguments: args })) as {
		content: Array<{ type: string; text: string }>;
		isError?: boolean;
	};
	return { text: result.content.map((part) => part.text).join(''), isError: result.isError === true };
}
