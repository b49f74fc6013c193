import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileFault, UsageError } from './io.ts';

// A file the command reads whole (a business file), or standard input for `-`, read as a stream:
// standard input may be a pipe whose writer is slower than the reader, which a single read of
// it refuses (EAGAIN); and what is read stops at a limit, so a device that never ends
// (/dev/zero) or a file far larger than any business file cannot take all the memory.

/** Far more than the largest business file the reader can hold in memory at once. */
const MB = 1024 * 1024;
export const READ_LIMIT = 256 * MB;

export async function readWhole(file: string, limit = READ_LIMIT): Promise<Buffer> {
  const name = file === '-' ? 'Standard input' : file;
  const stream: Readable = file === '-' ? process.stdin : createReadStream(file);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += bytes.length;
      if (size > limit) {
        stream.destroy();
        throw new UsageError(
          `${name} is over ${limit >= MB ? `${limit / MB} MB` : `${limit} bytes`}, more than a business file holds; check it is the file you meant.`,
        );
      }
      chunks.push(bytes);
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw fileFault(file, err, 'read');
  }
  return Buffer.concat(chunks, size);
}
