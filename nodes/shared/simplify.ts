import type { IDisplayOptions, INode, INodeProperties } from 'n8n-workflow';

/**
 * Version 2 of every node of the pack gives each record in one shape, whichever operation or
 * trigger returned it, under one Simplify switch (on by default, as in n8n's own nodes). Version 1
 * stays as it was, so that workflows built with it keep reading the same fields.
 */
export const ONE_SHAPE_VERSION = 2;

/** The versions a node of the pack offers; new nodes get the newest. */
export const NODE_VERSIONS = [1, ONE_SHAPE_VERSION];

/**
 * Version 3 of the Bookmarks node: as version 2, and Tag → Get Many gives its tags in the one
 * shape too (`id`, `name`, `bookmarkCount`) under Simplify, on every API; a platform's extra counts
 * with Simplify off. Version 2 keeps giving what the API gave, for the workflows built with it.
 */
export const TAG_SHAPE_VERSION = 3;
export const BOOKMARKS_NODE_VERSIONS = [...NODE_VERSIONS, TAG_SHAPE_VERSION];

export function givesOneShape(ctx: { getNode(): INode }): boolean {
	return (ctx.getNode().typeVersion ?? 1) >= ONE_SHAPE_VERSION;
}

/** Shown only in the versions that have the one shape (the Bookmarks node's version 3 too). */
export const inOneShapeVersions = { '@version': [ONE_SHAPE_VERSION, TAG_SHAPE_VERSION] };
/** Shown only in version 1: the parameters whose place or meaning version 2 changed. */
export const inVersion1 = { '@version': [1] };

/**
 * The Simplify switch as n8n's own nodes present it (Notion, Gmail and their triggers): a
 * top-level boolean, on by default. `shape` names what the simplified record holds.
 */
export function simplifyParameter(
	shape: string,
	show: IDisplayOptions['show'] = {},
): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: `Whether to return a simplified version of the record (${shape}) instead of the raw data`,
		displayOptions: { show: { ...show, ...inOneShapeVersions } },
	};
}
