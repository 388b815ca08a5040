import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { answerFile } from '../core/util/file-answer';
import { contentType } from '../core/util/content-type';
import { openUnder, type OpenedFile } from '../core/util/open-verified';
import { AppError } from '../../src-shared/errors';

/**
 * Sends an opened file from its descriptor (Range honoured). The descriptor is closed on every
 * way out: sent, HEAD, 416, a read error, a client that left (the pipeline destroys the stream,
 * which closes it).
 */
export async function sendOpened(req: IncomingMessage, res: ServerResponse, file: OpenedFile, type: string, headers: Record<string, string> = {}): Promise<void> {
  const answer = await answerFile(file, type, req.headers.range, req.method ?? 'GET');
  res.writeHead(answer.status, { ...answer.headers, ...headers });
  if (!answer.body) {
    res.end();
    return;
  }
  await pipeline(answer.body, res).catch(() => undefined);
}

/** A file of the built renderer: only under `root`, opened once without following a link. */
export async function sendUnder(req: IncomingMessage, res: ServerResponse, root: string, rel: string, headers: Record<string, string> = {}): Promise<void> {
  const file = await openUnder(root, rel);
  if (file instanceof AppError) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  await sendOpened(req, res, file, contentType(file.real), headers);
}
