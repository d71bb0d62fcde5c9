import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import { signingAdapter } from '../../adapters';
import { folderFilterOption, listInChosenFolder } from '../folder/folderFilter';
import { templateLocator } from '../template/locator';
import { forOutput } from './signingUrls';
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
			folderFilterOption('DOCUMENT'),
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
	const status = typeof filters.status === 'string' && filters.status !== '' ? filters.status : undefined;
	// A locator inside a collection arrives as { mode, value }; the ID goes into the query, not the path.
	const template = filters.templateId as IDataObject | string | undefined;
	const templateId = String(
		(typeof template === 'object' ? template?.value : template) ?? '',
	).trim();
	const limit = readLimit(this, itemIndex, 50);
	const adapter = await signingAdapter(this, itemIndex);
	const filter = { status, templateId: templateId || undefined };
	const documents = (
		(await listInChosenFolder(this, adapter, 'DOCUMENT', filters, filter, limit, itemIndex)) ??
		(await adapter.listDocuments(this, filter, limit, itemIndex))
	).map((document) => forOutput(this, document));
	return wantsSimplified(this, itemIndex) ? documents.map(simplifyDocument) : documents;
}
