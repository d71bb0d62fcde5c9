import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { readUpload, uploadDescription } from '../document/upload';

const show = { resource: ['template'], operation: ['createFromFile'] };

export const createFromFileDescription: INodeProperties[] = uploadDescription(show, 'template');

/** Uploads a PDF as a template: its recipients become the template's slots, with their fields. */
export async function createFromFile(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Creating templates'));
	const adapter = await signingAdapter(this, itemIndex);
	const templates = signingApis.capability(
		this,
		adapter,
		'templates',
		'Template → Create From File',
		itemIndex,
	);
	const upload = await readUpload(this, itemIndex, adapter.uploads?.defaultSizeLimitMb ?? 50);
	return await templates.createFromFile(this, upload, itemIndex);
}
