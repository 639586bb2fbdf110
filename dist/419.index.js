export const id = 419;
export const ids = [419];
export const modules = {

/***/ 7419:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  prepareUpload: () => (/* binding */ prepareUpload)
});

// EXTERNAL MODULE: ./src/control-plane/redact.ts
var redact = __webpack_require__(7889);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
;// CONCATENATED MODULE: ./src/upload/errors.ts
// The one error the upload modules throw for a workspace that cannot be archived: a message for a
// person, naming the input as the user set it. Thrown before any request is sent.
class ArchiveError extends Error {
    name = 'ArchiveError';
}

// EXTERNAL MODULE: ./node_modules/ignore/index.js
var ignore = __webpack_require__(298);
var ignore_default = /*#__PURE__*/__webpack_require__.n(ignore);
;// CONCATENATED MODULE: ./src/upload/ignore-rules.ts
// Which paths of one included directory the archive leaves out, as the LangGraph CLI decides it
// (langgraph_cli/_ignore.py, and its port in @langchain/langgraph-cli's deploy-ignore.mjs):
//   - always `__pycache__/ .git/ .venv/ venv/ node_modules/ .tox/ .mypy_cache/`, at any depth;
//   - then the lines of the directory's own `.dockerignore`, then of its `.gitignore`, read with
//     gitignore semantics (the JS CLI uses the same `ignore` package). Only the ignore files at the
//     top of the directory count: both CLIs read no nested ones, and neither do we.
// A path under an ignored directory stays out even when a later `!` line names it (git's rule).
//
//   const rules = await readIgnoreRules('/abs/dir')
//   rules.ignores('src/app.py', false)   // a file, relative to the directory, `/`-separated
//   rules.ignores('build', true)         // a directory



/** The directories every archive leaves out, whatever the ignore files say. */
const ALWAYS_EXCLUDED_DIRS = [
    '__pycache__',
    '.git',
    '.venv',
    'venv',
    'node_modules',
    '.tox',
    '.mypy_cache'
];
/** The ignore files read at the top of each included directory, in the CLI's order. */
const IGNORE_FILES = ['.dockerignore', '.gitignore'];
/** The lines of an ignore file that is a regular file; none otherwise (as the CLIs read them). */
async function lines(file) {
    try {
        if (!(await (0,promises_.stat)(file)).isFile())
            return [];
        return (await (0,promises_.readFile)(file, 'utf8')).split(/\r?\n/);
    }
    catch {
        return [];
    }
}
/** The rules of directory `dir` (absolute). */
async function readIgnoreRules(dir) {
    const matcher = ignore_default()().add(ALWAYS_EXCLUDED_DIRS.map(name => `${name}/`));
    for (const name of IGNORE_FILES)
        matcher.add(await lines((0,external_node_path_.join)(dir, name)));
    return {
        ignores(rel, isDirectory) {
            if (rel === '' || rel === '.')
                return false;
            return matcher.ignores(isDirectory ? `${rel}/` : rel);
        }
    };
}

;// CONCATENATED MODULE: ./src/upload/file-set.ts
// The files an archive holds, as the LangGraph CLI's remote build selects them (archive.py):
// every regular file under each included directory (root.ts) that the directory's ignore rules
// keep (ignore-rules.ts). Like the CLI's archive:
//   - no directory members (an empty directory is not kept);
//   - no symlinks (to files or directories; a symlinked directory is not entered), no devices,
//     sockets or fifos;
//   - a file with other hard links is kept once: the first of its names (here in member order),
//     never as a tar hard link; its other names are left out (Python's tarfile makes them hard
//     link members, which the CLI's filter drops);
//   - no `..` member (a walk cannot make one; checked anyway).
// Unlike the CLI, the members are sorted (by their names' UTF-8 bytes) so the same files give the
// same archive; a file under two included directories (a dependency that contains the config's
// directory) is held once, where Python's tarfile would write it twice.
//
//   const set = await selectFiles(root.included)
//   set.files    // [{ name: 'apps/a/langgraph.json', path: '/w/apps/a/langgraph.json' }, ...]
//   set.skipped  // [{ name: 'link', reason: 'symlink' }, ...]: left out, though not ignored





const utf8 = new TextDecoder('utf-8', { fatal: true });
/** A directory's entries with names that are UTF-8 (the archive's names are). */
async function entries(dir) {
    const list = await (0,promises_.readdir)(dir, { withFileTypes: true, encoding: 'buffer' });
    return list.map(entry => {
        let name;
        try {
            name = utf8.decode(entry.name);
        }
        catch {
            throw new ArchiveError(`The file name ${JSON.stringify(entry.name.toString('latin1'))} in ${dir} is not UTF-8: rename it or ignore it.`);
        }
        return { name, entry };
    });
}
async function walk(w, abs, rel) {
    for (const { name, entry } of await entries(abs)) {
        const relPath = rel ? `${rel}/${name}` : name;
        const member = w.base.prefix ? `${w.base.prefix}/${relPath}` : relPath;
        const path = (0,external_node_path_.join)(abs, name);
        if (entry.isDirectory()) {
            if (!w.rules.ignores(relPath, true))
                await walk(w, path, relPath);
            continue;
        }
        if (w.rules.ignores(relPath, false))
            continue;
        if (entry.isSymbolicLink())
            w.skipped.push({ name: member, reason: 'symlink' });
        else if (!entry.isFile())
            w.skipped.push({ name: member, reason: 'not a regular file' });
        else if (!member.split('/').includes('..'))
            w.found.set(member, { name: member, path });
    }
}
/** Sorts names by their UTF-8 bytes: the same order on every machine and in every locale. */
function byName(a, b) {
    return Buffer.compare(Buffer.from(a.name), Buffer.from(b.name));
}
/**
 * Keeps the first name of each file that has other hard links; reports the rest. One blocking
 * lstat per file: nothing else runs meanwhile, and thousands of trips through libuv's threads
 * took a tenth of a large upload's time.
 */
