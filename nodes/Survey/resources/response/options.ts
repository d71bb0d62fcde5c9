import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_CONCURRENCY } from '../../transport';

export const maxConcurrencyOption: INodeProperties = {
	displayName: 'Max Concurrent Requests',
	name: 'maxConcurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 16 },
	default: DEFAULT_MAX_CONCURRENCY,
	description:
		'Pages fetched at the same time once the total is known. The service allows 100 requests a minute; rate-limited pages wait for Retry-After and are retried.',
};

export const offsetOption: INodeProperties = {
	displayName: 'Offset',
	name: 'offset',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description: 'Number of responses to skip, counted from the oldest',
};
