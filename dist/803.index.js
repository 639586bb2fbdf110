export const id = 803;
export const ids = [803];
export const modules = {

/***/ 2803:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  prepareUpload: () => (/* binding */ prepareUpload)
});

// EXTERNAL MODULE: ./src/control-plane/base-url.ts
var base_url = __webpack_require__(1937);
// EXTERNAL MODULE: ./src/control-plane/errors.ts
var errors = __webpack_require__(4007);
// EXTERNAL MODULE: ./src/inert.ts
var inert = __webpack_require__(2679);
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
// person, naming the input as the user set it, and what to do when it is not the usual (run where
// the project is checked out). Thrown before any request is sent.
class ArchiveError extends Error {
    name = 'ArchiveError';
    hint;
    constructor(message, hint) {
        super(message);
        this.hint = hint;
    }
}

;// CONCATENATED MODULE: ./src/upload/wildmatch.ts
/** Python's line boundaries (str.splitlines), after universal newlines. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/u;
/** Python's whitespace (str.rstrip): not U+FEFF, which JavaScript's `\s` holds. */
const TRAILING_SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/u;
const BOM = '\ufeff';
/** Any character but a newline: Python's `.`. */
const ANY = '[^\\n]';
function escapeRegex(c) {
    return /[\\^$.*+?()[\]{}|/]/u.test(c) ? `\\${c}` : c;
}
/** A bracket expression from `[` at `start - 1`: its class and the index after it; undefined: no `]`. */
function bracket(seg, start) {
    let j = start;
    if (seg[j] === '!' || seg[j] === '^')
        j++;
    if (seg[j] === ']')
        j++;
    while (j < seg.length && seg[j] !== ']')
        j++;
    if (j >= seg.length)
        return undefined;
    let i = start;
    let cls = '[';
    if (seg[i] === '!' || seg[i] === '^') {
        cls += '^';
        i++;
    }
    for (const c of seg.slice(i, j))
        cls += c === '-' ? c : /[\\\]^[]/u.test(c) ? `\\${c}` : c;
    return { cls: `${cls}]`, next: j + 1 };
}
/** One path segment's glob as a regex; undefined when it cannot be read. */
function globSegment(seg) {
    let out = '';
    const chars = [...seg];
    for (let i = 0; i < chars.length; i++) {
        const c = chars[i];
        if (c === '\\') {
            if (i + 1 >= chars.length)
                return undefined;
            out += escapeRegex(chars[++i]);
        }
        else if (c === '*')
            out += '[^/]*';
        else if (c === '?')
            out += '[^/]';
        else if (c === '[') {
            const b = bracket(chars, i + 1);
            if (!b)
                return undefined;
            out += b.cls;
            i = b.next - 1;
        }
        else
            out += escapeRegex(c);
    }
    return out;
}
/** Segments with `**` runs collapsed. */
function collapse(segs) {
    return segs.filter((s, i) => !(s === '**' && segs[i - 1] === '**'));
}
/** The regex of normalised segments; `reading` sets how the last segment ends. */
function segmentsRegex(segs, reading) {
    let out = '';
    let needSlash = false;
    for (let i = 0; i < segs.length; i++) {
        const seg = segs[i];
        const last = i === segs.length - 1;
        if (seg === '**') {
            if (i === 0)
                out += `^(?:${ANY}+/)?`;
            else if (!last) {
                out += `(?:/${ANY}+)?`;
                needSlash = true;
            }
            else
                out += reading === 'cli' ? '/' : `/${ANY}+$`;
            continue;
        }
        const glob = seg === '*' && reading === 'cli' ? '[^/]+' : globSegment(seg);
        if (glob === undefined)
            return undefined;
        out += `${i === 0 ? '^' : ''}${needSlash ? '/' : ''}${glob}`;
        if (last)
            out += reading === 'cli' ? '(?:/|$)' : '$';
        needSlash = true;
    }
    return out;
}
/** The CLI's regex of a rule's body (no `!`); undefined: no rule. */
function cliRegex(body) {
    let segs = body.split('/');
    const dirRule = segs.at(-1) === '';
    if (segs[0] === '')
        segs.shift();
    else if (segs.length === 1 || (segs.length === 2 && segs[1] === '')) {
        if (segs[0] !== '**')
            segs.unshift('**');
    }
    if (segs.length === 0)
        return undefined;
    if (segs.at(-1) === '')
        segs[segs.length - 1] = '**';
    segs = collapse(segs);
    const shape = segs.join('/');
    // Whole-tree shapes, matched anywhere in the path as the CLI matches them.
    if (shape === '**')
        return dirRule ? '/' : ANY;
    if (shape === '**/*')
        return ANY;
    if (shape === '**/*/**')
        return '/';
    return segmentsRegex(segs, 'cli');
}
/** Git's regex of a rule's body (no `!`, no trailing `/`). */
function gitRegex(body) {
    const anchored = body.includes('/');
    let segs = (body.startsWith('/') ? body.slice(1) : body).split('/');
    if (!anchored)
        segs.unshift('**');
    segs = collapse(segs);
    if (segs.length === 1 && segs[0] === '**')
        return ANY;
    return segmentsRegex(segs, 'git');
}
/** One line as a rule; undefined for a blank line, a comment or a line that cannot be read. */
function parseLine(raw, where, reading, flags) {
    const line = raw.endsWith('\\ ') ? raw : raw.replace(TRAILING_SPACE, '');
    if (line === '' || line.startsWith('#') || line === '/')
        return undefined;
    const negated = line.startsWith('!');
    let body = negated ? line.slice(1) : line;
    const dirOnly = reading === 'git' && body.endsWith('/');
    if (dirOnly)
        body = body.slice(0, -1);
    if (body === '')
        return undefined;
    const source = reading === 'cli' ? cliRegex(body) : gitRegex(body);
    if (source === undefined)
        return undefined;
    let regex;
    try {
        regex = new RegExp(source, flags);
    }
    catch {
        return undefined;
    }
    const rule = {
        negated,
        text: line,
        where,
        matches: (path, isDirectory) => reading === 'cli'
            ? regex.test(isDirectory ? `${path}/` : path)
            : (!dirOnly || isDirectory) && regex.test(path)
    };
    return rule;
}
/**
 * The rules of an ignore file's text. `where` names the file for the log (`.gitignore`): each rule
 * is said as `<where> line <n>`. `ignoreCase`: for the credential names alone.
 */
