import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import { signingPages } from '../../transport';
import { templateLocator } from '../template/locator';
import { simplifyDocument, simplifyDocumentParameter, wantsSimplified } from './simplify';

const show = { resource: ['document'], operation: ['getMany'] };

export const DOCUMENT_STATUSES = [
	{ name: 'Cancelled', value: 'CANCELLED' },
	{ name: 'Completed', value: 'COMPLETED' },
	{ name: 'Draft', value: 'DRAFT' },
	{ name: 'Pending', value: 'PENDING', description: 'Sent, waiting for signatures' },
	{ name: 'Rejected', value: 'REJECTED' },
];

export const getManyDescription: INodeProperties[] = [
	...returnAllAndLimit(show, 50),
	simplifyDocumentParameter(['getMany']),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'PENDING',
				options: DOCUMENT_STATUSES,
				description: 'Only documents with this status',
			},
			{
				...templateLocator({}, { description: 'Only documents generated from this template' }),
				displayOptions: undefined,
				required: false,
			},
		],
	},
];

/** Documents, newest first, optionally of one status and one template. */
export async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (typeof filters.status === 'string' && filters.status !== '') qs.status = filters.status;
	// A locator inside a collection arrives as { mode, value }; the ID goes into the query, not the path.
	const template = filters.templateId as IDataObject | string | undefined;
	const templateId = String(
		(typeof template === 'object' ? template?.value : template) ?? '',
	).trim();
	if (templateId !== '') qs.templateId = templateId;
	const limit = readLimit(this, itemIndex, 50);
	const documents = await signingPages(this, { path: '/api/v2/documents', qs, itemIndex }, limit);
	return wantsSimplified(this, itemIndex) ? documents.map(simplifyDocument) : documents;
}
