// Files that carry credentials by their well-known names: never archived, whatever the ignore
// files say, and named in the log. Matched by name at any depth, ignoring case (`.ENV` is as secret
// as `.env`). The list starts from the file-name rules that secret scanners maintain (Talisman's
// filename detector, shhgit's signatures, gitleaks' `pkcs12-file`), kept to the names that hold a
// secret whatever else is in the project, plus the files that the tools agent projects use write
// their tokens to, at the paths those tools document. docs/upload.md says where each comes from,
// and which scanner names stay in (they are also ordinary source files the build may need).
import { decide, parseRules } from './wildmatch.ts'

/** The names, as .gitignore lines (read as git reads them): the last line that matches decides. */
export const CREDENTIAL_NAMES = [
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
] as const

// `.aws/credentials` has a `/`, which anchors a git line: `**/` lets it match at any depth.
const RULES = parseRules(
  CREDENTIAL_NAMES.map(n => (n.includes('/') ? `**/${n}` : n)).join('\n'),
  'credentials',
  'git',
  true
)

/** The credential name that `member` (a file's path, `/`-separated) carries, or undefined. */
export function credentialName(member: string): string | undefined {
  const rule = decide(RULES, member, false)
  return rule ? rule.text.replace(/^\*\*\//u, '') : undefined
}
