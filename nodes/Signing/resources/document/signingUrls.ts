import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { runsAsTool } from '../../../shared/privacy';

const withoutUrl = (recipient: unknown): unknown => {
	if (recipient === null || typeof recipient !== 'object' || Array.isArray(recipient)) return recipient;
	const rest = { ...(recipient as IDataObject) };
	delete rest.signingUrl;
	return rest;
};

/**
 * A document without its recipients' signing URLs. A signing URL lets anyone sign as its
 * recipient: an agent's context is no place for it.
 */
export function withoutSigningUrls(document: IDataObject): IDataObject {
	const stripped: IDataObject = { ...document };
	// `Recipient`: Documenso's webhook payloads list the recipients twice.
	for (const key of ['recipients', 'Recipient']) {
		if (Array.isArray(document[key])) stripped[key] = (document[key] as unknown[]).map(withoutUrl) as IDataObject[];
	}
	if (document.recipient !== undefined) stripped.recipient = withoutUrl(document.recipient) as IDataObject;
	return stripped;
}

/**
 * A document for the node's output: with its signing URLs for an ordinary node (only APIs that
 * expose them outside Generate From Template, as Documenso does, have any), without them when the
 * node runs as an AI agent's tool.
 */
export const forOutput = (ctx: IExecuteFunctions, document: IDataObject): IDataObject =>
	runsAsTool(ctx) ? withoutSigningUrls(document) : document;
