// The source archive of an upload deploy (`source: internal_source`): the workspace's LangGraph
// project as a deterministic gzip'd tar, written to a temporary file while it is hashed, so that
// its size and digest are known before any request and it is never held in memory.
// Which files: root.ts (the root, the config's path) and file-set.ts (the LangGraph CLI's rules).
// The bytes: tar.ts (fixed owners, times and modes) and gzip.ts (no timestamp). Refused with an
// ArchiveError before any request: the config missing or outside the workspace, the config or a
// file a graph names left out (left-out.ts), an archive over MAX_ARCHIVE_BYTES (the build stops as
// soon as it passes), files over MAX_UNPACKED_BYTES in all (a sparse file is small compressed, not
// on the builder's disk), a file that cannot be read, or one that changed into something else
// meanwhile (a fifo is opened without blocking and refused, never waited on). Over
// WARN_ARCHIVE_BYTES a warning (the service's limits, as both LangGraph CLIs have them).
// Cancelled by `signal` (an AbortError, seen between blocks of one file too), it leaves nothing
// behind. Same files, same bytes, on any machine with the same Node.js: the deflate bytes are
// those of the zlib Node carries.
import { createHash } from 'node:crypto'
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs'
import { constants, mkdtemp, open, realpath, rm } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { ArchiveError } from './errors.ts'
import {
  selectFiles,
  type FileEntry,
  type IgnoredEntry,
  type SkippedEntry,
  type FileSet as FileSetResult
} from './file-set.ts'
import { BlockDeflate, GZIP_HEADER, GzipTrailer } from './gzip.ts'
import { graphFileLeftOut, whyLeftOut } from './left-out.ts'
import { ReusedBuffers } from './reused-buffers.ts'
import { resolveArchiveRoot, type RootOptions } from './root.ts'
import { endOfArchive, fileHeader, padding } from './tar.ts'

/** 200 MiB: the upload URL's content-length range; larger archives are refused. */
export const MAX_ARCHIVE_BYTES = 200 * 1024 * 1024
/**
 * 1 GiB: the most file bytes an archive may hold, unpacked (what the build unpacks, whatever the
 * compressed size: 8 GiB of a sparse file deflate to 8 MiB).
 */
export const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024
/** 50 MiB: larger archives are sent with a warning. */
export const WARN_ARCHIVE_BYTES = 50 * 1024 * 1024
/** Deflated in blocks of this size (BlockDeflate): its cost near 3%, a few blocks a few MB. */
const BLOCK = 1024 * 1024
/** Blocks read or deflated at once: one per core and one being read, at most 5 (libuv's 4 threads). */
const IN_FLIGHT = Math.min(5, Math.max(2, availableParallelism() + 1))

export interface ArchiveOptions extends RootOptions {
  /** Where the temporary directory goes; the system's by default. */
  tempDir?: string
  /** Files this run writes (the CLI's `--output-file`): never archived. */
  ownFiles?: readonly string[]
  signal?: AbortSignal
}

export interface BuiltArchive {
  /** The .tar.gz file, in a temporary directory that cleanup() removes. */
  file: string
  size: number
  /** `sha256:<hex>` of its bytes: the `source-digest` output. */
  digest: string
  /** The member names, sorted (the archive's order). */
  files: string[]
  /** Left out though no ignore rule named them: links, special files, credentials, own files. */
  skipped: SkippedEntry[]
  /** Left out by the ignore rules (for the dry run's list). */
  ignored: IgnoredEntry[]
  /** The file the config's `env` names, as a member name; '' when none. */
  envFile: string
  /** Why that file is not in the archive (left-out.ts); undefined when it is, or there is none. */
  envFileLeftOut: string | undefined
  /** The absolute root the archive was taken from. */
  root: string
  /** The config's path inside the archive: `langgraph_config_path`. */
  configPath: string
  /** Lines for the log (the size warning). */
  warnings: string[]
  cleanup(): Promise<void>
}

