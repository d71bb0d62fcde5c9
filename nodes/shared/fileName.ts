/**
 * File names made from text a person typed (a document's title): what every file system takes
 * and shows as it is.
 */

/** File systems refuse longer names (ext4, APFS, NTFS count 255 bytes or UTF-16 units). */
export const MAX_FILE_NAME_BYTES = 255;

/**
 * Invisible characters a file name must not hold: control characters (C0, DEL, C1), and the
 * direction marks and overrides that make a name read differently from what it is
 * (`invoice\u202Efdp.exe` shows as `invoiceexe.pdf`). They are taken out.
 */
const INVISIBLE_RANGES: Array<[number, number]> = [
	[0x00, 0x08],
	[0x0e, 0x1f],
	[0x7f, 0x9f],
	[0x061c, 0x061c],
	[0x200e, 0x200f],
	[0x202a, 0x202e],
	[0x2066, 0x2069],
];
const isInvisible = (character: string) => {
	const code = character.codePointAt(0) ?? 0;
	return INVISIBLE_RANGES.some(([from, to]) => code >= from && code <= to);
};
/** Printable characters Windows or a path refuses in a name; they become `_`. */
const REFUSED = /[\\/:*?"<>|]/g;

const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8');

/** The longest start of `text` (whole characters, never half a surrogate pair) within `maxBytes`. */
function truncateUtf8(text: string, maxBytes: number): string {
	if (utf8Length(text) <= maxBytes) return text;
	let result = '';
	let bytes = 0;
	// Grapheme clusters where the runtime can tell them (an emoji with its modifiers stays whole).
	const segmenter =
		typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : undefined;
	const parts = segmenter ? [...segmenter.segment(text)].map((part) => part.segment) : [...text];
	for (const part of parts) {
		const size = utf8Length(part);
		if (bytes + size > maxBytes) break;
		result += part;
		bytes += size;
	}
	return result;
}

/**
 * A file name from `text` with `extension` (e.g. `.pdf`): line breaks and tabs become spaces,
 * invisible characters are taken out, refused ones become `_`, and the whole name is at most
 * 255 bytes in UTF-8 with the extension kept; `fallback` when nothing is left.
 */
export function fileNameFrom(text: string, extension: string, fallback: string): string {
	const visible = [...text.replace(/\s+/g, ' ')].filter((character) => !isInvisible(character));
	const base = visible.join('').replace(REFUSED, '_').trim();
	const kept = truncateUtf8(base, MAX_FILE_NAME_BYTES - utf8Length(extension)).trim();
	// A name of dots only is no file name ("." and ".." are directories).
	return `${/^\.*$/.test(kept) ? fallback : kept}${extension}`;
}
