// Kept in step with package.json by the release process (see CONTRIBUTING.md).
export const VERSION = '1.0.0'
