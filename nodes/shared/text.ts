/** Words in a sentence: `joinWords(['a', 'b', 'c'], 'or')` is "a, b or c"; one word alone; none, "". */
function joinWords(words: readonly string[], conjunction: 'and' | 'or'): string {
	if (words.length <= 1) return words[0] ?? '';
	return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/** "a, b or c". */
export const joinOr = (words: readonly string[]): string => joinWords(words, 'or');

/** "a, b and c". */
export const joinAnd = (words: readonly string[]): string => joinWords(words, 'and');

/**
 * Item indexes as a person reads them, runs of consecutive ones as ranges:
 * `[0, 2, 3, 4, 7]` is "0, 2 to 4 and 7".
 */
export function indexRanges(indexes: readonly number[]): string {
	const sorted = [...new Set(indexes)].sort((a, b) => a - b);
	const ranges: string[] = [];
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		ranges.push(end === start ? String(sorted[start]) : `${sorted[start]} to ${sorted[end]}`);
		start = end + 1;
	}
	return joinAnd(ranges);
}
