import type { INodeProperties } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/execute';
import { get, getDescription } from './get';
import { getMany, getManyDescription } from './getMany';
import { getMetrics, getMetricsDescription } from './getMetrics';

export const surveyOperations: Record<string, ItemOperation> = { get, getMany, getMetrics };

export const surveyDescription: INodeProperties[] = [
	{
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
		],
		default: 'getMany',
	},
	...getDescription,
	...getManyDescription,
	...getMetricsDescription,
];
