export const id = 836;
export const ids = [836];
export const modules = {

/***/ 7836:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   EU_API: () => (/* binding */ EU_API),
/* harmony export */   US_API: () => (/* binding */ US_API),
/* harmony export */   experimentUrl: () => (/* binding */ experimentUrl),
/* harmony export */   langsmithApiOf: () => (/* binding */ langsmithApiOf),
/* harmony export */   webAppOfApi: () => (/* binding */ webAppOfApi)
/* harmony export */ });
// Where the LangSmith API is: `langsmith-api-url`, or the hosted one of the control plane's region
// (`eu.api.host...` -> `eu.api.smith...`); a self-hosted control plane needs it set. And the web
// app that belongs to it, which `evaluation-url` links.
const US_API = 'https://api.smith.langchain.com';
const EU_API = 'https://eu.api.smith.langchain.com';
const HOSTED_CONTROL_PLANE = /^(?:(eu)\.)?api\.host\.langchain\.com$/;
const HOSTED_API = /^(?:(eu)\.)?api\.smith\.langchain\.com$/;
/** The LangSmith API of a run: the input, else the region's; undefined when it cannot be known. */
function langsmithApiOf(given, baseUrl) {
    if (given !== undefined)
        return given.replace(/\/+$/, '');
    const host = URL.parse(baseUrl)?.hostname.toLowerCase().replace(/\.$/, '') ?? '';
    const m = HOSTED_CONTROL_PLANE.exec(host) ?? HOSTED_API.exec(host);
    if (!m)
        return undefined;
    return m[1] === 'eu' ? EU_API : US_API;
}
/** The web app of a LangSmith API: the hosted one's, else the API's own origin (self-hosted). */
function webAppOfApi(apiUrl) {
    const url = URL.parse(apiUrl);
    if (!url)
        return apiUrl;
    const m = HOSTED_API.exec(url.hostname.toLowerCase().replace(/\.$/, ''));
    if (m)
        return m[1] === 'eu' ? 'https://eu.smith.langchain.com' : 'https://smith.langchain.com';
    return url.origin;
}
/** The web app's page of an experiment: the dataset's comparison view with it selected. */
function experimentUrl(apiUrl, e) {
    const org = e.tenantId ? `/o/${encodeURIComponent(e.tenantId)}` : '';
    return `${webAppOfApi(apiUrl)}${org}/datasets/${encodeURIComponent(e.datasetId)}/compare?selectedSessions=${encodeURIComponent(e.experimentId)}`;
}


/***/ })

};