function mib(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`
}

/** The tar bytes gathered into BLOCK-sized buffers taken in turn, each deflated as one block. */
class TarBlocks {
  readonly #pool = new ReusedBuffers(BLOCK, IN_FLIGHT)
  readonly #deflate: BlockDeflate
  readonly #trailer: GzipTrailer
  #buf: Buffer | undefined
  #used = 0

  constructor(deflate: BlockDeflate, trailer: GzipTrailer) {
    this.#deflate = deflate
    this.#trailer = trailer
  }

  async #space(): Promise<Buffer> {
    if (!this.#buf) {
      this.#buf = await this.#pool.next()
      this.#used = 0
    }
    return this.#buf
  }

  #flushIfFull(): void {
    if (this.#used === this.#buf!.length) this.#flush()
  }

  #flush(): void {
    if (!this.#buf || this.#used === 0) return
    const view = this.#buf.subarray(0, this.#used)
    this.#trailer.update(view)
    this.#pool.write(view, (bytes, done) => this.#deflate.write(bytes, done))
    this.#buf = undefined
  }

  async copy(bytes: Buffer): Promise<void> {
    for (let at = 0; at < bytes.length;) {
      const buf = await this.#space()
      const n = bytes.copy(buf, this.#used, at)
      this.#used += n
      at += n
      this.#flushIfFull()
    }
  }

  /** Exactly `size` bytes of `fd`; a file that became shorter since its stat is an error. */
  async read(fd: number, size: number, name: string, signal?: AbortSignal): Promise<void> {
    for (let left = size; left > 0;) {
      const buf = await this.#space()
      // Between blocks: a signal inside one large file is seen within one block's read.
      signal?.throwIfAborted()
      const want = Math.min(buf.length - this.#used, left)
      const bytesRead = readSync(fd, buf, this.#used, want, null)
      if (bytesRead === 0) throw new ArchiveError(`${name} became shorter while it was archived.`)
      this.#used += bytesRead
      left -= bytesRead
      this.#flushIfFull()
    }
  }

  async end(): Promise<void> {
    this.#flush()
    await this.#pool.drain()
    await this.#deflate.end()
  }
}

/** Opens a member's file for reading, never blocking on a fifo; an fs error becomes an ArchiveError. */
function openMember(f: FileEntry): number {
  try {
    // O_NOFOLLOW: a file swapped for a symlink since the walk is refused, not followed.
    // O_NONBLOCK: one swapped for a fifo opens at once (and is refused below), never waits.
    return openSync(f.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (err) {
    throw fsProblem(err, f.name)
  }
}

/** A file system error on `name` as the error the user can act on; anything else as it is. */
export function fsProblem(err: unknown, name: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  const leaveOut = 'or leave it out with .dockerignore or .gitignore'
  if (code === 'EACCES' || code === 'EPERM')
    return new ArchiveError(
      `${name} cannot be read (permission denied): make it readable by the user the job runs as, ${leaveOut}.`
    )
  if (code === 'ELOOP' || code === 'ENOENT' || code === 'ENOTDIR')
    return new ArchiveError(`${name} changed while it was archived: run the job again.`)
  if (code === 'EISDIR' || code === 'EAGAIN' || code === 'ENXIO')
    return new ArchiveError(`${name} is not a regular file: ${leaveOut}.`)
  if (code === 'EIO' || code === 'EMFILE' || code === 'ENFILE')
    return new ArchiveError(`${name} cannot be read (${code}): run the job again, ${leaveOut}.`)
  return err
}

function tooLarge(): ArchiveError {
  return new ArchiveError(
    `The source files hold more than ${mib(MAX_UNPACKED_BYTES)} unpacked, the limit of what the build unpacks: leave large files out with .dockerignore or .gitignore (model weights, data sets, sparse or generated files).`
  )
}

/**
 * Writes the tar of `files` into `deflate`, read with blocking calls: small files cost four trips
 * each through libuv's threads, queued behind the deflating blocks, and the main thread is idle.
 */
async function writeTar(
  files: FileEntry[],
  deflate: BlockDeflate,
  trailer: GzipTrailer,
  signal?: AbortSignal
) {
  const out = new TarBlocks(deflate, trailer)
  let written = 0
  let unpacked = 0
  for (const f of files) {
    signal?.throwIfAborted()
    const fd = openMember(f)
    try {
      const info = fstatSync(fd)
      if (!info.isFile()) throw new ArchiveError(`${f.name} changed while it was archived.`)
      // Refused before its bytes are read: the size is known from the stat.
      unpacked += info.size
      if (unpacked > MAX_UNPACKED_BYTES) throw tooLarge()
      const header = fileHeader(f.name, info.size, (info.mode & 0o111) !== 0)
      await out.copy(header)
      await readMember(out, fd, info.size, f.name, signal)
      const pad = padding(info.size)
      await out.copy(pad)
      written += header.length + info.size + pad.length
    } finally {
      closeSync(fd)
    }
  }
  await out.copy(endOfArchive(written))
  await out.end()
}

/** A member's bytes; a read error as the ArchiveError it means. */
async function readMember(
  out: TarBlocks,
  fd: number,
  size: number,
  name: string,
  signal?: AbortSignal
): Promise<void> {
  try {
    await out.read(fd, size, name, signal)
  } catch (err) {
    throw fsProblem(err, name)
  }
}

/** The gzip bytes' way to `file`: counted (refused past the limit), hashed and written in order. */
async function gzipFile(file: string) {
  const out = await open(file, 'w')
  const result = { size: 0, hash: createHash('sha256') }
  const put = async (chunk: Buffer) => {
    result.size += chunk.length
    if (result.size > MAX_ARCHIVE_BYTES)
      throw new ArchiveError(
        `The source archive is larger than ${mib(MAX_ARCHIVE_BYTES)}, the upload limit: leave large files out with .dockerignore or .gitignore (model weights, data sets).`
      )
    result.hash.update(chunk)
    await out.write(chunk)
  }
  return { put, result, close: () => out.close() }
}

/** The tar, deflated, framed as gzip, into `file`. */
async function writeArchive(files: FileEntry[], file: string, signal?: AbortSignal) {
  const sink = await gzipFile(file)
  try {
    const trailer = new GzipTrailer()
    await sink.put(GZIP_HEADER)
    const deflate = new BlockDeflate(sink.put)
    try {
      await writeTar(files, deflate, trailer, signal)
    } finally {
      // After a failure, the blocks in flight end before the file is closed under them.
      await deflate.settled()
    }
    await sink.put(trailer.bytes())
  } finally {
    await sink.close()
  }
  return sink.result
}

/** The temporary folders' names begin so: a run leaves out any it finds (its own, or a killed run's). */
const TEMP_PREFIX = 'control-plane-deploy-upload-'

/** The config is not in the archive: why, from the set's own reasons. */
function configLeftOut(o: ArchiveOptions, configPath: string, set: FileSetResult): ArchiveError {
  const ignored = set.ignored.find(e => configPath === e.name || configPath.startsWith(e.name))
  const skipped = set.skipped.find(e => e.name === configPath)
  const why = ignored
    ? `is left out of the archive: ${ignored.name} is ${ignored.why}`
    : `is left out of the archive (${skipped?.reason ?? 'not a regular file'})`
  return new ArchiveError(
    `${o.inputName}: '${o.graphConfigPath}' ${why}; the config must be in it.`
  )
}

/** Builds the archive of the workspace's project into a temporary file. */
export async function buildArchive(o: ArchiveOptions): Promise<BuiltArchive> {
  const where = await resolveArchiveRoot(o)
  const tempRoot = o.tempDir ?? tmpdir()
  const set = await selectFiles(where.included, {
    ownFiles: o.ownFiles,
    ownDirPrefix: join(await realpath(tempRoot).catch(() => tempRoot), TEMP_PREFIX)
  }).catch((err: NodeJS.ErrnoException) => {
    // A folder the walk cannot read: named by its path from the workspace when it has one.
    throw fsProblem(err, err.path ? relative(o.workspace, err.path) || '.' : 'a folder')
  })
  const files = set.files.map(f => f.name)
  if (!files.includes(where.configPath)) throw configLeftOut(o, where.configPath, set)
  const exists = (member: string) => existsSync(join(where.root, member))
  const lacking = graphFileLeftOut(
    where.config,
    where.configPath,
    { files, ignored: set.ignored, skipped: set.skipped },
    { inputName: o.inputName, given: o.graphConfigPath, exists }
  )
  if (lacking) throw lacking
  const envFileLeftOut =
    where.envFile && !files.includes(where.envFile)
      ? whyLeftOut(where.envFile, set, exists)
      : undefined
  const dir = await mkdtemp(join(tempRoot, TEMP_PREFIX))
  const cleanup = () => rm(dir, { recursive: true, force: true })
  const file = join(dir, 'source.tar.gz')
  let result: { size: number; hash: ReturnType<typeof createHash> }
  try {
    result = await writeArchive(set.files, file, o.signal)
  } catch (err) {
    await cleanup()
    throw err
  }
  const warnings =
    result.size > WARN_ARCHIVE_BYTES
      ? [
          `The source archive is ${mib(result.size)} (over ${mib(WARN_ARCHIVE_BYTES)}): consider leaving large files out with .dockerignore or .gitignore.`
        ]
      : []
  return {
    file,
    size: result.size,
    digest: `sha256:${result.hash.digest('hex')}`,
    files,
    skipped: set.skipped,
    ignored: set.ignored,
    envFile: where.envFile,
    envFileLeftOut,
    root: where.root,
    configPath: where.configPath,
    warnings,
    cleanup
  }
}
