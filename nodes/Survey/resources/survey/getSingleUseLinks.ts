import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checkedInteger } from '../../../shared/validation';
import { surveyCapability } from '../../transport';
import { readSurveyId, surveyLocator } from '../surveyLocator';

const show = { resource: ['survey'], operation: ['getSingleUseLinks'] };

/** Formbricks makes at most 5,000 links a request. */
const MAX_LINKS = 5_000;

export const getSingleUseLinksDescription: INodeProperties[] = [
	surveyLocator(show),
	{
		displayName: 'Number of Links',
		name: 'count',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_LINKS },
		default: 10,
		description: `How many links to make (at most ${MAX_LINKS.toLocaleString('en')}); each takes one response`,
		displayOptions: { show },
	},
];

/** Links that each take one anonymous response, one item per link: its `url` and its id (`suId`) as `singleUseId`. */
export async function getSingleUseLinks(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const surveyId = readSurveyId(this, itemIndex);
	const links = await surveyCapability(this, 'singleUseLinks', 'Survey → Get Single-Use Links', itemIndex);
	const count = checkedInteger(this, itemIndex, this.getNodeParameter('count', itemIndex, 10), 'Number of Links', {
		min: 1,
		max: links.maxCount,
	});
	return (await links.generate(this, surveyId, count, itemIndex)).map((url) => ({
		surveyId,
		url,
		singleUseId: new URL(url).searchParams.get('suId'),
	}));
}
