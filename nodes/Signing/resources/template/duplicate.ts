import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requireToolConsent } from '../../../shared/toolConsent';
import { signingAdapter, signingApis } from '../../adapters';
import { consentTo } from '../../personalData';
import { readTemplateId } from './locator';

/** A copy of a template, with its slots and fields. */
export async function duplicate(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	requireToolConsent(this, itemIndex, consentTo('Creating templates'));
	const templates = signingApis.capability(
		this,
		await signingAdapter(this, itemIndex),
		'templates',
		'Template → Duplicate',
		itemIndex,
	);
	return await templates.duplicate(this, readTemplateId(this, itemIndex), itemIndex);
}
