#!/usr/bin/env node
// Loads the bundle in ./emulator/ (`npm run build` writes both).
import './emulator/index.js'
