// Buffers (two by default) taken in turn for bytes on their way to a stream, each filled again
// only once the stream called back for its last write: nothing is allocated per chunk. Why: V8
// frees dropped Buffers only after about 64 MB of them, so a stream of fresh chunks (what
// fs.createReadStream and pipe() make) holds tens of megabytes of garbage.
export class ReusedBuffers {
  readonly #buffers: Buffer[]
  readonly #pending: Array<Promise<void> | undefined>
  #turn = 0

  constructor(size: number, count = 2) {
    this.#buffers = Array.from({ length: count }, () => Buffer.allocUnsafe(size))
    this.#pending = this.#buffers.map(() => undefined)
  }

  /** The next buffer, once its last write has been called back (a failed write throws here). */
  async next(): Promise<Buffer> {
    this.#turn = (this.#turn + 1) % this.#buffers.length
    await this.#pending[this.#turn]
    this.#pending[this.#turn] = undefined
    return this.#buffers[this.#turn]!
  }

  /** Writes `bytes` (a view of the buffer last given by next()) with `write`, and tracks it. */
  write(bytes: Buffer, write: (bytes: Buffer, done: (err?: Error | null) => void) => void): void {
    const pending = new Promise<void>((resolve, reject) =>
      write(bytes, err => (err ? reject(err) : resolve()))
    )
    pending.catch(() => undefined) // seen by next() or drain()
    this.#pending[this.#turn] = pending
  }

  /** Waits for every buffer's last write. */
  async drain(): Promise<void> {
    await Promise.all(this.#pending)
  }
}
