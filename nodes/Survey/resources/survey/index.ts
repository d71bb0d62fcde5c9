import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { get, getDescription } from './get';
import { getMany, getManyDescription } from './getMany';
import { getMetrics, getMetricsDescription } from './getMetrics';
import { getPersonalLink, getPersonalLinkDescription } from './getPersonalLink';
import { getSingleUseLinks, getSingleUseLinksDescription } from './getSingleUseLinks';
import { platformOnlyNotices, withPlatformOnly } from '../../../shared/platformOnly';

export const surveyOperations: Record<string, ItemOperation> = {
	get,
	getMany,
	getMetrics,
	getPersonalLink,
	getSingleUseLinks,
};

export const surveyDescription: INodeProperties[] = [
	withPlatformOnly('Formbricks', ['getPersonalLink', 'getSingleUseLinks'], {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['survey'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a survey',
				description: 'Get one survey with its questions',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many surveys',
				description:
					'List the workspace’s surveys, published and draft, optionally by status and type. On Formbricks, which lists no response count, the responses of each survey returned are counted (a few requests per survey).',
			},
			{
				name: 'Get Metrics',
				value: 'getMetrics',
				action: 'Get survey metrics',
				description:
					'Response counts, completion rate, first and last response, recent activity and median time to finish',
			},
			{
				name: 'Get Personal Link',
				value: 'getPersonalLink',
				action: 'Get a personal survey link',
				description:
					'A link through which one contact (or each contact of a segment) answers as themselves; needs Formbricks’ Enterprise licence',
			},
			{
				name: 'Get Single-Use Links',
				value: 'getSingleUseLinks',
				action: 'Get single use survey links',
				description: 'Links that each take one anonymous response; the survey’s single-use links must be on',
			},
		],
		default: 'getMany',
	}),
	...platformOnlyNotices('Formbricks', 'survey', { getPersonalLink: '', getSingleUseLinks: '' }),
	...getDescription,
	...getManyDescription,
	...getMetricsDescription,
	...getPersonalLinkDescription,
	...getSingleUseLinksDescription,
];
