import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { readTemplateId } from './locator';

/** Deletes a template; the documents made from it stay. */
export async function deleteTemplate(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Deleting templates'));
	const templates = signingApis.capability(
		this,
		await signingAdapter(this, itemIndex),
		'templates',
		'Template → Delete',
		itemIndex,
	);
	return await templates.delete(this, readTemplateId(this, itemIndex), itemIndex);
}
