import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** The usual "Return All" switch and the "Limit" it hides, for one operation. */
export function returnAllAndLimit(show: IDisplayOptions['show'], defaultLimit: number): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			// Each service documents its own default (bookmarks 20, survey responses 50).
			// eslint-disable-next-line n8n-nodes-base/node-param-default-wrong-for-limit
			default: defaultLimit,
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
		},
	];
}

/** The limit the user asked for, or undefined for all. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number, defaultLimit: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	return ctx.getNodeParameter('limit', itemIndex, defaultLimit) as number;
}
