import base from './jest.config.js'
export default { ...base, setupFiles: ['/tmp/rx/cpu-pre.mjs'], setupFilesAfterEnv: ['/tmp/rx/cpu-setup.mjs'] }
