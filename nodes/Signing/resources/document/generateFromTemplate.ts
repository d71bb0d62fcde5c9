import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { signingAdapter } from '../../adapters';
import { personalDataOption, runsAsTool } from '../../../shared/privacy';
import { requireToolConsent } from '../../../shared/toolConsent';
import { consentTo, PERSONAL_DATA_DESCRIPTION } from '../../personalData';
import { requiredString } from '../../../shared/validation';
import { readTemplateId, templateLocator } from '../template/locator';
import { emailOptionsProperty, readEmailOptions } from './emailOptions';
import { prefillDescription, prefillFromParameters, readPrefillFields } from './prefill';
import { assignSlots, readRecipients, recipientsDescription, unfilledSlotsOption } from './recipients';
import { withoutSigningUrls } from './signingUrls';
import { simplifyDocument, simplifyDocumentParameter, wantsSimplified } from './simplify';

const showOnlyForGenerate = { resource: ['document'], operation: ['generateFromTemplate'] };

export const generateFromTemplateDescription: INodeProperties[] = [
	templateLocator(showOnlyForGenerate),
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Residency agreement – Ada Lovelace',
		description: 'Title of the new document, as recipients will see it',
		displayOptions: { show: showOnlyForGenerate },
	},
	...recipientsDescription,
	{
		displayName: 'Send Now',
		name: 'distribute',
		type: 'boolean',
		default: true,
		description:
			'Whether to e-mail the invitations at once. Off leaves a draft, to send later with Document → Send.',
		displayOptions: { show: showOnlyForGenerate },
	},
	...prefillDescription,
	emailOptionsProperty(showOnlyForGenerate),
	simplifyDocumentParameter(['generateFromTemplate']),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showOnlyForGenerate },
		options: [
			{
				displayName: 'Include Signing URLs',
				name: 'includeSigningUrls',
				type: 'boolean',
				default: true,
				description:
					'Whether to return each recipient’s signing URL. Anyone with the link can sign as that recipient. Without this option: included, but left out when the node runs as an AI agent tool.',
			},
			unfilledSlotsOption,
			{ ...personalDataOption, description: PERSONAL_DATA_DESCRIPTION },
		],
	},
];

export async function generateFromTemplate(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const distribute = this.getNodeParameter('distribute', itemIndex, true) as boolean;
	// A draft e-mails no one; sending it at once does, which an agent may do only with consent.
	if (distribute !== false) {
		requireToolConsent(
			this,
			itemIndex,
			consentTo('Generating a document that e-mails its recipients'),
			'Or turn Send Now off: an agent may then create drafts, which e-mail no one, to send later.',
		);
	}
	const templateId = readTemplateId(this, itemIndex);
	const title = requiredString(this, itemIndex, 'title', 'Title');
	const recipients = readRecipients(this, itemIndex);
	const meta = readEmailOptions(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const prefillEntries = prefillFromParameters(this, itemIndex);
	const adapter = await signingAdapter(this, itemIndex);
	const document = await adapter.generate(
		this,
		{
			templateId,
			title,
			recipients,
			meta,
			distribute,
			hasPrefill: prefillEntries.length > 0,
			prefill: (template) => readPrefillFields(this, itemIndex, template, prefillEntries),
			assignSlots: (template, { everySlot }) =>
				assignSlots(this, itemIndex, template, recipients, {
					everySlot,
					keepTemplateRecipients: options.unfilledSlots === 'keep',
				}),
		},
		itemIndex,
	);
	const includeSigningUrls =
		typeof options.includeSigningUrls === 'boolean'
			? options.includeSigningUrls
			: !runsAsTool(this);
	const output = includeSigningUrls ? document : withoutSigningUrls(document);
	// The documented answer does not repeat the template; the one shape names it.
	return wantsSimplified(this, itemIndex) ? simplifyDocument({ templateId, ...output }) : output;
}
