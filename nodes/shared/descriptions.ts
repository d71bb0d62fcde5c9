import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { checkedInteger } from './validation';

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

/** The limit the user asked for (a whole number of at least 1), or undefined for all. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number, defaultLimit: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = ctx.getNodeParameter('limit', itemIndex, defaultLimit) as unknown;
	return checkedInteger(ctx, itemIndex, limit, 'Limit', { min: 1 });
}

/**
 * A whole-number option of an Options collection, checked against the range its own
 * description declares (`typeOptions.minValue` / `maxValue`, at least 0 when none) and named by
 * its display name; the option's default when it was not added.
 */
export function readIntegerOption(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	option: INodeProperties,
): number {
	const value = options[option.name] ?? option.default;
	return checkedInteger(ctx, itemIndex, value, option.displayName, {
		min: option.typeOptions?.minValue ?? 0,
		max: option.typeOptions?.maxValue,
	});
}

/**
 * The subtitle of a trigger: its selected events as words (`responseFinished` and
 * `document.completed` read "Response finished", "Document completed").
 */
export function eventsSubtitle(parameter = 'events'): string {
	return `={{ [].concat($parameter["${parameter}"] || []).map(e => String(e).replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[._-]+/g, " ").toLowerCase().replace(/^./, c => c.toUpperCase())).join(", ") }}`;
}

/**
 * A trigger's event choices with the words n8n's nodes panel shows for each ("On Document
 * Completed"): without an `action`, n8n lower-cases the name ("On recipient completed documenso").
 */
export function withTriggerActions<Option extends INodePropertyOptions>(options: Option[]): Option[] {
	return options.map((option) => ({ action: `On ${option.name}`, ...option }));
}
