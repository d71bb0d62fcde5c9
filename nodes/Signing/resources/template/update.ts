import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { readChanges } from '../document/update';
import { readTemplateId } from './locator';

/** Changes a template's title, external ID or folder. */
export async function update(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Changing templates'));
	const templates = signingApis.capability(
		this,
		await signingAdapter(this, itemIndex),
		'templates',
		'Template → Update',
		itemIndex,
	);
	return await templates.update(
		this,
		readTemplateId(this, itemIndex),
		readChanges(this, itemIndex),
		itemIndex,
	);
}