function dropHardLinkRepeats(files, skipped) {
    const seen = new Set();
    const kept = [];
    for (const file of files) {
        const info = (0,external_node_fs_.lstatSync)(file.path, { bigint: true });
        if (info.nlink > 1n) {
            const key = `${info.dev}:${info.ino}`;
            if (seen.has(key)) {
                skipped.push({ name: file.name, reason: 'hard link' });
                continue;
            }
            seen.add(key);
        }
        kept.push(file);
    }
    return kept;
}
/** The files of the included directories, sorted, and what was left out though not ignored. */
async function selectFiles(included) {
    const found = new Map();
    const skipped = [];
    for (const base of included) {
        const rules = await readIgnoreRules(base.dir);
        await walk({ rules, base, found, skipped }, base.dir, '');
    }
    const sorted = [...found.values()].sort(byName);
    const files = dropHardLinkRepeats(sorted, skipped);
    const once = [...new Map(skipped.map(e => [e.name, e])).values()];
    return { files, skipped: once.sort(byName) };
}

// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(8522);
;// CONCATENATED MODULE: ./src/upload/gzip.ts
// A gzip stream whose bytes depend only on its input: raw deflate between a fixed 10-byte header
// (no file name, mtime 0, no extra flags, OS 255 "unknown" as Python's gzip writes: zlib itself
// would write 3 on Unix and 10 on Windows) and the CRC-32 and length trailer of RFC 1952. The
// deflate bytes are zlib's at a fixed level, so the same Node.js (and its zlib) gives the same bytes.
//
//   put(GZIP_HEADER); const deflate = new BlockDeflate(put)
//   for each block: trailer.update(block); deflate.write(block, done)   // done: block reusable
//   await deflate.end(); put(trailer.bytes())

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A running CRC-32 and length of the uncompressed bytes, for the trailer. */
class GzipTrailer {
    #crc = 0;
    #length = 0;
    update(chunk) {
        this.#crc = (0,external_node_zlib_.crc32)(chunk, this.#crc);
        this.#length = (this.#length + chunk.length) % 2 ** 32;
    }
    bytes() {
        const t = Buffer.alloc(8);
        t.writeUInt32LE(this.#crc >>> 0, 0);
        t.writeUInt32LE(this.#length, 4);
        return t;
    }
}
/**
 * zlib's default level, as `tar -czf` and both LangGraph CLIs use. On Python sources (CPython's
 * library, 40 MB of tar; bench/RESULTS.md) level 1 is 2.3x faster but 13% larger, 9 is 15x slower
 * for 1% smaller: with the blocks deflated at once, 6 already meets the time goals, and a smaller
 * upload is what a slow CI uplink needs.
 */
const LEVEL = 6;
/** Deflate's window: each block is primed with this much of the bytes before it. */
const WINDOW = 32 * 1024;
/** The empty final block that ends the stream: every block before ends with a sync flush. */
const FINAL_BLOCK = (0,external_node_zlib_.deflateRawSync)(Buffer.alloc(0), { level: LEVEL });
/**
 * Deflate in blocks compressed several at once on libuv's threads (pigz's way; one zlib stream is
 * serial, and was the whole of the archive's time). Each block is primed with the 32 KiB before it
 * (the window one stream would have had, so the size barely moves) and ends with a sync flush, so
 * the blocks' bytes, in order, are one deflate stream; end() adds the final empty block. The bytes
 * depend only on the blocks given, never on timing or the number of threads.
 *
 * Memory: each block's output is copied into an output buffer kept for reuse (one per block in
 * flight, so the caller's bound on blocks in flight bounds them too), then put in one piece. zlib's
 * own output is copied out as it comes: held until its block's turn instead, it outlived V8's
 * young-generation collections and piled up as old garbage (about 30 MB on 150 MB).
 */
class BlockDeflate {
    #put;
    #window = Buffer.allocUnsafe(WINDOW);
    #windowLength = 0;
    /** Output buffers free for the next block. */
    #outputs = [];
    /** Each block's output is put after the one before: the order of the stream. */
    #order = Promise.resolve();
    constructor(put) {
        this.#put = put;
    }
    /** Deflates `block` (left untouched until `done`, called once its bytes are put, or failed). */
    write(block, done) {
        const dictionary = this.#windowLength > 0 ? this.#window.subarray(0, this.#windowLength) : undefined;
        const capacity = outputCapacity(block.length);
        const free = this.#outputs.pop();
        const output = free && free.length >= capacity ? free : Buffer.allocUnsafe(capacity);
        // zlib copies the dictionary when the stream is made: the window can move on at once.
        const compressed = deflateBlock(block, dictionary, output);
        compressed.catch(() => undefined); // seen in order below
        this.#keepWindow(block);
        const written = this.#order.then(async () => this.#put(await compressed));
        this.#order = written;
        // The block and its output are free once zlib is done with them and the bytes are put.
        Promise.allSettled([compressed, written]).then(([, w]) => {
            this.#outputs.push(output);
            done(w.status === 'rejected' ? w.reason : null);
        });
    }
    /** Puts the end of the stream once every block is put. */
    async end() {
        await this.#order;
        await this.#put(FINAL_BLOCK);
    }
    /** Once no block is in flight any more (after a failure: nothing is put after it). */
    async settled() {
        await this.#order.catch(() => undefined);
    }
    #keepWindow(block) {
        if (block.length >= WINDOW) {
            block.copy(this.#window, 0, block.length - WINDOW);
            this.#windowLength = WINDOW;
            return;
        }
        const keep = Math.min(this.#windowLength, WINDOW - block.length);
        this.#window.copy(this.#window, 0, this.#windowLength - keep, this.#windowLength);
        block.copy(this.#window, keep);
        this.#windowLength = keep + block.length;
    }
}
/** Room for a block's deflate output: zlib's deflateBound for the default window, and a margin. */
function outputCapacity(blockLength) {
    return blockLength + (blockLength >> 10) + 64;
}
/**
 * One block, raw deflate ended by a sync flush, copied into `output` as zlib gives it: a view of
 * `output`, or of a larger buffer in the unlikely case that it does not fit.
 */
function deflateBlock(block, dictionary, output) {
    return new Promise((resolve, reject) => {
        const z = (0,external_node_zlib_.createDeflateRaw)({
            level: LEVEL,
            // Room for the whole block: zlib deflates it in one job on its thread. A smaller chunk
            // comes back to the main thread each time it fills, and those turns were a third of the
            // archive's time.
            chunkSize: output.length,
            finishFlush: external_node_zlib_.constants.Z_SYNC_FLUSH,
            ...(dictionary ? { dictionary } : {})
        });
        let into = output;
        let used = 0;
        z.on('data', (chunk) => {
            if (used + chunk.length > into.length) {
                const larger = Buffer.allocUnsafe(2 * (used + chunk.length));
                into.copy(larger, 0, 0, used);
                into = larger;
            }
            used += chunk.copy(into, used);
        });
        z.on('error', reject);
        z.on('end', () => resolve(into.subarray(0, used)));
        z.end(block);
    });
}

;// CONCATENATED MODULE: ./src/upload/reused-buffers.ts
// Buffers (two by default) taken in turn for bytes on their way to a stream: one is filled while
// the others are still being written. A buffer is filled again only once the stream has called back for its last
// write, so no byte is overwritten before it is consumed, and nothing is allocated per chunk.
// Why: Node frees a dropped Buffer only at a garbage collection, which V8 forces only after about
// 64 MB of such memory; a stream of fresh chunks (what fs.createReadStream and pipe() make) thus
// holds tens of megabytes that are garbage already. Reusing two buffers keeps the peak flat.
//
//   const pair = new ReusedBuffers(256 * 1024)
//   const buf = await pair.next()                          // free once its last write is done
//   const { bytesRead } = await fh.read(buf, 0, buf.length, null)
//   pair.write(buf.subarray(0, bytesRead), (b, done) => stream.write(b, done))
//   ...
//   await pair.drain()
class ReusedBuffers {
    #buffers;
    #pending;
    #turn = 0;
    constructor(size, count = 2) {
        this.#buffers = Array.from({ length: count }, () => Buffer.allocUnsafe(size));
        this.#pending = this.#buffers.map(() => undefined);
    }
    /** The next buffer, once its last write has been called back (a failed write throws here). */
    async next() {
        this.#turn = (this.#turn + 1) % this.#buffers.length;
        await this.#pending[this.#turn];
        this.#pending[this.#turn] = undefined;
        return this.#buffers[this.#turn];
    }
    /** Writes `bytes` (a view of the buffer last given by next()) with `write`, and tracks it. */
    write(bytes, write) {
        const pending = new Promise((resolve, reject) => write(bytes, err => (err ? reject(err) : resolve())));
        pending.catch(() => undefined); // seen by next() or drain()
        this.#pending[this.#turn] = pending;
    }
    /** Waits for every buffer's last write. */
    async drain() {
        await Promise.all(this.#pending);
    }
}

;// CONCATENATED MODULE: ./src/upload/root.ts
// Where the archive is rooted, and what it takes in: the LangGraph CLI's rule (archive.py and
// config.py's _assemble_local_deps), with the workspace as an outer fence.
//   - The root is the config's directory, widened to the common ancestor of it and every local
//     dependency (an entry of the config's `dependencies` that starts with `.`) that resolves
//     outside it: `../shared-lib` in a monorepo.
//   - The included directories are the config's directory and each such dependency; each is
//     walked with its own ignore files (file-set.ts).
//   - `configPath` is the config's path relative to the root: `langgraph_config_path`.
// Refused, as ArchiveError naming the input: a config that is missing, not a regular file or not
// JSON; a config or dependency outside the workspace; a dependency that is missing or not a
// directory (the CLI refuses those too).
//
//   const root = await resolveArchiveRoot({ workspace: '/w', graphConfigPath: 'apps/a/langgraph.json' })
//   root.root        // '/w' when apps/a names '../../libs/shared'
//   root.configPath  // 'apps/a/langgraph.json'
//   root.included    // [{ dir: '/w/apps/a', prefix: 'apps/a' }, { dir: '/w/libs/shared', prefix: 'libs/shared' }]



/** Whether `child` is `parent` or below it (both absolute, normalised). */
function within(parent, child) {
    const rel = (0,external_node_path_.relative)(parent, child);
    return rel === '' || (!rel.startsWith(`..${external_node_path_.sep}`) && rel !== '..' && !(0,external_node_path_.isAbsolute)(rel));
}
function toPosix(p) {
    return p.split(external_node_path_.sep).join('/');
}
/** The common ancestor of two absolute paths. */
function commonAncestor(a, b) {
    const pa = a.split(external_node_path_.sep);
    const pb = b.split(external_node_path_.sep);
    let n = 0;
    while (n < pa.length && n < pb.length && pa[n] === pb[n])
        n++;
    return pa.slice(0, n).join(external_node_path_.sep) || external_node_path_.sep;
}
async function realOrUndefined(p) {
    try {
        return await (0,promises_.realpath)(p);
    }
    catch {
        return undefined;
    }
}
/** The config's absolute real path, checked to be a regular JSON file inside the workspace. */
async function locateConfig(workspace, o) {
    const name = o.inputName ?? 'graph-config-path';
    const given = o.graphConfigPath;
    const lexical = (0,external_node_path_.resolve)(workspace, given);
    if (!within(workspace, lexical))
        throw new ArchiveError(`${name}: '${given}' is outside the workspace (${workspace}); give a path inside it.`);
    const info = await (0,promises_.lstat)(lexical).catch(() => undefined);
    if (!info)
        throw new ArchiveError(`${name}: '${given}' does not exist in the workspace (${workspace}).`);
    if (!info.isFile())
        throw new ArchiveError(`${name}: '${given}' is not a regular file${info.isSymbolicLink() ? ' (a symlink, which the archive never holds)' : ''}.`);
    const dir = await realOrUndefined((0,external_node_path_.dirname)(lexical));
    if (dir === undefined || !within(workspace, dir))
        throw new ArchiveError(`${name}: '${given}' is outside the workspace (${workspace}) once its symlinks are followed.`);
    const file = (0,external_node_path_.resolve)(dir, lexical.slice((0,external_node_path_.dirname)(lexical).length + 1));
    let json;
    try {
        json = JSON.parse(await (0,promises_.readFile)(file, 'utf8'));
    }
    catch {
        throw new ArchiveError(`${name}: '${given}' is not valid JSON.`);
    }
    return { file, json };
}
/** The local dependencies of the config that lie outside its directory (absolute real paths). */
async function outsideDependencies(workspace, configDir, json, o) {
    const deps = json?.dependencies;
    const out = [];
    if (!Array.isArray(deps))
        return out;
    const name = o.inputName ?? 'graph-config-path';
    for (const dep of deps) {
        if (typeof dep !== 'string' || !dep.startsWith('.'))
            continue;
        const where = `${name}: the dependency '${dep}' of '${o.graphConfigPath}'`;
        const real = await realOrUndefined((0,external_node_path_.resolve)(configDir, dep));
        if (real === undefined)
            throw new ArchiveError(`${where} does not exist.`);
        if (!(await (0,promises_.stat)(real)).isDirectory())
            throw new ArchiveError(`${where} is not a directory.`);
        if (!within(workspace, real))
            throw new ArchiveError(`${where} is outside the workspace (${workspace}): only the workspace is uploaded.`);
        if (!within(configDir, real))
            out.push(real);
    }
    return out;
}
/** The root, the config's path in the archive and the directories to walk. */
async function resolveArchiveRoot(o) {
    const workspace = await realOrUndefined((0,external_node_path_.resolve)(o.workspace));
    if (workspace === undefined)
        throw new ArchiveError(`The workspace ${o.workspace} does not exist.`);
    const { file, json } = await locateConfig(workspace, o);
    const configDir = (0,external_node_path_.dirname)(file);
    const extra = await outsideDependencies(workspace, configDir, json, o);
    const root = extra.reduce(commonAncestor, configDir);
    const included = [];
    for (const dir of [configDir, ...extra]) {
        const prefix = toPosix((0,external_node_path_.relative)(root, dir));
        if (!included.some(d => d.prefix === prefix))
            included.push({ dir, prefix });
    }
    return { root, configPath: toPosix((0,external_node_path_.relative)(root, file)), included };
}

;// CONCATENATED MODULE: ./src/upload/tar.ts
// The tar format the archive is written in: POSIX ustar headers, with a pax extended header
// (typeflag `x`, named `././@PaxHeader` as Python's tarfile names it) before a member whose name is
// longer than 100 bytes or not ASCII, or whose size does not fit 11 octal digits. Every field that
// could differ between machines is fixed: mtime (FIXED_MTIME), uid/gid 0, empty user and group
// names, mode 0644 (0755 when the file is executable). GNU tar, bsdtar, Python's tarfile and
// node-tar read it.
//
//   fileHeader('src/app.py', 1234, false)  // the 512-byte header(s) of a member
//   padding(1234)                          // the zeros that fill its last block
//   END_OF_ARCHIVE                         // two zero blocks, padded to a 10240-byte record
const BLOCK = 512;
const RECORD = 10240;
/** 2000-01-01T00:00:00Z: after 1980, which zip-based wheel builds need of a file's time. */
const FIXED_MTIME = 946_684_800;
/** The largest size the ustar field holds (11 octal digits). */
const MAX_USTAR_SIZE = 0o77777777777;
function octal(value, width) {
    return value.toString(8).padStart(width - 1, '0') + '\0';
}
/** One 512-byte ustar header. `name` must be ASCII and at most 100 bytes. */
function ustarHeader(f) {
    const h = Buffer.alloc(BLOCK);
    h.write(f.name, 0, 100, 'latin1');
    h.write(octal(f.mode, 8), 100, 'latin1');
    h.write(octal(0, 8), 108, 'latin1'); // uid
    h.write(octal(0, 8), 116, 'latin1'); // gid
    h.write(octal(f.size, 12), 124, 'latin1');
    h.write(octal(FIXED_MTIME, 12), 136, 'latin1');
    h.write('        ', 148, 'latin1'); // the checksum counts as spaces
    h.write(f.typeflag, 156, 'latin1');
    h.write('ustar\u000000', 257, 'latin1');
    h.write(octal(0, 8), 329, 'latin1'); // devmajor
    h.write(octal(0, 8), 337, 'latin1'); // devminor
    let sum = 0;
    for (const byte of h)
        sum += byte;
    h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
    return h;
}
/** A pax record `"<len> <key>=<value>\n"`, whose length counts its own digits. */
function paxRecord(key, value) {
    const body = ` ${key}=${value}\n`;
    const bodyBytes = Buffer.byteLength(body);
    let len = bodyBytes + 1;
    while (String(len).length + bodyBytes !== len)
        len = String(len).length + bodyBytes;
    return Buffer.from(`${len}${body}`);
}
/** One block of zeros, shared: padding is a view of it, not a new Buffer per member. */
const ZEROS = Buffer.alloc(BLOCK);
/** The zeros that fill the last block of a member of `size` bytes: a shared view, never written. */
function padding(size) {
    const rest = size % BLOCK;
    return ZEROS.subarray(0, rest === 0 ? 0 : BLOCK - rest);
}
/** The header (with its pax header when one is needed) of a regular file member. */
function fileHeader(name, size, executable) {
    const mode = executable ? 0o755 : 0o644;
    const records = [];
    const nameBytes = Buffer.byteLength(name);
    const ascii = /^[\x20-\x7e]*$/.test(name);
    if (nameBytes > 100 || !ascii)
        records.push(paxRecord('path', name));
    if (size > MAX_USTAR_SIZE)
        records.push(paxRecord('size', String(size)));
    const header = ustarHeader({
        name: name.replace(/[^\x20-\x7e]/g, '_').slice(0, 100),
        mode,
        size: size > MAX_USTAR_SIZE ? 0 : size,
        typeflag: '0'
    });
    if (records.length === 0)
        return header;
    const pax = Buffer.concat(records);
    const paxHeader = ustarHeader({
        name: '././@PaxHeader',
        mode: 0o644,
        size: pax.length,
        typeflag: 'x'
    });
    return Buffer.concat([paxHeader, pax, padding(pax.length), header]);
}
/** The end of an archive: two zero blocks, then zeros to a whole record as GNU and Python write. */
function endOfArchive(bytesWritten) {
    const end = bytesWritten + 2 * BLOCK;
    const rest = end % RECORD;
    return Buffer.alloc(2 * BLOCK + (rest === 0 ? 0 : RECORD - rest));
}

;// CONCATENATED MODULE: ./src/upload/archive.ts
// The source archive of an upload deploy (`source: internal_source`): the workspace's LangGraph
// project as a deterministic gzip'd tar, written to a temporary file while it is hashed, so that
// its size and digest are known before any request and it is never held in memory.
//
//   const archive = await buildArchive({ workspace: '/w', graphConfigPath: 'langgraph.json' })
//   archive.configPath  // `langgraph_config_path` for the PATCH
//   archive.file        // the .tar.gz on disk; archive.size bytes; archive.digest 'sha256:<hex>'
//   archive.files       // the member names, sorted; archive.warnings: strings to log
//   ... PUT it (put.ts) ...
//   await archive.cleanup()
//
// Which files: root.ts (the root, the config's path) and file-set.ts (the LangGraph CLI's rules).
// The bytes: tar.ts (fixed owners, times and modes) and gzip.ts (no timestamp). Refused with an
// ArchiveError before any request: the config missing or outside the workspace, the config left
// out by an ignore file, an archive over MAX_ARCHIVE_BYTES (the build stops as soon as it passes).
// Over WARN_ARCHIVE_BYTES a warning (the service's limits, as both LangGraph CLIs have them).
// Cancelled by `signal` (an AbortError), it leaves nothing behind. Same files, same bytes, on any
// machine with the same Node.js: the deflate bytes are those of the zlib Node carries.











/** 200 MiB: the upload URL's content-length range; larger archives are refused. */
const MAX_ARCHIVE_BYTES = 200 * 1024 * 1024;
/** 50 MiB: larger archives are sent with a warning. */
const WARN_ARCHIVE_BYTES = 50 * 1024 * 1024;
/**
 * The tar is deflated in blocks of this size, several at once (gzip.ts, BlockDeflate): the block
 * boundaries, and so the bytes, depend only on the files. 1 MiB keeps the per-block cost (the
 * 32 KiB primed from the block before) near 3% while a few blocks in flight stay a few MB.
 */
const archive_BLOCK = 1024 * 1024;
/** Blocks read or deflated at once: one per core and one being read, at most 5 (libuv's 4 threads). */
const IN_FLIGHT = Math.min(5, Math.max(2, (0,external_node_os_.availableParallelism)() + 1));
function mib(bytes) {
    return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}
/**
 * The tar bytes on their way to deflate, gathered into BLOCK-sized buffers taken in turn (file data
 * is read straight into them, headers copied in), each deflated as one block while the next ones
 * fill. A buffer is refilled only once its block is compressed and written.
 */
class TarBlocks {
    #pool = new ReusedBuffers(archive_BLOCK, IN_FLIGHT);
    #deflate;
    #trailer;
    #buf;
    #used = 0;
    constructor(deflate, trailer) {
        this.#deflate = deflate;
        this.#trailer = trailer;
    }
    async #space() {
        if (!this.#buf) {
            this.#buf = await this.#pool.next();
            this.#used = 0;
        }
        return this.#buf;
    }
    #flushIfFull() {
        if (this.#used === this.#buf.length)
            this.#flush();
    }
    #flush() {
        if (!this.#buf || this.#used === 0)
            return;
        const view = this.#buf.subarray(0, this.#used);
        this.#trailer.update(view);
        this.#pool.write(view, (bytes, done) => this.#deflate.write(bytes, done));
        this.#buf = undefined;
    }
    async copy(bytes) {
        for (let at = 0; at < bytes.length;) {
            const buf = await this.#space();
            const n = bytes.copy(buf, this.#used, at);
            this.#used += n;
            at += n;
            this.#flushIfFull();
        }
    }
    /** Exactly `size` bytes of `fd`; a file that became shorter since its stat is an error. */
    async read(fd, size, name) {
        for (let left = size; left > 0;) {
            const buf = await this.#space();
            const want = Math.min(buf.length - this.#used, left);
            const bytesRead = (0,external_node_fs_.readSync)(fd, buf, this.#used, want, null);
            if (bytesRead === 0)
                throw new ArchiveError(`${name} became shorter while it was archived.`);
            this.#used += bytesRead;
            left -= bytesRead;
            this.#flushIfFull();
        }
    }
    async end() {
        this.#flush();
        await this.#pool.drain();
        await this.#deflate.end();
    }
}
/**
 * Writes the tar of `files` into `deflate`. The files are read with blocking calls: thousands of
 * small files cost four trips each through libuv's threads, queued behind the blocks being
 * deflated there, and the main thread has nothing else to do meanwhile (it yields whenever it waits
 * for a block to be free). Each call reads at most one block.
 */
async function writeTar(files, deflate, trailer, signal) {
    const out = new TarBlocks(deflate, trailer);
    let written = 0;
    for (const f of files) {
        signal?.throwIfAborted();
        // O_NOFOLLOW: a file swapped for a symlink since the walk is refused, not followed.
        const fd = (0,external_node_fs_.openSync)(f.path, promises_.constants.O_RDONLY | promises_.constants.O_NOFOLLOW);
        try {
            const info = (0,external_node_fs_.fstatSync)(fd);
            if (!info.isFile())
                throw new ArchiveError(`${f.name} changed while it was archived.`);
            const header = fileHeader(f.name, info.size, (info.mode & 0o111) !== 0);
            await out.copy(header);
            await out.read(fd, info.size, f.name);
            const pad = padding(info.size);
            await out.copy(pad);
            written += header.length + info.size + pad.length;
        }
        finally {
            (0,external_node_fs_.closeSync)(fd);
        }
    }
    await out.copy(endOfArchive(written));
    await out.end();
}
/** The gzip bytes' way to `file`: counted (refused past the limit), hashed and written in order. */
async function gzipFile(file) {
    const out = await (0,promises_.open)(file, 'w');
    const result = { size: 0, hash: (0,external_node_crypto_.createHash)('sha256') };
    const put = async (chunk) => {
        result.size += chunk.length;
        if (result.size > MAX_ARCHIVE_BYTES)
            throw new ArchiveError(`The source archive is larger than ${mib(MAX_ARCHIVE_BYTES)}, the upload limit: leave large files out with .dockerignore or .gitignore (model weights, data sets).`);
        result.hash.update(chunk);
        await out.write(chunk);
    };
    return { put, result, close: () => out.close() };
}
/** The tar, deflated, framed as gzip, into `file`. */
async function writeArchive(files, file, signal) {
    const sink = await gzipFile(file);
    try {
        const trailer = new GzipTrailer();
        await sink.put(GZIP_HEADER);
        const deflate = new BlockDeflate(sink.put);
        try {
            await writeTar(files, deflate, trailer, signal);
        }
        finally {
            // After a failure, the blocks in flight end before the file is closed under them.
            await deflate.settled();
        }
        await sink.put(trailer.bytes());
    }
    finally {
        await sink.close();
    }
    return sink.result;
}
/** Builds the archive of the workspace's project into a temporary file. */
async function buildArchive(o) {
    const where = await resolveArchiveRoot(o);
    const set = await selectFiles(where.included);
    const files = set.files.map(f => f.name);
    if (!files.includes(where.configPath))
        throw new ArchiveError(`${o.inputName ?? 'graph-config-path'}: '${o.graphConfigPath}' is left out of the archive by an ignore file (.dockerignore or .gitignore); the config must be in it.`);
    const dir = await (0,promises_.mkdtemp)((0,external_node_path_.join)(o.tempDir ?? (0,external_node_os_.tmpdir)(), 'control-plane-deploy-upload-'));
    const cleanup = () => (0,promises_.rm)(dir, { recursive: true, force: true });
    const file = (0,external_node_path_.join)(dir, 'source.tar.gz');
    let result;
    try {
        result = await writeArchive(set.files, file, o.signal);
    }
    catch (err) {
        await cleanup();
        throw err;
    }
    const warnings = result.size > WARN_ARCHIVE_BYTES
        ? [
            `The source archive is ${mib(result.size)} (over ${mib(WARN_ARCHIVE_BYTES)}): consider leaving large files out with .dockerignore or .gitignore.`
        ]
        : [];
    return {
        file,
        size: result.size,
        digest: `sha256:${result.hash.digest('hex')}`,
        files,
        skipped: set.skipped,
        root: where.root,
        configPath: where.configPath,
        warnings,
        cleanup
    };
}

// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __webpack_require__(7067);
// EXTERNAL MODULE: external "node:https"
var external_node_https_ = __webpack_require__(4708);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/proxy.js
var proxy = __webpack_require__(9783);
// EXTERNAL MODULE: ./src/control-plane/base-url.ts
var base_url = __webpack_require__(1937);
// EXTERNAL MODULE: ./src/version.ts + 1 modules
var version = __webpack_require__(1013);
;// CONCATENATED MODULE: ./src/upload/put.ts
// The PUT of an archive to the signed `upload_url` that `POST .../upload-url` answered: the file
// streamed from disk (never read whole: Node's fetch with a file body buffers it), with
// `Content-Type: application/gzip`, `Content-Length` and `X-Goog-Content-Length-Range:
// 0,209715200` (what the URL was signed for, as the LangGraph CLIs send it), and nothing else of
// ours: never the API key, the upload host is not the control plane. No redirect is followed (a
// 3xx is a refusal), the whole PUT has one timeout, and the abort signal stops it.
// Behind a proxy the environment names for the URL, it goes through @actions/http-client's
// tunnelling agent (loaded only then), as the control plane's transport and the health probes do.
//
//   const result = await putArchive({ url, file: archive.file, size: archive.size, signal })
//   result.outcome  // 'stored' | 'refused' (an answer, with its status) | 'lost' (sent, no
//                   // answer: the object may or may not be there) | 'not-sent' | 'cancelled'
//
// The result never holds the URL: its query is the signature. describeUploadUrl() is what may be
// logged. After anything but 'stored', name no object in a PATCH: ask for a new URL and PUT again.









/** The LangGraph CLIs' timeout for the same PUT. */
const DEFAULT_PUT_TIMEOUT_MS = 300_000;
/** The most of the archive read at once. */
const CHUNK = 256 * 1024;
/** The most of an answer's body kept for the message. */
const MAX_DETAIL_BYTES = 4096;
/** Connection errors that mean nothing reached the upload host. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
/** Why `url` is no place to PUT the source: https, or plain http to this machine only. */
function uploadUrlProblem(url) {
    let u;
    try {
        u = new URL(url);
    }
    catch {
        return 'the upload URL is not a URL';
    }
    if (u.username || u.password)
        return 'the upload URL carries credentials (user:password@)';
    if (u.protocol === 'https:')
        return undefined;
    if (u.protocol === 'http:' && (0,base_url/* isLoopbackHost */.c)(u.hostname))
        return undefined;
    return `the upload URL must be https (plain http only to this machine), not ${u.protocol}//${u.hostname}`;
}
/** The URL as it may be logged: origin and path, without the query that signs it. */
function describeUploadUrl(url) {
    try {
        const u = new URL(url);
        return `${u.origin}${u.pathname}`;
    }
    catch {
        return '(not a URL)';
    }
}
async function agentFor(url) {
    if (!(0,proxy/* getProxyUrl */.s)(url)?.hostname)
        return false;
    const { HttpClient } = await Promise.resolve(/* import() */).then(__webpack_require__.bind(__webpack_require__, 2779));
    const client = new HttpClient(undefined, [], { allowRedirects: false, allowRetries: false });
    return client.getAgent(url.href);
}
function headers(size) {
    return {
        'Content-Type': 'application/gzip',
        'Content-Length': String(size),
        'X-Goog-Content-Length-Range': `0,${MAX_ARCHIVE_BYTES}`,
        'User-Agent': `control-plane-deploy/${version/* VERSION */.x}`,
        Connection: 'close'
    };
}
/** PUTs the archive once. Throws only for a URL it refuses (uploadUrlProblem) or a changed file. */
async function putArchive(o) {
    const problem = uploadUrlProblem(o.url);
    if (problem)
        throw new Error(`Refusing the upload URL: ${problem}.`);
    const url = new URL(o.url);
    if (o.signal?.aborted)
        return { outcome: 'cancelled' };
    const fh = await (0,promises_.open)(o.file, 'r');
    try {
        const { size } = await fh.stat();
        if (size !== o.size)
            throw new Error(`The archive ${o.file} changed size before it was sent.`);
        const agent = await agentFor(url);
        return await send(o, url, agent, fh);
    }
    finally {
        await fh.close();
    }
}
/** Hands the file to the request through two reused buffers (reused-buffers.ts), then ends it. */
async function pump(fh, req, size, closed, handed) {
    const pair = new ReusedBuffers(CHUNK);
    for (let left = size; left > 0;) {
        const buf = await Promise.race([pair.next(), closed]);
        if (!buf)
            return;
        const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, left), null);
        if (bytesRead === 0)
            throw new Error('the archive became shorter while it was sent');
        left -= bytesRead;
        handed(bytesRead);
        pair.write(buf.subarray(0, bytesRead), (bytes, done) => req.write(bytes, done));
    }
    req.end();
}
function send(o, url, agent, fh) {
    const timeoutMs = o.timeoutMs ?? DEFAULT_PUT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(Math.max(1, timeoutMs));
    const signal = o.signal ? AbortSignal.any([timeout, o.signal]) : timeout;
    const lib = url.protocol === 'https:' ? external_node_https_ : external_node_http_;
    return new Promise(resolve => {
        const progress = { sent: false, handed: 0 };
        let settled = false;
        const req = lib.request(url, { method: 'PUT', headers: headers(o.size), agent, signal });
        let close = () => { };
        const closed = new Promise(r => (close = r));
        const done = (result) => {
            if (settled)
                return;
            settled = true;
            close();
            req.destroy();
            resolve(result);
        };
        const failed = (err) => done(failureOf(err, progress, { cancelled: o.signal?.aborted, timeout, timeoutMs }));
        req.on('error', failed);
        req.on('finish', () => (progress.sent = true));
        req.on('response', res => {
            progress.answered = res.statusCode ?? 0;
            res.on('error', failed);
            readAnswer(res).then(text => done(answerOf(res, text, progress, o.size, url)), failed);
        });
        pump(fh, req, o.size, closed, n => (progress.handed += n)).catch((err) => done({ outcome: 'not-sent', reason: `reading the archive: ${err.message}` }));
    });
}
/** What a request error means, given how far the PUT came. */
function failureOf(err, progress, at) {
    if (at.cancelled)
        return { outcome: 'cancelled' };
    if (progress.answered !== undefined)
        return { outcome: 'refused', status: progress.answered, detail: 'the connection closed' };
    if (at.timeout.aborted)
        return { outcome: 'lost', reason: `no answer within ${Math.round(at.timeoutMs / 1000)} s` };
    if (!progress.sent && err.code && NOT_SENT_CODES.has(err.code))
        return { outcome: 'not-sent', reason: err.code };
    return { outcome: 'lost', reason: (0,redact/* sanitizeServerText */.c8)(err.code ?? err.message, 200) };
}
/** The first MAX_DETAIL_BYTES of an answer's body, as text. */
function readAnswer(res) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let kept = 0;
        res.on('data', (chunk) => {
            if (kept < MAX_DETAIL_BYTES)
                chunks.push(chunk.subarray(0, MAX_DETAIL_BYTES - kept));
            kept += chunk.length;
        });
        res.on('error', reject);
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
}
/** What a whole answer means. `finish` (flushed) may come after it: every byte handed is enough. */
function answerOf(res, text, progress, size, url) {
    const status = res.statusCode ?? 0;
    const ok = status >= 200 && status < 300;
    if (ok && (progress.sent || progress.handed === size))
        return { outcome: 'stored', status };
    if (ok)
        return { outcome: 'lost', reason: `HTTP ${status} before the whole archive was sent` };
    const detail = status >= 300 && status < 400
        ? `a redirect to ${describeUploadUrl(new URL(res.headers.location ?? '', url).href)}, not followed`
        : (0,redact/* sanitizeServerText */.c8)(text, 300);
    return { outcome: 'refused', status, detail };
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
;// CONCATENATED MODULE: ./src/upload/workspace-git.ts
// What git says of the workspace an archive was taken from, for the log and the summary: the
// commit checked out, and whether tracked files differ from it ("with uncommitted changes").
// Untracked files do not count (`--untracked-files=no`): they are often build output the ignore
// files leave out. Fixed arguments, no shell; `--no-optional-locks` so that reading never takes
// the index lock of a checkout another step is using. No git, no checkout, or a git that refuses
// the directory (another owner's checkout) all give `{}`: the facts are optional.
//
//   await readWorkspaceGit('/w')  // { commit: '3f2c...', uncommittedChanges: false }

function git(cwd, args) {
    return new Promise(resolve => {
        (0,external_node_child_process_.execFile)('git', ['--no-optional-locks', ...args], { cwd, encoding: 'utf8', timeout: 10_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => resolve(err ? undefined : stdout));
    });
}
async function readWorkspaceGit(workspace) {
    const head = (await git(workspace, ['rev-parse', '--verify', '-q', 'HEAD']))?.trim();
    if (!head || !/^[0-9a-f]{40,64}$/.test(head))
        return {};
    const status = await git(workspace, ['status', '--porcelain', '--untracked-files=no']);
    if (status === undefined)
        return { commit: head };
    return { commit: head, uncommittedChanges: status.trim() !== '' };
}
/** `3f2c1a9 (with uncommitted changes)`: the line the log and the summary show. */
function describeWorkspaceGit(facts) {
    if (!facts.commit)
        return undefined;
    return `${facts.commit.slice(0, 12)}${facts.uncommittedChanges ? ' (with uncommitted changes)' : ''}`;
}

// EXTERNAL MODULE: ./src/deploy/deploy-error.ts
var deploy_error = __webpack_require__(2099);
;// CONCATENATED MODULE: ./src/deploy/steps/upload.ts






/** PUTs of one run in all, each to a new upload URL. */
const UPLOAD_TRIES = 3;
/** `12 files, 3.4 KiB, sha256:...; git 3f2c1a9e0b7d (with uncommitted changes)`. */
function describeSource(f) {
    const git = f.commit ? `; workspace at git commit ${f.commit}` : '';
    return `${f.files} ${f.files === 1 ? 'file' : 'files'}, ${size(f.size)}, ${f.digest}${git}`;
}
function size(bytes) {
    if (bytes < 1024)
        return `${bytes} B`;
    if (bytes < 1_048_576)
        return `${(bytes / 1024).toFixed(1)} KiB`;
    return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}
/** Archives the workspace's project; an ArchiveError becomes the run's error, before any request. */
async function prepareUpload(o, state, deps) {
    const workspace = deps.workspace ?? '.';
    const inputName = deps.say ? deps.say('graph-config-path') : 'graph-config-path';
    return deps.log.group('Archive the source', async () => {
        let archive;
        try {
            archive = await buildArchive({
                workspace,
                graphConfigPath: o.graphConfigPath,
                inputName,
                signal: deps.signal
            });
        }
        catch (err) {
            if (!(err instanceof ArchiveError))
                throw err;
            throw new deploy_error/* DeployError */.s(`${err.message} Nothing was sent.`, 'An upload deploy archives the workspace: run it where the project is checked out.', 'Source not archived');
        }
        const commit = describeWorkspaceGit(await readWorkspaceGit(workspace));
        const facts = {
            files: archive.files.length,
            size: archive.size,
            digest: archive.digest,
            ...(commit ? { commit } : {})
        };
        state.source = facts;
        for (const w of archive.warnings)
            deps.log.warning(w, 'Large source archive');
        const described = describeSource(facts);
        deps.log.info(`Source archive: ${described}.`);
        deps.log.info(`  langgraph_config_path: ${archive.configPath}`);
        const upload = {
            archive,
            facts,
            described,
            store: (client, deploymentId, st) => uploadSource(client, deploymentId, upload, st, deps)
        };
        return upload;
    });
}
/** Why a PUT did not store the object, for the log. */
function putFailure(r) {
    switch (r.outcome) {
        case 'refused':
            return `refused with HTTP ${r.status}${r.detail ? ` (${(0,redact/* sanitizeServerText */.c8)(r.detail, 200)})` : ''}`;
        case 'lost':
            return `its answer was lost (${r.reason}): whether it was stored is unknown`;
        case 'not-sent':
            return `not sent (${r.reason})`;
        case 'cancelled':
            return 'cancelled';
    }
}
/**
 * Asks for an upload URL and PUTs the archive there, each try with a new URL; the object path of
 * the PUT that was stored. Throws a DeployError when none was: nothing names an object then.
 */
async function uploadSource(client, deploymentId, upload, state, deps) {
    return deps.log.group('Upload the source', async () => {
        const failures = [];
        for (let attempt = 1; attempt <= UPLOAD_TRIES; attempt++) {
            const { upload_url: url, object_path: objectPath } = await client.requestUploadUrl(deploymentId);
            const r = await putArchive({
                url,
                file: upload.archive.file,
                size: upload.archive.size,
                signal: deps.signal
            });
            if (r.outcome === 'stored') {
                deps.log.info(`Uploaded ${describeSource(upload.facts)} to ${describeUploadUrl(url)}.`);
                return objectPath;
            }
            const why = putFailure(r);
            failures.push(`try ${attempt}: ${why}`);
            if (r.outcome === 'cancelled' || deps.signal?.aborted)
                break;
            deps.log.warning(`The upload of the source (try ${attempt} of ${UPLOAD_TRIES}) was ${why}; that object is never deployed.` +
                (attempt < UPLOAD_TRIES ? ' Asking for a new upload URL.' : ''), 'Upload failed');
            if (attempt < UPLOAD_TRIES && !(await client.pause(attempt)))
                break;
        }
        throw uploadFailed(state, failures);
    });
}
function uploadFailed(state, failures) {
    const name = state.name ? `"${state.name}"` : state.deploymentId;
    const created = state.created
        ? ` Deployment ${name} (${state.deploymentId}) was created by this run and has no revision with this source yet: a re-run finds it by name and uploads again.`
        : '';
    return new deploy_error/* DeployError */.s(`The source archive could not be uploaded (${failures.join('; ')}). Nothing was patched: no revision names it.${created}`, 'The upload host is not the control plane: check that this runner can reach it (a proxy, a firewall), then re-run the job.', 'Upload failed');
}


/***/ })

};
