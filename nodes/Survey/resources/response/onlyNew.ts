import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { givesOneShape, inOneShapeVersions } from '../../../shared/simplify';

/**
 * "Only New Since Last Run" and "Advance Mark" of Response → Get Many. Version 1 has them among
 * the Options; version 2 has them at the top, so that Return All, Limit, the date filters and
 * Offset, which do not apply to an Only New read, are hidden while it is on, and Advance Mark is
 * shown only then (n8n 1.x cannot show a top-level parameter by an option inside a collection).
 */
const ONLY_NEW_DESCRIPTION =
	'Whether to read only the responses created or changed since the last run that reached a Response → Mark as Read step after this node (put one at the end of the workflow). All of them: Limit and Offset do not apply. Kept in the workflow’s static data, per node and survey; manual runs in the editor do not move it.';

const onlyNew: INodeProperties = {
	displayName: 'Only New Since Last Run',
	name: 'onlyNew',
	type: 'boolean',
	default: false,
	description: ONLY_NEW_DESCRIPTION,
};

const advanceMark: INodeProperties = {
	displayName: 'Advance Mark',
	name: 'advanceMark',
	type: 'options',
	default: 'whenMarkedAsRead',
	description: 'When "Only New Since Last Run" moves on past what this run read',
	options: [
		{
			name: 'Right Away',
			value: 'rightAway',
			description: 'As soon as this node has read; a run that fails later does not read them again',
		},
		{
			name: 'When Marked as Read',
			value: 'whenMarkedAsRead',
			description:
				'Only when a Response → Mark as Read step after this node is reached in the same run',
		},
	],
};

/** Version 2: top-level switches; Advance Mark only while Only New is on. */
export function onlyNewParameters(show: Record<string, string[]>): INodeProperties[] {
	const inVersion2 = { ...show, ...inOneShapeVersions };
	return [
		{ ...onlyNew, displayOptions: { show: inVersion2 } },
		{ ...advanceMark, displayOptions: { show: { ...inVersion2, onlyNew: [true] } } },
	];
}

/** Hides a parameter of Get Many that does not apply while Only New is on (version 2). */
export const hiddenWhileOnlyNew = { onlyNew: [true] };

/** Version 1: options of the Options collection; Advance Mark only while Only New is on. */
export const onlyNewOptionsOfVersion1: INodeProperties[] = [
	{ ...advanceMark, displayOptions: { show: { onlyNew: [true] } } },
	onlyNew,
];

/** What the user chose, wherever the node's version keeps it. */
export function readOnlyNew(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): { onlyNew: boolean; advanceRightAway: boolean } {
	const chosen = givesOneShape(ctx)
		? {
				onlyNew: ctx.getNodeParameter('onlyNew', itemIndex, false),
				advanceMark: ctx.getNodeParameter('advanceMark', itemIndex, 'whenMarkedAsRead'),
			}
		: options;
	return {
		onlyNew: chosen.onlyNew === true,
		advanceRightAway: chosen.onlyNew === true && chosen.advanceMark === 'rightAway',
	};
}
