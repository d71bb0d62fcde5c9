import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runsAsTool } from '../../../shared/privacy';
import { checkedInteger, requiredId } from '../../../shared/validation';
import { bookmarkAdapter, bookmarkApis, type ReadableContent } from '../../adapters';
import { recordLocator } from '../locators';

/**
 * Bookmark → Get Content: a record's readable content (a text record's text, a file's extracted
 * text, a page's crawled article as markdown or plain text), read piece by piece to the end or up
 * to Max Characters. Content changed while it is read is read again from the start, at most
 * `MAX_RESTARTS` times.
 */

const show = { resource: ['bookmark'], operation: ['getContent'] };
const MAX_RESTARTS = 3;
/** What a tool reads when Max Characters is 0: a crawled page or a PDF can fill an agent's context, personal data and all. */
export const TOOL_MAX_CHARACTERS = 20_000;

/** Shown right below the operation, after "Karakeep only." (shared/platformOnly.ts). */
export const GET_CONTENT_NOTICE =
	'Empty content comes with a reason: Karakeep extracts a file’s text and crawls a link’s page in the background, so a record just made may have none yet, and a Karakeep that runs no workers (OCR, crawler) never gets any.';

export const getContentDescription: INodeProperties[] = [
	recordLocator(show, 'The record whose content to read'),
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		default: 'markdown',
		options: [
			{ name: 'Markdown', value: 'markdown', description: 'Headings, lists and links kept as markdown' },
			{ name: 'Plain Text', value: 'text', description: 'The words only' },
		],
		displayOptions: { show },
	},
	{
		displayName: 'Max Characters',
		name: 'maxCharacters',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description:
			'Read at most this many characters from the start; 0 reads the whole content, or the first 20,000 characters when the node runs as an AI agent tool (set a number to read more)',
		displayOptions: { show },
	},
];

/** The content read once from the start, or `changed` when the service says it changed meanwhile. */
async function readOnce(
	ctx: IExecuteFunctions,
	itemIndex: number,
	reader: ReadableContent,
	recordId: string,
	format: 'markdown' | 'text',
	maxCharacters: number,
): Promise<IDataObject | 'changed'> {
	const pieces: string[] = [];
	let characters = 0;
	let cursor: string | null = null;
	for (;;) {
		const left = maxCharacters === 0 ? reader.maxCharsPerChunk : Math.min(maxCharacters - characters, reader.maxCharsPerChunk);
		const chunk = await reader.chunk(ctx, recordId, { format, maxChars: left, cursor }, itemIndex);
		if (chunk === 'changed') return 'changed';
		pieces.push(chunk.content);
		characters += chunk.range.end - chunk.range.start;
		cursor = chunk.nextCursor;
		if (cursor === null || (maxCharacters > 0 && characters >= maxCharacters)) {
			return {
				id: recordId,
				...chunk.beyond,
				format,
				content: pieces.join(''),
				characters,
				totalCharacters: chunk.range.total,
				complete: cursor === null,
				...(chunk.range.total === 0 && chunk.emptyReason ? { reason: chunk.emptyReason } : {}),
			};
		}
	}
}

export async function getContent(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const recordId = requiredId(this, itemIndex, 'recordId', 'Bookmark');
	const format = this.getNodeParameter('format', itemIndex, 'markdown') === 'text' ? 'text' : 'markdown';
	const chosen = checkedInteger(this, itemIndex, this.getNodeParameter('maxCharacters', itemIndex, 0), 'Max Characters', {
		min: 0,
	});
	const maxCharacters = chosen === 0 && runsAsTool(this) ? TOOL_MAX_CHARACTERS : chosen;
	const adapter = await bookmarkAdapter(this, itemIndex);
	const reader = bookmarkApis.capability(this, adapter, 'readableContent', 'Bookmark → Get Content', itemIndex);
	for (let read = 0; read <= MAX_RESTARTS; read++) {
		const content = await readOnce(this, itemIndex, reader, recordId, format, maxCharacters);
		if (content !== 'changed') return content;
	}
	throw new NodeOperationError(this.getNode(), `The content of record ${recordId} kept changing while it was read`, {
		itemIndex,
		description: `It was read from the start ${MAX_RESTARTS + 1} times, and each time it changed before the last piece was read (the service answered 409). Run the item again once the record is no longer being edited.`,
	});
}
