/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * An SMTP server on 127.0.0.1 that keeps every message it is sent, for n8n's own Send Email node
 * (nodemailer, with an SMTP credential without TLS or login): the dialogue of RFC 5321 that such
 * a client speaks (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT), no relay.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import * as path from 'node:path';

export interface ReceivedMail {
	from: string;
	to: string[];
	/** The message as sent: headers, then the body. */
	raw: string;
	/** The body's text, quoted-printable soft breaks and escapes undone. */
	text: string;
	subject: string;
}

export interface SmtpSink {
	host: string;
	port: number;
	/** The messages received so far, in order. */
	mails: ReceivedMail[];
	close(): Promise<void>;
}

/** Quoted-printable (RFC 2045 §6.7): `=\r\n` joins lines, `=XX` is a byte. */
function decodeQuotedPrintable(text: string): string {
	const joined = text.replace(/=\r?\n/g, '');
	const bytes = Buffer.from(joined.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
	return bytes.toString('utf8');
}

function readMail(from: string, to: string[], raw: string): ReceivedMail {
	const [head, ...rest] = raw.split(/\r\n\r\n/);
	const body = rest.join('\r\n\r\n');
	const headers = head.replace(/\r\n[ \t]+/g, ' ');
	const subject = /^subject: (.*)$/im.exec(headers)?.[1] ?? '';
	const encoding = /^content-transfer-encoding: (.*)$/im.exec(headers)?.[1]?.trim().toLowerCase();
	const text =
		encoding === 'quoted-printable'
			? decodeQuotedPrintable(body)
			: encoding === 'base64'
				? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
				: body;
	return { from, to, raw, text, subject };
}

export interface SmtpSinkOptions {
	/** 0 (the default): a free port. `npm start` gives a fixed one, so that its credential stays valid. */
	port?: number;
	/** Also writes each message as `<n>-<recipient>.eml` here, where a user of `npm start` can open it. */
	folder?: string;
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
	if (options.folder) mkdirSync(options.folder, { recursive: true });
	const mails: ReceivedMail[] = [];
	const sockets = new Set<Socket>();
	const server: Server = createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.setEncoding('utf8');
		let buffer = '';
		let from = '';
		let to: string[] = [];
		let data: string[] | undefined;
		const reply = (line: string) => socket.write(`${line}\r\n`);
		reply('220 sink.localhost ESMTP test sink');
		socket.on('data', (chunk: string) => {
			buffer += chunk;
			let end: number;
			while ((end = buffer.indexOf('\r\n')) >= 0) {
				const line = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				if (data) {
					if (line === '.') {
						const mail = readMail(from, to, data.join('\r\n'));
						mails.push(mail);
						if (options.folder) {
							const recipient = (mail.to[0] ?? 'nobody').replace(/[^\w.@-]/g, '_');
							writeFileSync(path.join(options.folder, `${mails.length}-${recipient}.eml`), mail.raw);
						}
						data = undefined;
						from = '';
						to = [];
						reply('250 2.0.0 queued');
					} else {
						// Dot-stuffing (RFC 5321 §4.5.2): a leading dot was doubled by the client.
						data.push(line.startsWith('..') ? line.slice(1) : line);
					}
					continue;
				}
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO' || verb === 'HELO') reply('250-sink.localhost\r\n250 8BITMIME');
				else if (verb === 'MAIL') {
					from = /<(.*)>/.exec(line)?.[1] ?? '';
					reply('250 2.1.0 ok');
				} else if (verb === 'RCPT') {
					to.push(/<(.*)>/.exec(line)?.[1] ?? '');
					reply('250 2.1.5 ok');
				} else if (verb === 'DATA') {
					data = [];
					reply('354 end with <CRLF>.<CRLF>');
				} else if (verb === 'RSET') {
					from = '';
					to = [];
					reply('250 2.0.0 ok');
				} else if (verb === 'NOOP') reply('250 2.0.0 ok');
				else if (verb === 'QUIT') {
					reply('221 2.0.0 bye');
					socket.end();
				} else reply('502 5.5.2 not implemented');
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		host: '127.0.0.1',
		port,
		mails,
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
