import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readIntegerOption, readLimit, returnAllAndLimit } from '../../../shared/descriptions';
import { personalDataOption } from '../../../shared/privacy';
import { invalidInput, requiredId } from '../../../shared/validation';
import { surveyCapability } from '../../transport';
import { contactsOutput } from '../contact/output';
import { readSurveyId, surveyLocator } from '../surveyLocator';

const show = { resource: ['survey'], operation: ['getPersonalLink'] };

const expiresAfterDays: INodeProperties = {
	displayName: 'Expires After (Days)',
	name: 'expirationDays',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 365 },
	default: 30,
	description: 'How long the link works; without this option it does not expire',
};

/** Formbricks' largest number of a contact's attributes a segment's links may carry. */
const MAX_ATTRIBUTE_KEYS = 20;

export const getPersonalLinkDescription: INodeProperties[] = [
	surveyLocator(show),
	{
		displayName: 'For',
		name: 'linkFor',
		type: 'options',
		default: 'contact',
		options: [
			{ name: 'Contact', value: 'contact', description: 'The link of one contact' },
			{ name: 'Segment', value: 'segment', description: 'One link for each contact of a segment' },
		],
		displayOptions: { show },
	},
	{
		displayName: 'Contact ID',
		name: 'contactId',
		type: 'string',
		required: true,
		default: '',
		description: 'The contact who answers through the link (Contact → Create or Get Many gives it)',
		displayOptions: { show: { ...show, linkFor: ['contact'] } },
	},
	{
		displayName: 'Segment ID',
		name: 'segmentId',
		type: 'string',
		required: true,
		default: '',
		description: 'The segment whose contacts get links (Formbricks: Contacts → Segments; the ID is in the segment’s address)',
		displayOptions: { show: { ...show, linkFor: ['segment'] } },
	},
	...returnAllAndLimit({ ...show, linkFor: ['segment'] }, 50),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { ...show, linkFor: ['contact'] } },
		options: [expiresAfterDays, personalDataLinks()],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { ...show, linkFor: ['segment'] } },
		options: [
			{
				displayName: 'Contact Attributes',
				name: 'attributeKeys',
				type: 'string',
				default: '',
				placeholder: 'email, firstName',
				description: `Comma-separated attribute keys of each contact to return beside the link, e.g. to e-mail it (at most ${MAX_ATTRIBUTE_KEYS})`,
			},
			expiresAfterDays,
			personalDataLinks(),
		],
	},
];

function personalDataLinks(): INodeProperties {
	return {
		...personalDataOption,
		description:
			'What to do with the links and the contacts’ attributes: a personal link lets whoever has it answer as the contact. Without this option: kept as they are, but redacted when the node runs as an AI agent tool.',
	};
}

function readAttributeKeys(ctx: IExecuteFunctions, itemIndex: number, options: IDataObject): string[] {
	const keys = String(options.attributeKeys ?? '')
		.split(',')
		.map((key) => key.trim())
		.filter(Boolean);
	if (keys.length > MAX_ATTRIBUTE_KEYS) {
		throw invalidInput(ctx, itemIndex, 'Contact Attributes', `${keys.length} keys given, Formbricks returns at most ${MAX_ATTRIBUTE_KEYS}`);
	}
	return keys;
}

/**
 * A contact's personal link to a survey, or one for each contact of a segment (read page by page,
 * newest contact first): whoever opens it answers as that contact.
 */
export async function getPersonalLink(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const surveyId = readSurveyId(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const expirationDays =
		options.expirationDays === undefined ? undefined : readIntegerOption(this, itemIndex, options, expiresAfterDays);
	const links = await surveyCapability(this, 'personalLinks', 'Survey → Get Personal Link', itemIndex);
	if (this.getNodeParameter('linkFor', itemIndex, 'contact') === 'contact') {
		const contactId = requiredId(this, itemIndex, 'contactId', 'Contact ID');
		const link = await links.forContact(this, { surveyId, contactId, expirationDays }, itemIndex);
		return contactsOutput(this, [{ surveyId, contactId, ...link }], itemIndex);
	}
	const segmentId = requiredId(this, itemIndex, 'segmentId', 'Segment ID');
	const attributeKeys = readAttributeKeys(this, itemIndex, options);
	const limit = readLimit(this, itemIndex, 50) ?? Infinity;
	const found: IDataObject[] = [];
	for (let skip = 0; found.length < limit; ) {
		const size = Math.min(links.segmentPageSize, limit - found.length);
		const page = await links.forSegment(this, { surveyId, segmentId, expirationDays, attributeKeys, skip, limit: size }, itemIndex);
		found.push(...page.links.map((link) => ({ surveyId, ...link })));
		skip += page.links.length;
		if (page.links.length < size || skip >= page.total) break;
	}
	return contactsOutput(this, found, itemIndex);
}
