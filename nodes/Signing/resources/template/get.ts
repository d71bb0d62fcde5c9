import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getTemplate, readTemplateId, templateLocator } from './locator';

export const getDescription: INodeProperties[] = [
	templateLocator({ resource: ['template'], operation: ['get'] }),
];

export async function get(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	return await getTemplate(this, readTemplateId(this, itemIndex), itemIndex);
}
