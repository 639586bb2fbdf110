// A gzip stream whose bytes depend only on its input: raw deflate between a fixed 10-byte header
// (no file name, mtime 0, no extra flags, OS 255 "unknown" as Python's gzip writes: zlib itself
// would write 3 on Unix and 10 on Windows) and the CRC-32 and length trailer of RFC 1952. The
// deflate bytes are zlib's at a fixed level, so the same Node.js (and its zlib) gives the same bytes.
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib'

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

/**
 * zlib's default, as `tar -czf` and both LangGraph CLIs use: on Python sources (bench/RESULTS.md)
 * 1 is 2.3x faster but 13% larger, 9 15x slower for 1% less; 6 meets the time goals.
 */
export const LEVEL = 6
/** Deflate's window: each block is primed with this much of the bytes before it. */
const WINDOW = 32 * 1024
/** The empty final block that ends the stream: every block before ends with a sync flush. */
const FINAL_BLOCK = deflateRawSync(Buffer.alloc(0), { level: LEVEL })

/**
 * Deflate in blocks compressed several at once on libuv's threads (pigz's way: one zlib stream was
 * the whole of the archive's time). Each block is primed with the 32 KiB before it and ends with a
 * sync flush, so the blocks in order are one stream, whose bytes depend only on the blocks given.
 * Each block's output is copied, as zlib gives it, into a buffer reused (one per block in flight):
 * held until its turn, zlib's own output piled up as old garbage (about 30 MB on 150 MB).
 */
export class BlockDeflate {
  readonly #put: (bytes: Buffer) => Promise<void>
  readonly #window = Buffer.allocUnsafe(WINDOW)
  #windowLength = 0
  /** Output buffers free for the next block. */
  readonly #outputs: Buffer[] = []
  /** Each block's output is put after the one before: the order of the stream. */
  #order: Promise<void> = Promise.resolve()

  constructor(put: (bytes: Buffer) => Promise<void>) {
    this.#put = put
  }

  /** Deflates `block` (left untouched until `done`, called once its bytes are put, or failed). */
  write(block: Buffer, done: (err?: Error | null) => void): void {
    const dictionary =
      this.#windowLength > 0 ? this.#window.subarray(0, this.#windowLength) : undefined
    const capacity = outputCapacity(block.length)
    const free = this.#outputs.pop()
    const output = free && free.length >= capacity ? free : Buffer.allocUnsafe(capacity)
    // zlib copies the dictionary when the stream is made: the window can move on at once.
    const compressed = deflateBlock(block, dictionary, output)
    compressed.catch(() => undefined) // seen in order below
    this.#keepWindow(block)
    const written = this.#order.then(async () => this.#put(await compressed))
    this.#order = written
    // The block and its output are free once zlib is done with them and the bytes are put.
    Promise.allSettled([compressed, written]).then(([, w]) => {
      this.#outputs.push(output)
      done(w.status === 'rejected' ? (w.reason as Error) : null)
    })
  }

  /** Puts the end of the stream once every block is put. */
  async end(): Promise<void> {
    await this.#order
    await this.#put(FINAL_BLOCK)
  }

  /** Once no block is in flight any more (after a failure: nothing is put after it). */
  async settled(): Promise<void> {
    await this.#order.catch(() => undefined)
  }

  #keepWindow(block: Buffer): void {
    if (block.length >= WINDOW) {
      block.copy(this.#window, 0, block.length - WINDOW)
      this.#windowLength = WINDOW
      return
    }
    const keep = Math.min(this.#windowLength, WINDOW - block.length)
    this.#window.copy(this.#window, 0, this.#windowLength - keep, this.#windowLength)
    block.copy(this.#window, keep)
    this.#windowLength = keep + block.length
  }
}

/** Room for a block's deflate output: zlib's deflateBound for the default window, and a margin. */
function outputCapacity(blockLength: number): number {
  return blockLength + (blockLength >> 10) + 64
}

/** One block, raw deflate ended by a sync flush, copied into `output` (a larger one if need be). */
function deflateBlock(
  block: Buffer,
  dictionary: Buffer | undefined,
  output: Buffer
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const z = createDeflateRaw({
      level: LEVEL,
      // Room for the whole block, deflated in one job on zlib's thread: a smaller chunk comes back
      // to the main thread each time it fills, and those turns were a third of the archive's time.
      chunkSize: output.length,
      finishFlush: constants.Z_SYNC_FLUSH,
      ...(dictionary ? { dictionary } : {})
    })
    let into = output
    let used = 0
    z.on('data', (chunk: Buffer) => {
      if (used + chunk.length > into.length) {
        const larger = Buffer.allocUnsafe(2 * (used + chunk.length))
        into.copy(larger, 0, 0, used)
        into = larger
      }
      used += chunk.copy(into, used)
    })
    z.on('error', reject)
    z.on('end', () => resolve(into.subarray(0, used)))
    z.end(block)
  })
}
