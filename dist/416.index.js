export const id = 416;
export const ids = [416];
export const modules = {

/***/ 8416:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   loadSmokeTest: () => (/* binding */ loadSmokeTest)
/* harmony export */ });
/* unused harmony exports DEFAULT_CASE_TIMEOUT_MS, MAX_CASE_TIMEOUT_MS, MAX_CASES, parseSmokeCases, readSmokeCases */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _duration_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7607);
/* harmony import */ var _documents_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(5847);
/* harmony import */ var _problems_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(8925);
// The smoke-test file: a YAML or JSON list of cases `{name, graph, input, expect?, timeout?}` that
// the health gate runs against the new revision (src/health/verify/smoke.ts). Read and checked
// whole before any request: a bad file is one error naming the input, the file and what is
// expected. Parsed with the document inputs' parser (limits on size, nesting, aliases, duplicates).





const DEFAULT_CASE_TIMEOUT_MS = 60_000;
const MAX_CASE_TIMEOUT_MS = 30 * 60_000;
const MAX_CASES = 50;
/** `a`, `a.b`, `a[0]`, `a.b[2].c`, `[0]`: keys are any text but `.` and `[`. */
const PATH = /^(?:[^.[\]]+|\[\d+\])(?:\.[^.[\]]+|\[\d+\])*$/;
const CASE_KEYS = ['name', 'graph', 'input', 'expect', 'timeout'];
const EXPECT_KEYS = ['status', 'contains', 'path', 'equals'];
const EXPECTED_SHAPE = 'a list of {name, graph, input, expect?: {status: success|error, contains, path, equals}, timeout?}';
/**
 * The cases of a smoke-test file's text; undefined after one `fail` naming `label` (the input as the
 * user set it: `smoke-test`, `--smoke-test`, `CONTROL_PLANE_SMOKE_TEST`) and `file`.
 */
async function parseSmokeCases(text, label, file, fail) {
    // The YAML/JSON parser is the document inputs' (one chunk of the bundle, loaded once).
    await (0,_documents_js__WEBPACK_IMPORTED_MODULE_3__/* .loadDocumentParser */ .fq)();
    const where = `\`${label}\` (${file})`;
    const doc = (0,_documents_js__WEBPACK_IMPORTED_MODULE_3__/* .parseDocumentInput */ .Zr)(label, text, fail, {
        notParsed: (at, reason) => `${where} is not valid YAML or JSON${at}: ${reason}`,
        duplicateKey: (key, at) => `${where} has the key ${key} twice (${at})`
    });
    if (doc === undefined)
        return undefined;
    if (!Array.isArray(doc) || doc.length === 0)
        return fail(`${where} must be ${EXPECTED_SHAPE}, with at least one case`);
    if (doc.length > MAX_CASES)
        return fail(`${where} has ${doc.length} cases: at most ${MAX_CASES}`);
    const cases = [];
    const names = new Set();
    for (const [i, item] of doc.entries()) {
        const problem = caseProblem(item);
        if (problem !== undefined)
            return fail(`${where}, case ${i + 1}: ${problem}`);
        const c = toCase(item);
        if (names.has(c.name))
            return fail(`${where}, case ${i + 1}: the name "${c.name}" is used twice`);
        names.add(c.name);
        cases.push(c);
    }
    return cases;
}
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v) => typeof v === 'string' && v.trim() !== '';
/** What is wrong with one case, or undefined. */
function caseProblem(item) {
    if (!isObject(item))
        return `expected {name, graph, input, expect?, timeout?}`;
    const extra = Object.keys(item).find(k => !CASE_KEYS.includes(k));
    if (extra !== undefined)
        return `unknown key "${extra}" (expected ${CASE_KEYS.join(', ')})`;
    if (!nonEmpty(item.name))
        return '`name` must be a non-empty text';
    if (!nonEmpty(item.graph))
        return '`graph` must be a graph id of the config (a non-empty text)';
    if (!('input' in item) || item.input === undefined)
        return '`input` is required (the run’s input)';
    if (item.timeout !== undefined && timeoutOf(item.timeout) === undefined)
        return `\`timeout\` must be a duration such as 60s or 2m (at most 30m), not ${JSON.stringify(item.timeout)}`;
    if (item.expect === undefined)
        return undefined;
    return expectProblem(item.expect);
}
function expectProblem(e) {
    if (!isObject(e))
        return '`expect` must be {status?, contains?, path?, equals?}';
    const extra = Object.keys(e).find(k => !EXPECT_KEYS.includes(k));
    if (extra !== undefined)
        return `unknown key "expect.${extra}" (expected ${EXPECT_KEYS.join(', ')})`;
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
            ? (0,_duration_js__WEBPACK_IMPORTED_MODULE_2__/* .parseDuration */ .E)(v)
            : undefined;
    return ms !== undefined && ms > 0 && ms <= MAX_CASE_TIMEOUT_MS ? ms : undefined;
}
function toCase(item) {
    const e = (item.expect ?? {});
    const expect = {};
    if (e.status !== undefined)
        expect.status = e.status;
    if (e.contains !== undefined)
        expect.contains = e.contains;
    if (e.path !== undefined)
        expect.path = e.path;
    if ('equals' in e)
        expect.equals = e.equals;
    return {
        name: item.name.trim(),
        graph: item.graph.trim(),
        input: item.input,
        expect,
        timeoutMs: item.timeout === undefined ? DEFAULT_CASE_TIMEOUT_MS : timeoutOf(item.timeout)
    };
}
/** Reads and parses the smoke-test file at `path` (shown as `file`); undefined after `fail`. */
async function readSmokeCases(path, label, file, fail) {
    let text;
    try {
        text = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)(path, 'utf8');
    }
    catch (error) {
        const code = error.code;
        const why = code === 'ENOENT'
            ? 'there is no such file'
            : code === 'EISDIR'
                ? 'it is a directory'
                : String(code ?? error);
        return fail(`\`${label}\` (${file}) could not be read: ${why}; expected a YAML or JSON file of smoke cases`);
    }
    if (Buffer.byteLength(text) > _problems_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_DOCUMENT_BYTES */ .bi)
        return fail(`\`${label}\` (${file}) is larger than ${_problems_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_DOCUMENT_BYTES */ .bi / 1024 / 1024} MiB`);
    return parseSmokeCases(text, label, file, fail);
}
/**
 * The `smoke-test` input's cases, read relative to `workspace` before any request: the cases
 * (none when the input is not set), or the one problem to report, naming the input as set.
 */
async function loadSmokeTest(path, workspace, naming) {
    if (path === undefined)
        return { cases: undefined };
    let problem;
    const fail = message => void (problem ??= message);
    const full = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute)(path) ? path : (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(workspace ?? '.', path);
    const cases = await readSmokeCases(full, naming.name('smoke-test'), path, fail);
    if (problem !== undefined || cases === undefined)
        return { problem: { input: 'smoke-test', message: problem ?? `\`${path}\` holds no case` } };
    return { cases };
}


/***/ })

};
