import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_CONCURRENCY } from '../../transport';

export const maxConcurrencyOption: INodeProperties = {
	displayName: 'Max Concurrent Requests',
	name: 'maxConcurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 32 },
	default: DEFAULT_MAX_CONCURRENCY,
	description:
		'Most pages fetched at the same time once the total is known. When the service answers 429 (too many requests), fewer are fetched at once, and the refused pages wait until its window reopens and are fetched again before any newer page. Formbricks tells no total: there, pages are read one after another.',
};

export const offsetOption: INodeProperties = {
	displayName: 'Offset',
	name: 'offset',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description: 'Number of responses to skip, counted from the oldest',
};
