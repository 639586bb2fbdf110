export const id = 300;
export const ids = [300];
export const modules = {

/***/ 300:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  loadSmokeTest: () => (/* binding */ loadSmokeTest)
});

// UNUSED EXPORTS: DEFAULT_CASE_TIMEOUT_MS, MAX_CASES, MAX_CASE_TIMEOUT_MS, parseSmokeCases, readSmokeCases

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
;// CONCATENATED MODULE: ./src/inputs/checkout-hint.ts
// Why a file that the run reads from the workspace (`smoke-test`) may be missing: a workflow that
// never checked the repository out has an empty workspace, and "no such file" alone does not say
// that. Said only when the workspace is no checkout (no `.git`) and the file is not there.


/** A sentence to add to "no such file" when the workspace is empty or not a checkout, else ''. */
function checkoutHint(workspace, file) {
    const dir = (0,external_node_path_.resolve)(workspace ?? '.');
    if ((0,external_node_fs_.existsSync)((0,external_node_path_.resolve)(dir, file)) || (0,external_node_fs_.existsSync)((0,external_node_path_.resolve)(dir, '.git')))
        return '';
    const empty = isEmpty(dir);
    return empty
        ? ` The workspace (${dir}) is empty: the file comes from a checkout of the repository, so ` +
            'check it out before this step (`actions/checkout` in a GitHub workflow).'
        : ` The workspace (${dir}) is no git checkout: if the file is in the repository, check it ` +
            'out before this step (`actions/checkout` in a GitHub workflow).';
}
/** A folder with nothing in it, or none at all. */
function isEmpty(dir) {
    try {
        return (0,external_node_fs_.readdirSync)(dir).length === 0;
    }
    catch {
        return true;
    }
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: ./src/duration.ts
var duration = __webpack_require__(7607);
// EXTERNAL MODULE: ./src/inputs/documents.ts
var documents = __webpack_require__(5847);
// EXTERNAL MODULE: ./src/inputs/problems.ts
var problems = __webpack_require__(8925);
;// CONCATENATED MODULE: ./src/inputs/smoke-cases.ts
// The smoke-test file: a YAML or JSON list of cases that the health gate runs against the new
// revision (health/verify/smoke.ts), checked whole before any request: one error naming the input,
// the file and the place, never the text there. A regular file inside the workspace, of at most
// MAX_DOCUMENT_BYTES (not /proc/self/environ, /dev/zero or a fifo), read by the documents' parser.






const DEFAULT_CASE_TIMEOUT_MS = 60_000;
const MAX_CASE_TIMEOUT_MS = 30 * 60_000;
const MAX_CASES = 50;
/** `a`, `a.b`, `a[0]`, `a.b[2].c`, `[0]`: keys are any text but `.` and `[`. */
const PATH = /^(?:[^.[\]]+|\[\d+\])(?:\.[^.[\]]+|\[\d+\])*$/;
const CASE_KEYS = ['name', 'graph', 'input', 'expect', 'timeout'];
const EXPECT_KEYS = ['status', 'contains', 'path', 'equals'];
const EXPECTED_SHAPE = 'a list of {name, graph, input, expect?: {status: success|error, contains, path, equals}, timeout?}';
/** The cases of a smoke-test file's text; undefined after one `fail` naming `label` and `file`. */
async function parseSmokeCases(text, label, file, fail) {
    // The YAML/JSON parser is the document inputs' (one chunk of the bundle, loaded once).
    await (0,documents/* loadDocumentParser */.fq)();
    const where = `\`${label}\` (${file})`;
    const doc = (0,documents/* parseDocumentInput */.Zr)(label, text, fail, {
        notParsed: (at, reason) => `${where} is not valid YAML or JSON${at}${plainReason(reason)}`,
        duplicateKey: (_key, at) => `${where} has a key twice (${at})`
    });
    if (doc === undefined)
        return undefined;
    if (!Array.isArray(doc) || doc.length === 0)
        return fail(`${where} must be ${EXPECTED_SHAPE}, with at least one case`);
    if (doc.length > MAX_CASES)
        return fail(`${where} has ${doc.length} cases: at most ${MAX_CASES}`);
    const cases = [];
    const names = new Map();
    const at = (i) => {
        const place = (0,documents/* itemPlaces */.c0)(text)[i];
        return `${where}, case ${i + 1}${place ? ` (${place})` : ''}`;
    };
    for (const [i, item] of doc.entries()) {
        const problem = caseProblem(item);
        if (problem !== undefined)
            return fail(`${at(i)}: ${problem}`);
        const c = toCase(item);
        const first = names.get(c.name);
        if (first !== undefined)
            return fail(`${at(i)}: its \`name\` is that of case ${first + 1}; each case needs its own`);
        names.set(c.name, i);
        cases.push(c);
    }
    return cases;
}
/** The parser's reason, unless it may quote the file (a tag, a key): then the place alone. */
function plainReason(reason) {
    return /^[A-Za-z][A-Za-z ,;()-]*$/.test(reason) && reason.length <= 120 ? `: ${reason}` : '';
}
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v) => typeof v === 'string' && v.trim() !== '';
/** What is wrong with one case, or undefined. */
function caseProblem(item) {
    if (!isObject(item))
        return `expected {name, graph, input, expect?, timeout?}`;
    const extra = Object.keys(item).some(k => !CASE_KEYS.includes(k));
    if (extra)
        return `a key that is none of ${CASE_KEYS.join(', ')}`;
    if (!nonEmpty(item.name))
        return '`name` must be a non-empty text';
    if (!nonEmpty(item.graph))
        return '`graph` must be a graph id of the config (a non-empty text)';
    if (!('input' in item) || item.input === undefined)
        return '`input` is required (the run’s input)';
    if (item.timeout !== undefined && timeoutOf(item.timeout) === undefined)
        return '`timeout` must be a duration such as 60s or 2m (at most 30m)';
    if (item.expect === undefined)
        return undefined;
    return expectProblem(item.expect);
}
function expectProblem(e) {
    if (!isObject(e))
        return '`expect` must be {status?, contains?, path?, equals?}';
    const extra = Object.keys(e).some(k => !EXPECT_KEYS.includes(k));
    if (extra)
        return `\`expect\` has a key that is none of ${EXPECT_KEYS.join(', ')}`;
    if (e.status !== undefined && e.status !== 'success' && e.status !== 'error')
        return '`expect.status` must be success or error';
    if (e.contains !== undefined && !nonEmpty(e.contains))
        return '`expect.contains` must be a non-empty text';
    if (e.path !== undefined && !(typeof e.path === 'string' && PATH.test(e.path)))
        return '`expect.path` must be a path into the output such as a.b[0].c';
    return undefined;
}
/** Milliseconds of a case's timeout: a duration text (`90s`, `2m`) or a number of seconds. */
function timeoutOf(v) {
    const ms = typeof v === 'number' && Number.isInteger(v)
        ? v * 1000
        : typeof v === 'string'
            ? (0,duration/* parseDuration */.E9)(v)
            : undefined;
    return ms !== undefined && ms > 0 && ms <= MAX_CASE_TIMEOUT_MS ? ms : undefined;
}
function toCase(item) {
    const e = (item.expect ?? {});
    // `equals` may be given as null; the others count when they have a value.
    const given = (k) => (k === 'equals' ? k in e : e[k] !== undefined);
    const expect = Object.fromEntries(EXPECT_KEYS.filter(given).map(k => [k, e[k]]));
    return {
        name: item.name.trim(),
        graph: item.graph.trim(),
        input: item.input,
        expect,
        timeoutMs: item.timeout === undefined ? DEFAULT_CASE_TIMEOUT_MS : timeoutOf(item.timeout)
    };
}
/** The text of `path` (inside `workspace`), or why it may not be read; never more than the cap. */
async function readInside(workspace, path) {
    let root;
    let file;
    try {
        root = await (0,promises_.realpath)((0,external_node_path_.resolve)(workspace));
        file = await (0,promises_.realpath)((0,external_node_path_.resolve)(root, path));
    }
    catch (error) {
        const code = error.code;
        return {
            why: code === 'ENOENT' ? 'there is no such file' : `it cannot be opened (${code ?? 'error'})`
        };
    }
    const rel = (0,external_node_path_.relative)(root, file);
    if (rel === '' || rel === '..' || rel.startsWith(`..${external_node_path_.sep}`) || (0,external_node_path_.resolve)(root, rel) !== file)
        return { why: 'it leads outside the workspace (through a symlink)' };
    const fh = await (0,promises_.open)(file, 'r').catch(() => undefined);
    if (!fh)
        return { why: 'it cannot be opened' };
    try {
        const info = await fh.stat();
        if (info.isDirectory())
            return { why: 'it is a directory' };
        if (!info.isFile())
            return { why: 'it is not a regular file' };
        if (info.size > problems/* MAX_DOCUMENT_BYTES */.bi)
            return { why: tooLarge };
        // Read to one byte past the cap: a file that grows meanwhile is still bounded.
        const buffer = Buffer.alloc(problems/* MAX_DOCUMENT_BYTES */.bi + 1);
        const { bytesRead } = await fh.read(buffer, 0, buffer.length, 0);
        if (bytesRead > problems/* MAX_DOCUMENT_BYTES */.bi)
            return { why: tooLarge };
        return { text: buffer.subarray(0, bytesRead).toString('utf8') };
    }
    finally {
        await fh.close();
    }
}
const tooLarge = `it is larger than ${problems/* MAX_DOCUMENT_BYTES */.bi / 1024 / 1024} MiB`;
/** Reads and parses the smoke-test file at `path` (in `workspace`); undefined after `fail`. */
async function readSmokeCases(workspace, path, label, fail) {
    const read = await readInside(workspace, path);
    if ('why' in read)
        return fail(`\`${label}\` (${path}) could not be read: ${read.why}; expected a YAML or JSON file of smoke cases inside the workspace`);
    return parseSmokeCases(read.text, label, path, fail);
}
/** The `smoke-test` input's cases, read before any request, or the one problem to report. */
async function loadSmokeTest(path, workspace, say) {
    if (path === undefined)
        return { cases: undefined };
    let problem;
    const fail = message => void (problem ??= message);
    const cases = await readSmokeCases(workspace ?? '.', path, say.bare('smoke-test'), fail);
    if (problem !== undefined || cases === undefined) {
        const message = problem ?? `\`${path}\` holds no case`;
        const hint = checkoutHint(workspace, path);
        return { problem: { input: 'smoke-test', message: hint ? `${message}.${hint}` : message } };
    }
    return { cases };
}


/***/ })

};
