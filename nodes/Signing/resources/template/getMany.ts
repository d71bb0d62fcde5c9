import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import { signingAdapter } from '../../adapters';

const show = { resource: ['template'], operation: ['getMany'] };

export const getManyDescription: INodeProperties[] = [...returnAllAndLimit(show, 50)];

/** Templates, newest first, each with its recipients' placeholders and prefillable fields. */
export async function getMany(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readLimit(this, itemIndex, 50);
	const adapter = await signingAdapter(this, itemIndex);
	return await adapter.listTemplates(this, limit, itemIndex);
}
