import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import { signingAdapter } from '../../adapters';
import { folderFilterOption, listInChosenFolder } from '../folder/folderFilter';

const show = { resource: ['template'], operation: ['getMany'] };

export const getManyDescription: INodeProperties[] = [
	...returnAllAndLimit(show, 50),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [folderFilterOption('TEMPLATE')],
	},
];

/** Templates, newest first, each with its recipients' placeholders and prefillable fields. */
export async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readLimit(this, itemIndex, 50);
	const adapter = await signingAdapter(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	return (
		(await listInChosenFolder(this, adapter, 'TEMPLATE', filters, {}, limit, itemIndex)) ??
		(await adapter.listTemplates(this, limit, itemIndex))
	);
}