function parseRules(text, where, reading, ignoreCase = false) {
    const body = text.startsWith(BOM) ? text.slice(1) : text;
    const rules = [];
    const flags = ignoreCase ? 'iu' : 'u';
    body.split(LINE_BREAK).forEach((line, i) => {
        const rule = parseLine(line, `${where} line ${i + 1}`, reading, flags);
        if (rule)
            rules.push(rule);
    });
    return rules;
}
/**
 * The rule that decides `path` (relative to the rules' folder, `/`-separated): the last one that
 * matches. `undefined` when none matches; a negated rule when the path is kept.
 */
function lastMatch(rules, path, isDirectory) {
    for (let i = rules.length - 1; i >= 0; i--)
        if (rules[i].matches(path, isDirectory))
            return rules[i];
    return undefined;
}
/** The rule that leaves `path` out, or undefined when it is kept. */
function decide(rules, path, isDirectory) {
    const rule = lastMatch(rules, path, isDirectory);
    return rule && !rule.negated ? rule : undefined;
}

;// CONCATENATED MODULE: ./src/upload/credentials.ts
// Files that carry credentials by their well-known names: never archived, whatever the ignore
// files say, and named in the log. Matched by name at any depth, ignoring case (`.ENV` is as secret
// as `.env`). The list starts from the file-name rules that secret scanners maintain (Talisman's
// filename detector, shhgit's signatures, gitleaks' `pkcs12-file`), kept to the names that hold a
// secret whatever else is in the project, plus the files that the tools agent projects use write
// their tokens to, at the paths those tools document. docs/upload.md says where each comes from,
// and which scanner names stay in (they are also ordinary source files the build may need).

