import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { DocumentFilter, FolderKind, SigningAdapter } from '../../adapters';
import { signingAdapter, signingApis } from '../../adapters';

/** The folder choice of Document and Template Get Many: the root (the default), every folder, or one. */
export const folderFilterOption = (kind: FolderKind): INodeProperties => ({
	displayName: 'Folder Name or ID',
	name: 'folderId',
	type: 'options',
	typeOptions: {
		loadOptionsMethod: kind === 'DOCUMENT' ? 'getDocumentFolders' : 'getTemplateFolders',
	},
	default: '',
	description:
		'Documenso lists one folder at a time: without this, the root only, and anything filed in a folder is missed. All Folders reads the root and then each folder (one more list read per folder). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
});

async function folderOptions(
	ctx: ILoadOptionsFunctions,
	kind: FolderKind,
): Promise<INodePropertyOptions[]> {
	const root = { name: 'Root (Not in a Folder)', value: '' };
	const folders = (await signingAdapter(ctx)).folders;
	if (!folders) return [root];
	const found = await folders.list(ctx, kind);
	return [
		root,
		{
			name: 'All Folders',
			value: 'all',
			description: `The root and each of the ${found.length} folder(s): ${found.length + 1} list reads or more`,
		},
		...found.map((folder) => ({ name: String(folder.name), value: String(folder.id) })),
	];
}

export async function getDocumentFolders(this: ILoadOptionsFunctions) {
	return await folderOptions(this, 'DOCUMENT');
}

export async function getTemplateFolders(this: ILoadOptionsFunctions) {
	return await folderOptions(this, 'TEMPLATE');
}

/** Records of a folder (or all) when the filters name one; undefined for the root, which every API lists. */
export async function listInChosenFolder(
	ctx: IExecuteFunctions,
	adapter: SigningAdapter,
	kind: FolderKind,
	filters: IDataObject,
	filter: DocumentFilter,
	limit: number | undefined,
	itemIndex: number,
): Promise<IDataObject[] | undefined> {
	const folder = typeof filters.folderId === 'string' ? filters.folderId.trim() : '';
	if (folder === '') return undefined;
	const folders = signingApis.capability(ctx, adapter, 'folders', 'Filters › Folder', itemIndex);
	return await folders.listIn(ctx, kind, folder, filter, limit, itemIndex);
}
