// A gzip stream whose bytes depend only on its input: raw deflate between a fixed 10-byte header
// (no file name, mtime 0, no extra flags, OS 255 "unknown" as Python's gzip writes: zlib itself
// would write 3 on Unix and 10 on Windows) and the CRC-32 and length trailer of RFC 1952. The
// deflate bytes are zlib's at a fixed level, so the same Node.js (and its zlib) gives the same bytes.
//
//   write GZIP_HEADER, then createDeflateRaw({ level })'s output of the bytes given to
//   trailer.update(), then trailer.bytes()
import { crc32 } from 'node:zlib'

export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])

/** A running CRC-32 and length of the uncompressed bytes, for the trailer. */
export class GzipTrailer {
  #crc = 0
  #length = 0

  update(chunk: Buffer): void {
    this.#crc = crc32(chunk, this.#crc)
    this.#length = (this.#length + chunk.length) % 2 ** 32
  }

  bytes(): Buffer {
    const t = Buffer.alloc(8)
    t.writeUInt32LE(this.#crc >>> 0, 0)
    t.writeUInt32LE(this.#length, 4)
    return t
  }
}