/** The names, as .gitignore lines (read as git reads them): the last line that matches decides. */
const CREDENTIAL_NAMES = [
    // dotenv files: values the process reads as its environment; templates stay. direnv's .envrc
    // exports them into the shell.
    '*.env',
    '.env',
    '.env.*',
    '!.env.example',
    '!.env.sample',
    '!.env.template',
    '.envrc',
    // Google Cloud: google-github-actions/auth's key file, service account and OAuth client keys,
    // gcloud's own stores
    'gha-creds-*.json',
    'credentials.json',
    'application_default_credentials.json',
    'service-account*.json',
    'serviceAccountKey.json',
    'client_secret*.json',
    'gcloud/credentials.db',
    'gcloud/access_tokens.db',
    'gcloud/legacy_credentials/**',
    // AWS, Azure, Databricks, s3cmd: the CLIs' credential and token files
    '.aws/credentials',
    '.azure/accessTokens.json',
    '.azure/msal_token_cache.*',
    '.azure/service_principal_entries.json',
    '.databrickscfg',
    '.s3cfg',
    // containers, clusters and secret stores: Docker's registry logins, kubectl's cluster
    // credentials, Vault's token, Streamlit's secrets, Terraform Cloud's token and variables
    '.docker/config.json',
    '.dockercfg',
    '.kube/config',
    '.vault-token',
    '.streamlit/secrets.toml',
    '.terraformrc',
    'credentials.tfrc.json',
    'terraform.tfvars',
    // model hubs and data sets: Hugging Face's and Kaggle's API tokens
    'huggingface/token',
    'kaggle.json',
    // package registries, code hosts and databases: tokens and passwords
    '.npmrc',
    '.pypirc',
    '.netrc',
    '_netrc',
    '.git-credentials',
    '.gem/credentials',
    'gh/hosts.yml',
    '.config/hub',
    '.pgpass',
    '.my.cnf',
    '.htpasswd',
    // private keys and key stores (a public certificate goes as .crt, a public key as .pub)
    '*_rsa',
    '*_dsa',
    '*_ecdsa',
    '*_ed25519',
    '*_ecdsa_sk',
    '*_ed25519_sk',
    '*.pem',
    '*.key',
    '*.keypair',
    '*.p8',
    '*.p12',
    '*.pfx',
    '*.pkcs12',
    '*.ppk',
    '*.jks',
    '*.keystore',
    '*.keyring',
    '*.keychain',
    '*.kdb',
    '*.kdbx',
    '*.ovpn',
    // shell and REPL histories: commands typed with their tokens
    '.*_history',
    // Terraform state holds every secret of the resources it made
    '*.tfstate',
    '*.tfstate.backup'
];
// `.aws/credentials` has a `/`, which anchors a git line: `**/` lets it match at any depth.
const RULES = parseRules(CREDENTIAL_NAMES.map(n => (n.includes('/') ? `**/${n}` : n)).join('\n'), 'credentials', 'git', true);
/** The credential name that `member` (a file's path, `/`-separated) carries, or undefined. */
function credentialName(member) {
    const rule = decide(RULES, member, false);
    return rule ? rule.text.replace(/^\*\*\//u, '') : undefined;
}

;// CONCATENATED MODULE: ./src/upload/ignore-rules.ts
// Which paths of one included directory the archive leaves out, and by which rule:
//   - always the folders `__pycache__/ .git/ .venv/ venv/ node_modules/ .tox/ .mypy_cache/`, at
//     any depth, whatever a `!` line says (the Python LangGraph CLI lets `!.git/` put them back,
//     and with them the token `actions/checkout` keeps in `.git/config`);
//   - the lines of the directory's own `.dockerignore`, then of its `.gitignore`, read as the
//     Python LangGraph CLI reads them (wildmatch.ts, 'cli'): an allowlist keeps what it keeps;
//   - then every `.gitignore` below the directory, read as git reads it (wildmatch.ts, 'git'): the
//     deepest one with a matching line decides. A path goes in only when both readings keep it:
//     a nested `!` line never brings back what the top files leave out.
// Ignore files above an included directory (and `.git/info/exclude`, the global excludes file)
// are not read, as the CLI reads none.



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
const ALWAYS = new Set(ALWAYS_EXCLUDED_DIRS);
/** The ignore files read at the top of each included directory, in the CLI's order. */
const IGNORE_FILES = ['.dockerignore', '.gitignore'];
/** The text of an ignore file that is a regular file; '' otherwise (as the CLI reads them). */
async function ignore_rules_text(file) {
    try {
        if (!(await (0,promises_.stat)(file)).isFile())
            return '';
        return await (0,promises_.readFile)(file, 'utf8');
    }
    catch {
        return '';
    }
}
/** The rules of a nested `.gitignore` in `dir` (`base` from the top; `member` for the log). */
async function readNestedRules(dir, base, member) {
    const rules = parseRules(await ignore_rules_text((0,external_node_path_.join)(dir, '.gitignore')), member, 'git');
    return rules.length ? { base, rules } : undefined;
}
/** The deepest nested `.gitignore` with a line that matches `rel` decides. */
function nestedVerdict(nested, rel, isDirectory) {
    for (let i = nested.length - 1; i >= 0; i--) {
        const level = nested[i];
        if (!rel.startsWith(`${level.base}/`))
            continue;
        const rule = lastMatch(level.rules, rel.slice(level.base.length + 1), isDirectory);
        if (rule)
            return rule.negated ? undefined : rule;
    }
    return undefined;
}
/** The rules of included directory `dir` (absolute); `prefix` names its files for the log. */
async function readTopRules(dir, prefix) {
    const rules = [];
    for (const name of IGNORE_FILES)
        rules.push(...parseRules(await ignore_rules_text((0,external_node_path_.join)(dir, name)), prefix ? `${prefix}/${name}` : name, 'cli'));
    return {
        leftOutBy(rel, isDirectory, nested) {
            const name = rel.slice(rel.lastIndexOf('/') + 1);
            if (isDirectory && ALWAYS.has(name))
                return { always: true };
            const rule = decide(rules, rel, isDirectory) ?? nestedVerdict(nested, rel, isDirectory);
            return rule ? { always: false, rule } : undefined;
        }
    };
}

;// CONCATENATED MODULE: ./src/upload/file-set.ts
// The files an archive holds: every regular file under each included directory (root.ts) that the
// ignore rules keep (ignore-rules.ts), less what must never leave the runner. As the LangGraph
// CLI's remote build selects them (archive.py), with these departures (docs/upload.md):
//   - links are left out, each named: symlinks (to files or folders; a linked folder is not
//     entered) and every name of a file with more than one hard link (a hard link can hold the
//     bytes of a file outside the workspace; the CLI keeps the first name it meets and drops the
//     others silently);
//   - special files (FIFO, socket, device) are left out, each named (the CLI blocks on a FIFO);
//   - files that carry credentials by their names (credentials.ts) are left out, each named;
//   - what this run writes (`own`: the CLI's `--output-file`, the archive's temporary folder) is
//     left out, each named, so that the digest never depends on the run's own files;
//   - no directory members, no `..` member (a walk cannot make one; checked anyway);
//   - the members are sorted by their names' UTF-8 bytes, so the same files give the same
//     archive; a file under two included directories is held once.






const utf8 = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');
/** A directory's entries, names decoded (the archive's names are UTF-8). */
async function entries(dir) {
    let list;
    try {
        list = await (0,promises_.readdir)(dir, { withFileTypes: true, encoding: 'buffer' });
    }
    catch (err) {
        const code = err.code ?? String(err);
        throw new ArchiveError(`The folder ${dir} cannot be read (${code}): make it readable or ignore it.`);
    }
    return list.map(entry => {
        try {
            return { name: utf8.decode(entry.name), entry, notUtf8: false };
        }
        catch {
            return { name: lenient.decode(entry.name), entry, notUtf8: true };
        }
    });
}
function kindOf(e) {
    if (e.isDirectory())
        return 'directory';
    if (e.isFile())
        return 'file';
    if (e.isSymbolicLink())
        return 'symlink';
    if (e.isFIFO())
        return 'fifo';
    if (e.isSocket())
        return 'socket';
    return 'device';
}
/** A symlink is matched as the folder it points to, as the CLI's walk matches it. */
function pointsToDirectory(path) {
    try {
        return (0,external_node_fs_.statSync)(path).isDirectory();
    }
    catch {
        return false;
    }
}
function verdictText(v) {
    return v.always
        ? 'always left out, whatever the ignore files say'
        : `ignored by \`${v.rule.text}\` (${v.rule.where})`;
}
async function walk(w, abs, rel, nested) {
    const list = await entries(abs);
    let chain = nested;
    if (rel && list.some(e => e.name === '.gitignore' && !e.notUtf8)) {
        const member = [w.base.prefix, rel, '.gitignore'].filter(Boolean).join('/');
        const here = await readNestedRules(abs, rel, member);
        if (here)
            chain = [...nested, here];
    }
    for (const e of list)
        await visit(w, e, { abs, rel, nested: chain });
}
async function visit(w, { name, entry, notUtf8 }, at) {
    const relPath = at.rel ? `${at.rel}/${name}` : name;
    const member = w.base.prefix ? `${w.base.prefix}/${relPath}` : relPath;
    const path = (0,external_node_path_.join)(at.abs, name);
    const kind = kindOf(entry);
    const isDir = kind === 'directory' || (kind === 'symlink' && pointsToDirectory(path));
    const verdict = w.top.leftOutBy(relPath, isDir, at.nested);
    if (verdict) {
        w.ignored.push({ name: isDir ? `${member}/` : member, why: verdictText(verdict) });
        return;
    }
    if (notUtf8)
        throw new ArchiveError(`The file name ${JSON.stringify(name)} in ${at.abs} is not UTF-8: rename it or ignore it.`);
    if (w.own(path)) {
        w.skipped.push({ name: isDir ? `${member}/` : member, reason: 'written by this run' });
        return;
    }
    if (kind === 'directory')
        return walk(w, path, relPath, at.nested);
    if (kind !== 'file') {
        w.skipped.push({ name: isDir ? `${member}/` : member, reason: kind });
        return;
    }
    const credential = credentialName(member);
    if (credential)
        w.skipped.push({ name: member, reason: 'credential', detail: credential });
    else if (!member.split('/').includes('..'))
        w.found.set(member, { name: member, path });
}
/** Sorts names by their UTF-8 bytes: the same order on every machine and in every locale. */
function byName(a, b) {
    return Buffer.compare(Buffer.from(a.name), Buffer.from(b.name));
}
/** Leaves out every name of a hard-linked file; blocking lstats (libuv trips took a tenth). */
function dropHardLinks(files, skipped) {
    const kept = [];
    for (const file of files) {
        const links = (0,external_node_fs_.lstatSync)(file.path, { bigint: true }).nlink;
        if (links > 1n)
            skipped.push({ name: file.name, reason: 'hard link', detail: String(links) });
        else
            kept.push(file);
    }
    return kept;
}
/** The real path of a file that may not exist yet: its folder's real path and its name. */
function real(path) {
    try {
        return (0,external_node_fs_.realpathSync)(path);
    }
    catch {
        try {
            return (0,external_node_path_.join)((0,external_node_fs_.realpathSync)((0,external_node_path_.dirname)(path)), (0,external_node_path_.basename)(path));
        }
        catch {
            return path;
        }
    }
}
function ownPaths(o) {
    const files = new Set((o.ownFiles ?? []).map(real));
    const prefix = o.ownDirPrefix;
    return path => files.has(path) || (prefix !== undefined && path.startsWith(prefix));
}
/** Entries once each, sorted; none for a name that another included directory archives. */
function leftOut(list, kept) {
    const names = new Set();
    for (const { name } of kept)
        for (let i = name.indexOf('/');; i = name.indexOf('/', i + 1)) {
            names.add(i < 0 ? name : name.slice(0, i + 1));
            if (i < 0)
                break;
        }
    const stillOut = list.filter(e => !names.has(e.name));
    return [...new Map(stillOut.map(e => [e.name, e])).values()].sort(byName);
}
/** The files of the included directories, sorted, and what was left out, with why. */
async function selectFiles(included, o = {}) {
    const found = new Map();
    const skipped = [];
    const ignored = [];
    const own = ownPaths(o);
    for (const base of included) {
        const top = await readTopRules(base.dir, base.prefix);
        await walk({ top, base, own, found, skipped, ignored }, base.dir, '', []);
    }
    const files = dropHardLinks([...found.values()].sort(byName), skipped);
    return { files, skipped: leftOut(skipped, files), ignored: leftOut(ignored, files) };
}

// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(8522);
;// CONCATENATED MODULE: ./src/upload/gzip.ts
// A gzip stream whose bytes depend only on its input: raw deflate between a fixed 10-byte header
// (no file name, mtime 0, no extra flags, OS 255 "unknown" as Python's gzip writes: zlib itself
// would write 3 on Unix and 10 on Windows) and the CRC-32 and length trailer of RFC 1952. The
// deflate bytes are zlib's at a fixed level, so the same Node.js (and its zlib) gives the same bytes.

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
 * zlib's default, as `tar -czf` and both LangGraph CLIs use: on Python sources (bench/RESULTS.md)
 * 1 is 2.3x faster but 13% larger, 9 15x slower for 1% less; 6 meets the time goals.
 */
const LEVEL = 6;
/** Deflate's window: each block is primed with this much of the bytes before it. */
const WINDOW = 32 * 1024;
/** The empty final block that ends the stream: every block before ends with a sync flush. */
const FINAL_BLOCK = (0,external_node_zlib_.deflateRawSync)(Buffer.alloc(0), { level: LEVEL });
/**
 * Deflate in blocks compressed several at once on libuv's threads (pigz's way: one zlib stream was
 * the whole of the archive's time). Each block is primed with the 32 KiB before it and ends with a
 * sync flush, so the blocks in order are one stream, whose bytes depend only on the blocks given.
 * Each block's output is copied, as zlib gives it, into a buffer reused (one per block in flight):
 * held until its turn, zlib's own output piled up as old garbage (about 30 MB on 150 MB).
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
/** One block, raw deflate ended by a sync flush, copied into `output` (a larger one if need be). */
function deflateBlock(block, dictionary, output) {
    return new Promise((resolve, reject) => {
        const z = (0,external_node_zlib_.createDeflateRaw)({
            level: LEVEL,
            // Room for the whole block, deflated in one job on zlib's thread: a smaller chunk comes back
            // to the main thread each time it fills, and those turns were a third of the archive's time.
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

;// CONCATENATED MODULE: ./src/upload/left-out.ts
// What the archive leaves out that the config needs, and why, in the words of the rule or reason
// that dropped it. A graph's file (its module) must be in the archive: the build imports it, so an
// archive without it is refused before anything is sent, naming the graph and the rule. The files
// a graph names are read as the LangGraph CLIs read them: the spec (`"./src/agent.py:graph"`, or
// `{"path": ...}`) up to its first `:`; a path (a `/` or `\` in it) or a JS or Python file name
// is a file, relative to the config's folder; a Python module path (`agent.graph:app`) is left to
// the build's import.


/** The graph files the LangGraph CLIs take by their names alone, without a `/`. */
const FILE_SUFFIX = /\.(?:py|[cm]?[jt]s|[jt]sx)$/u;
/** Why a file that no ignore rule names is left out, for the log. */
function skipReason(e) {
    switch (e.reason) {
        case 'symlink':
            return 'a symbolic link: links are never archived (copy the file in if the build needs it)';
        case 'hard link':
            return `a hard link (the file has ${e.detail ?? 'several'} names): links are never archived (copy it to give it one name)`;
        case 'fifo':
        case 'socket':
        case 'device':
            return `a ${e.reason === 'fifo' ? 'FIFO' : e.reason}, not a regular file`;
        case 'credential':
            return `it carries credentials by its name (\`${e.detail ?? e.name}\`): such files are never archived`;
        case 'written by this run':
            return 'written by this run, never archived';
    }
}
/** The member `file` names from the config's folder; an absolute path is outside the root. */
function memberOf(file, configPath) {
    const path = file.replaceAll('\\', '/');
    if (external_node_path_.posix.isAbsolute(path))
        return `..${external_node_path_.posix.normalize(path)}`;
    const dir = external_node_path_.posix.dirname(configPath);
    return external_node_path_.posix.normalize(external_node_path_.posix.join(dir === '.' ? '' : dir, path));
}
/** The file a graph's spec names, or undefined for a module path (or a spec that is not one). */
function specFile(spec) {
    const raw = typeof spec === 'string' ? spec : spec?.path;
    if (typeof raw !== 'string')
        return undefined;
    const colon = raw.indexOf(':');
    const file = colon < 0 ? raw : raw.slice(0, colon);
    if (file === '')
        return undefined;
    return /[/\\]/u.test(file) || FILE_SUFFIX.test(file) ? file : undefined;
}
/** Each graph of `config` that names a file, with that file's member name. */
function graphFiles(config, configPath) {
    const graphs = config?.graphs;
    if (graphs === null || typeof graphs !== 'object' || Array.isArray(graphs))
        return [];
    const out = [];
    for (const [graph, spec] of Object.entries(graphs)) {
        const file = specFile(spec);
        if (file !== undefined)
            out.push({ graph, file, member: memberOf(file, configPath) });
    }
    return out;
}
/** The entry of `list` for `member` itself or for a folder above it. */
function entryFor(list, member) {
    return list.find(e => e.name === member || (e.name.endsWith('/') && member.startsWith(e.name)));
}
/** Why `member` is not in the archive: what left it (or a folder above it) out, or where it is. */
function whyLeftOut(member, set, exists) {
    if (member === '..' || member.startsWith('../'))
        return "it lies outside the archive's root (the config's folder and its local `dependencies`)";
    const ignored = entryFor(set.ignored, member);
    if (ignored)
        return `${ignored.name} is ${ignored.why}`;
    const skipped = entryFor(set.skipped, member);
    if (skipped)
        return `${skipped.name} is left out: ${skipReason(skipped)}`;
    return exists(member)
        ? "it lies outside the folders archived (the config's folder and its local `dependencies`)"
        : 'it does not exist';
}
/** The refusal of an archive that lacks a file a graph names: the first such, and why. */
function graphFileLeftOut(config, configPath, set, at) {
    const files = new Set(set.files);
    const lacking = graphFiles(config, configPath).find(g => !files.has(g.member));
    if (!lacking)
        return undefined;
    const why = whyLeftOut(lacking.member, set, at.exists);
    const inside = !lacking.member.startsWith('../') && lacking.member !== '..';
    const where = !inside || lacking.file === lacking.member ? '' : ` (${lacking.member} in the archive)`;
    return new ArchiveError(`${at.inputName}: graph "${lacking.graph}" of '${at.given}' names ${lacking.file}${where}, which is not in the archive: ${why}. The build would fail to import it.`, "Keep the graph's file in the archive (change the rule that leaves it out, or move the file), or correct the graph's path in the config.");
}

;// CONCATENATED MODULE: ./src/upload/reused-buffers.ts
// Buffers (two by default) taken in turn for bytes on their way to a stream, each filled again
// only once the stream called back for its last write: nothing is allocated per chunk. Why: V8
// frees dropped Buffers only after about 64 MB of them, so a stream of fresh chunks (what
// fs.createReadStream and pipe() make) holds tens of megabytes of garbage.
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
const realOrUndefined = (p) => (0,promises_.realpath)(p).catch(() => undefined);
/** The config's absolute real path, checked to be a regular JSON file inside the workspace. */
async function locateConfig(workspace, o) {
    const name = o.inputName;
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
    const name = o.inputName;
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
    const env = json?.env;
    const envFile = typeof env === 'string' ? toPosix((0,external_node_path_.relative)(root, (0,external_node_path_.resolve)(configDir, env))) : '';
    return { root, configPath: toPosix((0,external_node_path_.relative)(root, file)), included, envFile, config: json };
}

;// CONCATENATED MODULE: ./src/upload/tar.ts
// The tar format the archive is written in: POSIX ustar headers, with a pax extended header
// (typeflag `x`, named `././@PaxHeader` as Python's tarfile names it) before a member whose name is
// longer than 100 bytes or not ASCII, or whose size does not fit 11 octal digits. Every field that
// could differ between machines is fixed: mtime (FIXED_MTIME), uid/gid 0, empty user and group
// names, mode 0644 (0755 when the file is executable). GNU tar, bsdtar, Python's tarfile and
// node-tar read it.
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












/** 200 MiB: the upload URL's content-length range; larger archives are refused. */
const MAX_ARCHIVE_BYTES = 200 * 1024 * 1024;
/**
 * 1 GiB: the most file bytes an archive may hold, unpacked (what the build unpacks, whatever the
 * compressed size: 8 GiB of a sparse file deflate to 8 MiB).
 */
const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** 50 MiB: larger archives are sent with a warning. */
const WARN_ARCHIVE_BYTES = 50 * 1024 * 1024;
/** Deflated in blocks of this size (BlockDeflate): its cost near 3%, a few blocks a few MB. */
const archive_BLOCK = 1024 * 1024;
/** Blocks read or deflated at once: one per core and one being read, at most 5 (libuv's 4 threads). */
const IN_FLIGHT = Math.min(5, Math.max(2, (0,external_node_os_.availableParallelism)() + 1));
function mib(bytes) {
    return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}
/** The tar bytes gathered into BLOCK-sized buffers taken in turn, each deflated as one block. */
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
    async read(fd, size, name, signal) {
        for (let left = size; left > 0;) {
            const buf = await this.#space();
            // Between blocks: a signal inside one large file is seen within one block's read.
            signal?.throwIfAborted();
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
/** Opens a member's file for reading, never blocking on a fifo; an fs error becomes an ArchiveError. */
function openMember(f) {
    try {
        // O_NOFOLLOW: a file swapped for a symlink since the walk is refused, not followed.
        // O_NONBLOCK: one swapped for a fifo opens at once (and is refused below), never waits.
        return (0,external_node_fs_.openSync)(f.path, promises_.constants.O_RDONLY | promises_.constants.O_NOFOLLOW | promises_.constants.O_NONBLOCK);
    }
    catch (err) {
        throw fsProblem(err, f.name);
    }
}
/** A file system error on `name` as the error the user can act on; anything else as it is. */
function fsProblem(err, name) {
    const code = err?.code;
    const leaveOut = 'or leave it out with .dockerignore or .gitignore';
    if (code === 'EACCES' || code === 'EPERM')
        return new ArchiveError(`${name} cannot be read (permission denied): make it readable by the user the job runs as, ${leaveOut}.`);
    if (code === 'ELOOP' || code === 'ENOENT' || code === 'ENOTDIR')
        return new ArchiveError(`${name} changed while it was archived: run the job again.`);
    if (code === 'EISDIR' || code === 'EAGAIN' || code === 'ENXIO')
        return new ArchiveError(`${name} is not a regular file: ${leaveOut}.`);
    if (code === 'EIO' || code === 'EMFILE' || code === 'ENFILE')
        return new ArchiveError(`${name} cannot be read (${code}): run the job again, ${leaveOut}.`);
    return err;
}
function tooLarge() {
    return new ArchiveError(`The source files hold more than ${mib(MAX_UNPACKED_BYTES)} unpacked, the limit of what the build unpacks: leave large files out with .dockerignore or .gitignore (model weights, data sets, sparse or generated files).`);
}
/**
 * Writes the tar of `files` into `deflate`, read with blocking calls: small files cost four trips
 * each through libuv's threads, queued behind the deflating blocks, and the main thread is idle.
 */
async function writeTar(files, deflate, trailer, signal) {
    const out = new TarBlocks(deflate, trailer);
    let written = 0;
    let unpacked = 0;
    for (const f of files) {
        signal?.throwIfAborted();
        const fd = openMember(f);
        try {
            const info = (0,external_node_fs_.fstatSync)(fd);
            if (!info.isFile())
                throw new ArchiveError(`${f.name} changed while it was archived.`);
            // Refused before its bytes are read: the size is known from the stat.
            unpacked += info.size;
            if (unpacked > MAX_UNPACKED_BYTES)
                throw tooLarge();
            const header = fileHeader(f.name, info.size, (info.mode & 0o111) !== 0);
            await out.copy(header);
            await readMember(out, fd, info.size, f.name, signal);
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
/** A member's bytes; a read error as the ArchiveError it means. */
async function readMember(out, fd, size, name, signal) {
    try {
        await out.read(fd, size, name, signal);
    }
    catch (err) {
        throw fsProblem(err, name);
    }
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
/** The temporary folders' names begin so: a run leaves out any it finds (its own, or a killed run's). */
const TEMP_PREFIX = 'control-plane-deploy-upload-';
/** The config is not in the archive: why, from the set's own reasons. */
function configLeftOut(o, configPath, set) {
    const ignored = set.ignored.find(e => configPath === e.name || configPath.startsWith(e.name));
    const skipped = set.skipped.find(e => e.name === configPath);
    const why = ignored
        ? `is left out of the archive: ${ignored.name} is ${ignored.why}`
        : `is left out of the archive (${skipped?.reason ?? 'not a regular file'})`;
    return new ArchiveError(`${o.inputName}: '${o.graphConfigPath}' ${why}; the config must be in it.`);
}
/** Builds the archive of the workspace's project into a temporary file. */
async function buildArchive(o) {
    const where = await resolveArchiveRoot(o);
    const tempRoot = o.tempDir ?? (0,external_node_os_.tmpdir)();
    const set = await selectFiles(where.included, {
        ownFiles: o.ownFiles,
        ownDirPrefix: (0,external_node_path_.join)(await (0,promises_.realpath)(tempRoot).catch(() => tempRoot), TEMP_PREFIX)
    }).catch((err) => {
        // A folder the walk cannot read: named by its path from the workspace when it has one.
        throw fsProblem(err, err.path ? (0,external_node_path_.relative)(o.workspace, err.path) || '.' : 'a folder');
    });
    const files = set.files.map(f => f.name);
    if (!files.includes(where.configPath))
        throw configLeftOut(o, where.configPath, set);
    const exists = (member) => (0,external_node_fs_.existsSync)((0,external_node_path_.join)(where.root, member));
    const lacking = graphFileLeftOut(where.config, where.configPath, { files, ignored: set.ignored, skipped: set.skipped }, { inputName: o.inputName, given: o.graphConfigPath, exists });
    if (lacking)
        throw lacking;
    const envFileLeftOut = where.envFile && !files.includes(where.envFile)
        ? whyLeftOut(where.envFile, set, exists)
        : undefined;
    const dir = await (0,promises_.mkdtemp)((0,external_node_path_.join)(tempRoot, TEMP_PREFIX));
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
        ignored: set.ignored,
        envFile: where.envFile,
        envFileLeftOut,
        root: where.root,
        configPath: where.configPath,
        warnings,
        cleanup
    };
}

// EXTERNAL MODULE: ./src/version.ts + 1 modules
var version = __webpack_require__(1013);
// EXTERNAL MODULE: ./src/net/request.ts
var request = __webpack_require__(2170);
;// CONCATENATED MODULE: ./src/upload/put.ts
// The PUT of an archive to the signed `upload_url`, streamed from disk (Node's fetch would buffer
// a file body), with the headers the URL was signed for, as the LangGraph CLIs send them, and
// never the API key: the upload host is not the control plane. Through the one request
// (src/net/): no redirect followed, one timeout on the run's clock, stopped by the signal.
// The result never holds the URL (its query is the signature: describeUploadUrl() may be logged).
// After anything but 'stored', a PATCH names no object: ask for a new URL and PUT again
// ('unusable': a URL refused here, which another from the same service would repeat).







/** The LangGraph CLIs' timeout for the same PUT. */
const DEFAULT_PUT_TIMEOUT_MS = 300_000;
/** The most of the archive read at once. */
const CHUNK = 256 * 1024;
/** The most of an answer's body kept for the message. */
const MAX_DETAIL_BYTES = 4096;
/** Connection errors that mean nothing reached the upload host. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
/** Why `url` is no place to PUT to: https, or http to a loopback host when `loopbackAllowed`. */
function uploadUrlProblem(url, loopbackAllowed = true) {
    const u = URL.parse(url);
    if (!u)
        return 'the upload URL is not a URL';
    if (u.username || u.password)
        return 'the upload URL carries credentials (user:password@)';
    if (!loopbackAllowed && (0,base_url/* isLoopbackHost */.cW)(u.hostname))
        return `the upload URL names this machine (${u.host}), but the control plane is not on this machine: a remote control plane does not choose a port of the runner to send the source to`;
    if (u.protocol === 'https:')
        return undefined;
    if (u.protocol === 'http:' && (0,base_url/* isLoopbackHost */.cW)(u.hostname))
        return undefined;
    return `the upload URL must be https (plain http only to this machine), not ${u.protocol}//${u.hostname}`;
}
/** The URL as it may be logged: origin and path, without the query that signs it. */
function describeUploadUrl(url, base) {
    const u = URL.parse(url, base === undefined ? undefined : String(base));
    if (!u)
        return '(not a URL)';
    return u.protocol === 'http:' || u.protocol === 'https:'
        ? `${u.origin}${u.pathname}`
        : `a ${u.protocol} URL`;
}
/** `text` with the signed URL's query (and the URL whole) cut out: what an error may say. */
function withoutSignature(text, url) {
    let out = text;
    for (const secret of [url.href, url.search, url.search.slice(1)])
        if (secret.length > 1)
            out = out.split(secret).join('?…');
    return out;
}
function headers(size) {
    return {
        'Content-Type': 'application/gzip',
        'Content-Length': String(size),
        'X-Goog-Content-Length-Range': `0,${MAX_ARCHIVE_BYTES}`,
        'User-Agent': `control-plane-deploy/${version/* VERSION */.x}`
    };
}
/** PUTs the archive once. Never throws: whatever the host answers, or fails, is a result. */
async function putArchive(o) {
    const problem = uploadUrlProblem(o.url, o.loopbackAllowed ?? true);
    if (problem)
        return { outcome: 'unusable', reason: problem };
    const url = new URL(o.url);
    if (o.signal?.aborted)
        return { outcome: 'cancelled' };
    let fh;
    try {
        fh = await (0,promises_.open)(o.file, 'r');
    }
    catch (err) {
        return { outcome: 'not-sent', reason: `reading the archive: ${err.message}` };
    }
    try {
        const { size } = await fh.stat();
        if (size !== o.size)
            return { outcome: 'not-sent', reason: 'the archive changed size before it was sent' };
        return await send(o, url, fh);
    }
    catch (err) {
        // Our bug, not the host's answer: still a result, and never the URL's signature.
        const text = err instanceof Error ? err.message : String(err);
        return { outcome: 'lost', reason: (0,inert/* sanitizeServerText */.c8)(withoutSignature(text, url), 200) };
    }
    finally {
        await fh.close();
    }
}
/** Hands the file to the request through two reused buffers (reused-buffers.ts), then ends it. */
function pump(fh, size, handed) {
    return async (req, closed) => {
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
    };
}
async function send(o, url, fh) {
    const timeoutMs = o.timeoutMs ?? DEFAULT_PUT_TIMEOUT_MS;
    let handed = 0;
    try {
        const answer = await (0,request/* request */.E)({
            url,
            method: 'PUT',
            headers: headers(o.size),
            body: pump(fh, o.size, n => (handed += n)),
            timeoutMs,
            clock: o.clock,
            ...(o.signal ? { signal: o.signal } : {}),
            maxBody: MAX_DETAIL_BYTES
        });
        return answerOf(answer, answer.sent || handed === o.size, url);
    }
    catch (err) {
        if (!(err instanceof request/* RequestFailure */.e))
            throw err;
        return failureOf(err, timeoutMs, url);
    }
}
/** What a failed PUT means, given how far it came. */
function failureOf(err, timeoutMs, url) {
    if (err.kind === 'cancelled')
        return { outcome: 'cancelled' };
    if (err.kind === 'body') {
        const cause = err.cause;
        return { outcome: 'not-sent', reason: `reading the archive: ${cause.message}` };
    }
    // A host may answer and close before the body is in.
    if (err.answer)
        return { outcome: 'refused', status: err.answer.status, detail: 'the connection closed' };
    if (err.kind === 'timeout')
        return { outcome: 'lost', reason: `no answer within ${Math.round(timeoutMs / 1000)} s` };
    if (!err.sent && err.code && NOT_SENT_CODES.has(err.code))
        return { outcome: 'not-sent', reason: err.code };
    const why = withoutSignature(err.code ?? err.message, url);
    return { outcome: 'lost', reason: (0,inert/* sanitizeServerText */.c8)(why, 200) };
}
/** What a whole answer means; `whole`: every byte was handed (its 'finish' may come after it). */
function answerOf(answer, whole, url) {
    const { status } = answer;
    const ok = status >= 200 && status < 300;
    if (ok && whole)
        return { outcome: 'stored', status };
    if (ok)
        return { outcome: 'lost', reason: `HTTP ${status} before the whole archive was sent` };
    const detail = status >= 300 && status < 400
        ? `a redirect to ${answer.redirect ? describeUploadUrl(answer.redirect, url) : '(no Location)'}, not followed`
        : (0,inert/* sanitizeServerText */.c8)(answer.body, 300);
    return { outcome: 'refused', status, detail };
}

;// CONCATENATED MODULE: ./src/upload/report.ts

/** Untracked files named one by one in the log, at most; the dry run lists every file. */
const UNTRACKED_SHOWN = 20;
/** One line per file left out though no ignore rule names it. */
function leftOutLines(a) {
    return a.skipped.map(e => `Left out: ${e.name}: ${skipReason(e)}.`);
}
/**
 * When the config's `env` names a file the archive lacks: the server would start without those
 * variables, so how to pass them (`secrets`: the input as the user sets it).
 */
function envFileHint(a, secrets) {
    if (!a.envFile || a.envFileLeftOut === undefined)
        return undefined;
    return (`${a.configPath} names ${a.envFile} as its \`env\`, and it is not in the archive (${a.envFileLeftOut}): the agent server would start without those variables. ` +
        `Give its values to ${secrets} instead (NAME=VALUE lines, from your CI's secret store): they become the deployment's secrets, which the server has as its environment.`);
}
/** The untracked files the archive holds, named (the first UNTRACKED_SHOWN). */
function untrackedLine(untracked) {
    if (untracked.length === 0)
        return undefined;
    const shown = untracked.slice(0, UNTRACKED_SHOWN).join(', ');
    const more = untracked.length > UNTRACKED_SHOWN ? `, and ${untracked.length - UNTRACKED_SHOWN} more` : '';
    const count = `${untracked.length} ${untracked.length === 1 ? 'file' : 'files'}`;
    return `Not tracked by git, but in the archive: ${count}: ${shown}${more}.`;
}
/** For a dry run: every file in the archive, then every file or folder left out, with why. */
function dryRunLines(a) {
    const out = [`Files in the archive (${a.files.length}):`, ...a.files.map(f => `  ${f}`)];
    const left = [
        ...a.skipped.map(e => ({ name: e.name, why: skipReason(e) })),
        ...a.ignored.map(e => ({ name: e.name, why: e.why }))
    ].sort((x, y) => Buffer.compare(Buffer.from(x.name), Buffer.from(y.name)));
    out.push(`Left out (${left.length}):`, ...left.map(e => `  ${e.name}: ${e.why}`));
    return out;
}

// EXTERNAL MODULE: ./src/upload/workspace-git.ts
var workspace_git = __webpack_require__(2297);
// EXTERNAL MODULE: ./src/interface/ending.ts
var ending = __webpack_require__(7472);
;// CONCATENATED MODULE: ./src/commands/deploy/steps/upload.ts
// An upload deploy's source (`internal_source`). The workspace is archived before any request, so
// that a missing config or an archive too large is one error with nothing sent. At write time: an
// upload URL, the PUT, the object path the PATCH names. A PUT refused or whose answer is lost is
// never named in a PATCH: a new URL and PUT, up to UPLOAD_TRIES, all within `timeout` of the
// archive's start (the client's deadline is later: room for the look-ups around the wait).









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
async function prepareUpload(o, deps) {
    const workspace = deps.workspace ?? '.';
    const inputName = deps.say('graph-config-path');
    // The upload's deadline: `timeout` from here, the first step of the run.
    const deadline = deps.clock.now() + o.timeoutMs;
    return deps.log.group('Archive the source', async () => {
        let archive;
        try {
            archive = await buildArchive({
                workspace,
                graphConfigPath: o.graphConfigPath,
                inputName,
                signal: deps.signal,
                ownFiles: deps.ownFiles
            });
        }
        catch (err) {
            if (!(err instanceof ArchiveError))
                throw err;
            return (0,ending/* stop */.ds)(`${err.message} Nothing was sent.`, err.hint ??
                'An upload deploy archives the workspace: run it where the project is checked out.', 'Source not archived', { nothingSent: true });
        }
        const commit = (0,workspace_git/* describeWorkspaceGit */.nw)(await (0,workspace_git/* readWorkspaceGit */.yR)(workspace));
        const facts = {
            files: archive.files.length,
            size: archive.size,
            digest: archive.digest,
            ...(commit ? { commit } : {})
        };
        for (const w of archive.warnings)
            deps.log.warning(w, 'Large source archive');
        const described = describeSource(facts);
        deps.log.info(`Source archive: ${described}.`);
        deps.log.info(`  langgraph_config_path: ${archive.configPath}`);
        await reportFileSet(archive, o.dryRun, deps);
        const upload = {
            archive,
            facts,
            described,
            store: (client, deploymentId, journal) => uploadSource(client, deploymentId, upload, journal, {
                ...deps,
                baseUrl: o.baseUrl,
                deadline
            })
        };
        return upload;
    });
}
/** What the archive left out unasked, a missing env file, untracked files; a dry run's all. */
async function reportFileSet(archive, dryRun, deps) {
    for (const line of leftOutLines(archive))
        deps.log.info(line);
    const hint = envFileHint(archive, deps.say('secrets'));
    if (hint)
        deps.log.warning(hint, 'Env file left out');
    const untracked = await (0,workspace_git/* untrackedMembers */.nc)(archive.root, archive.files);
    const line = untracked && untrackedLine(untracked);
    if (line)
        deps.log.info(line);
    if (dryRun)
        for (const l of dryRunLines(archive))
            deps.log.info(l);
}
/** Why a PUT did not store the object, for the log. */
function putFailure(r) {
    switch (r.outcome) {
        case 'refused':
            return `refused with HTTP ${r.status}${r.detail ? ` (${(0,inert/* sanitizeServerText */.c8)(r.detail, 200)})` : ''}`;
        case 'lost':
            return `sent, but its answer was lost (${r.reason}): whether it was stored is unknown`;
        case 'not-sent':
            return `not sent (${r.reason})`;
        case 'unusable':
            return `not sent: ${r.reason}`;
        case 'cancelled':
            return 'cancelled';
    }
}
/** PUTs the archive, each try to a new upload URL: the object path stored, or the run's failure. */
async function uploadSource(client, deploymentId, upload, journal, deps) {
    // An upload URL on this machine is taken only from a control plane on this machine.
    const loopbackAllowed = (0,base_url/* isLoopbackUrl */.tE)(deps.baseUrl);
    // `timeout` from the archive's start, or the client's deadline when sooner.
    const deadline = Math.min(client.deadline ?? Infinity, deps.deadline);
    return deps.log.group('Upload the source', async () => {
        const failures = [];
        for (let attempt = 1; attempt <= UPLOAD_TRIES; attempt++) {
            const left = deadline - deps.clock.now();
            if (left <= 0)
                break;
            // The PUT's time: the LangGraph CLIs' 300 s, or what is left before the deadline.
            const timeoutMs = Math.min(DEFAULT_PUT_TIMEOUT_MS, left);
            const slot = await uploadUrl(client, deploymentId, deadline, deps);
            if (slot === 'late')
                break;
            const r = await putArchive({
                url: slot.upload_url,
                file: upload.archive.file,
                size: upload.archive.size,
                timeoutMs,
                clock: deps.clock,
                signal: deps.signal,
                loopbackAllowed
            });
            if (r.outcome === 'stored') {
                deps.log.info(`Uploaded ${describeSource(upload.facts)} to ${describeUploadUrl(slot.upload_url)}.`);
                return slot.object_path;
            }
            const why = putFailure(r);
            failures.push(`try ${attempt}: ${why}`);
            if (r.outcome === 'unusable')
                return unusableUrl(journal, r.reason, deps);
            if (r.outcome === 'cancelled' || deps.signal?.aborted)
                break;
            deps.log.warning(`The upload of the source (try ${attempt} of ${UPLOAD_TRIES}) failed: ${why}; that object is never deployed.` +
                (attempt < UPLOAD_TRIES ? ' Asking for a new upload URL.' : ''), 'Upload failed');
            if (attempt < UPLOAD_TRIES && !(await client.pause(attempt)))
                break;
        }
        const late = deps.clock.now() >= deadline;
        return uploadFailed(journal, failures, late ? deps.say('timeout') : undefined);
    });
}
/** A new upload URL, asked within the upload's deadline; 'late' when that deadline ended it. */
async function uploadUrl(client, deploymentId, deadline, deps) {
    try {
        return await client.requestUploadUrl(deploymentId, { deadline });
    }
    catch (err) {
        if (err instanceof errors/* ControlPlaneError */.Cj && !deps.signal?.aborted && deps.clock.now() >= deadline)
            return 'late';
        throw err;
    }
}
/** Where this run's deployment stands after an upload that stored nothing. */
function createdNote(journal) {
    const name = journal.name ? `"${journal.name}"` : journal.deploymentId;
    return journal.created
        ? ` Deployment ${name} (${journal.deploymentId}) was created by this run and has no revision with this source yet: a re-run finds it by name and uploads again.`
        : '';
}
/** The control plane answered an upload URL we refuse to send to: asking again would repeat it. */
function unusableUrl(journal, reason, deps) {
    return (0,ending/* stop */.ds)(`The source archive was not sent: ${(0,inert/* sanitizeServerText */.c8)(reason, 300)}. Nothing was sent to it and nothing was patched: no revision names it.${createdNote(journal)}`, `The control plane answered an upload URL that this run will not send the source to: check that ${deps.say('base-url')} names the right control plane, and report the URL it answers to its operators.`, 'Upload URL refused');
}
/** `timeout`: the input as the user set it, when the upload's deadline ended the tries. */
function uploadFailed(journal, failures, timeout) {
    const tries = failures.length ? ` (${failures.join('; ')})` : '';
    const deadline = timeout ? ` The run reached its deadline (from ${timeout}).` : '';
    return (0,ending/* stop */.ds)(`The source archive could not be uploaded${tries}.${deadline} Nothing was patched: no revision names it.${createdNote(journal)}`, timeout
        ? `The upload host did not store the source within ${timeout}: check that this runner can reach it (a proxy, a firewall), or give the run a longer ${timeout}.`
        : 'The upload host is not the control plane: check that this runner can reach it (a proxy, a firewall), then re-run the job.', 'Upload failed', timeout ? { outcome: 'timeout' } : {});
}


/***/ })

};
