/**
 * The PDF the signing service hands out: a small, valid, single-page PDF 1.4 whose bytes depend
 * only on the document and the version asked for, so that a test can compare what a node stored
 * with what the service sent, byte for byte.
 */

export interface PdfSource {
	id: string;
	title: string;
	recipients: Array<{ name: string; role: string; signingStatus: string; signedAt: string | null }>;
	completedAt: string | null;
	/** Bytes of comment lines added to the PDF, to make a large file (tests of large downloads). */
	pdfPadding?: number;
}

/** PDF strings in the standard fonts are Latin; anything else becomes its nearest ASCII form. */
function pdfText(text: string): string {
	return text
		.replace(/[\u2013\u2014]/g, '-')
		.normalize('NFKD')
		.replace(/[^\x20-\x7e]/g, '')
		.replace(/([\\()])/g, '\\$1');
}

export function documentPdf(document: PdfSource, version: 'signed' | 'original'): Buffer {
	const lines = [
		document.title,
		`Document ${document.id}`,
		version === 'signed' ? `Certified copy, completed ${document.completedAt}` : 'Original',
		...document.recipients.map((recipient) =>
			version === 'signed' && recipient.signedAt
				? `${recipient.role} ${recipient.name}: signed ${recipient.signedAt}`
				: `${recipient.role} ${recipient.name}`,
		),
	];
	return textPdf([lines], { padding: document.pdfPadding });
}

/**
 * A valid PDF 1.4 of A4 pages, each with its lines of text in Helvetica 12 from the top left:
 * the documents a test uploads (with placeholders such as `[[sign-ada]]` among the lines).
 * `padding` adds comment lines of that many bytes, to make a large file.
 */
export function textPdf(pages: string[][], options: { padding?: number } = {}): Buffer {
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		`<< /Type /Pages /Kids [${pages.map((_, index) => `${4 + index * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	for (const [index, lines] of pages.entries()) {
		const content = ['BT', '/F1 12 Tf', '14 TL', '72 770 Td', ...lines.map((line) => `(${pdfText(line)}) '`), 'ET'].join('\n');
		objects.push(
			`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`,
			`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
		);
	}
	let pdf = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((object, index) => {
		offsets.push(Buffer.byteLength(pdf, 'latin1'));
		pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
	});
	// Comment lines before the cross-reference table keep every offset above valid.
	const padding = options.padding ?? 0;
	const line = `%${'0123456789abcdef'.repeat(64)}\n`;
	const lines = Math.ceil(padding / line.length);
	const xref = Buffer.byteLength(pdf, 'latin1') + lines * line.length;
	let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const offset of offsets) tail += `${String(offset).padStart(10, '0')} 00000 n \n`;
	tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.concat([Buffer.from(pdf, 'latin1'), Buffer.alloc(lines * line.length, line, 'latin1'), Buffer.from(tail, 'latin1')]);
}

/**
 * `attachment; filename="<title>.pdf"` as the contract shows it. A header carries Latin-1 only:
 * a title beyond ASCII gets an ASCII fallback there and its exact form in `filename*` (RFC 6266).
 */
export function contentDisposition(title: string): string {
	const fileName = `${title}.pdf`;
	const fallback = fileName.replace(/[\u2013\u2014]/g, '-').replace(/[^\x20-\x7e]|["\\]/g, '_');
	if (fallback === fileName) return `attachment; filename="${fileName}"`;
	return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
