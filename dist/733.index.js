export const id = 733;
export const ids = [733];
export const modules = {

/***/ 2415:
/***/ ((module) => {



var has = Object.prototype.hasOwnProperty
  , prefix = '~';

/**
 * Constructor to create a storage for our `EE` objects.
 * An `Events` instance is a plain object whose properties are event names.
 *
 * @constructor
 * @private
 */
function Events() {}

//
// We try to not inherit from `Object.prototype`. In some engines creating an
// instance in this way is faster than calling `Object.create(null)` directly.
// If `Object.create(null)` is not supported we prefix the event names with a
// character to make sure that the built-in object properties are not
// overridden or used as an attack vector.
//
if (Object.create) {
  Events.prototype = Object.create(null);

  //
  // This hack is needed because the `__proto__` property is still inherited in
  // some old browsers like Android 4, iPhone 5.1, Opera 11 and Safari 5.
  //
  if (!new Events().__proto__) prefix = false;
}

/**
 * Representation of a single event listener.
 *
 * @param {Function} fn The listener function.
 * @param {*} context The context to invoke the listener with.
 * @param {Boolean} [once=false] Specify if the listener is a one-time listener.
 * @constructor
 * @private
 */
function EE(fn, context, once) {
  this.fn = fn;
  this.context = context;
  this.once = once || false;
}

/**
 * Add a listener for a given event.
 *
 * @param {EventEmitter} emitter Reference to the `EventEmitter` instance.
 * @param {(String|Symbol)} event The event name.
 * @param {Function} fn The listener function.
 * @param {*} context The context to invoke the listener with.
 * @param {Boolean} once Specify if the listener is a one-time listener.
 * @returns {EventEmitter}
 * @private
 */
function addListener(emitter, event, fn, context, once) {
  if (typeof fn !== 'function') {
    throw new TypeError('The listener must be a function');
  }

  var listener = new EE(fn, context || emitter, once)
    , evt = prefix ? prefix + event : event;

  if (!emitter._events[evt]) emitter._events[evt] = listener, emitter._eventsCount++;
  else if (!emitter._events[evt].fn) emitter._events[evt].push(listener);
  else emitter._events[evt] = [emitter._events[evt], listener];

  return emitter;
}

/**
 * Clear event by name.
 *
 * @param {EventEmitter} emitter Reference to the `EventEmitter` instance.
 * @param {(String|Symbol)} evt The Event name.
 * @private
 */
function clearEvent(emitter, evt) {
  if (--emitter._eventsCount === 0) emitter._events = new Events();
  else delete emitter._events[evt];
}

/**
 * Minimal `EventEmitter` interface that is molded against the Node.js
 * `EventEmitter` interface.
 *
 * @constructor
 * @public
 */
function EventEmitter() {
  this._events = new Events();
  this._eventsCount = 0;
}

/**
 * Return an array listing the events for which the emitter has registered
 * listeners.
 *
 * @returns {Array}
 * @public
 */
EventEmitter.prototype.eventNames = function eventNames() {
  var names = []
    , events
    , name;

  if (this._eventsCount === 0) return names;

  for (name in (events = this._events)) {
    if (has.call(events, name)) names.push(prefix ? name.slice(1) : name);
  }

  if (Object.getOwnPropertySymbols) {
    return names.concat(Object.getOwnPropertySymbols(events));
  }

  return names;
};

/**
 * Return the listeners registered for a given event.
 *
 * @param {(String|Symbol)} event The event name.
 * @returns {Array} The registered listeners.
 * @public
 */
EventEmitter.prototype.listeners = function listeners(event) {
  var evt = prefix ? prefix + event : event
    , handlers = this._events[evt];

  if (!handlers) return [];
  if (handlers.fn) return [handlers.fn];

  for (var i = 0, l = handlers.length, ee = new Array(l); i < l; i++) {
    ee[i] = handlers[i].fn;
  }

  return ee;
};

/**
 * Return the number of listeners listening to a given event.
 *
 * @param {(String|Symbol)} event The event name.
 * @returns {Number} The number of listeners.
 * @public
 */
EventEmitter.prototype.listenerCount = function listenerCount(event) {
  var evt = prefix ? prefix + event : event
    , listeners = this._events[evt];

  if (!listeners) return 0;
  if (listeners.fn) return 1;
  return listeners.length;
};

/**
 * Calls each of the listeners registered for a given event.
 *
 * @param {(String|Symbol)} event The event name.
 * @returns {Boolean} `true` if the event had listeners, else `false`.
 * @public
 */
EventEmitter.prototype.emit = function emit(event, a1, a2, a3, a4, a5) {
  var evt = prefix ? prefix + event : event;

  if (!this._events[evt]) return false;

  var listeners = this._events[evt]
    , len = arguments.length
    , args
    , i;

  if (listeners.fn) {
    if (listeners.once) this.removeListener(event, listeners.fn, undefined, true);

    switch (len) {
      case 1: return listeners.fn.call(listeners.context), true;
      case 2: return listeners.fn.call(listeners.context, a1), true;
      case 3: return listeners.fn.call(listeners.context, a1, a2), true;
      case 4: return listeners.fn.call(listeners.context, a1, a2, a3), true;
      case 5: return listeners.fn.call(listeners.context, a1, a2, a3, a4), true;
      case 6: return listeners.fn.call(listeners.context, a1, a2, a3, a4, a5), true;
    }

    for (i = 1, args = new Array(len -1); i < len; i++) {
      args[i - 1] = arguments[i];
    }

    listeners.fn.apply(listeners.context, args);
  } else {
    var length = listeners.length
      , j;

    for (i = 0; i < length; i++) {
      if (listeners[i].once) this.removeListener(event, listeners[i].fn, undefined, true);

      switch (len) {
        case 1: listeners[i].fn.call(listeners[i].context); break;
        case 2: listeners[i].fn.call(listeners[i].context, a1); break;
        case 3: listeners[i].fn.call(listeners[i].context, a1, a2); break;
        case 4: listeners[i].fn.call(listeners[i].context, a1, a2, a3); break;
        default:
          if (!args) for (j = 1, args = new Array(len -1); j < len; j++) {
            args[j - 1] = arguments[j];
          }

          listeners[i].fn.apply(listeners[i].context, args);
      }
    }
  }

  return true;
};

/**
 * Add a listener for a given event.
 *
 * @param {(String|Symbol)} event The event name.
 * @param {Function} fn The listener function.
 * @param {*} [context=this] The context to invoke the listener with.
 * @returns {EventEmitter} `this`.
 * @public
 */
EventEmitter.prototype.on = function on(event, fn, context) {
  return addListener(this, event, fn, context, false);
};

/**
 * Add a one-time listener for a given event.
 *
 * @param {(String|Symbol)} event The event name.
 * @param {Function} fn The listener function.
 * @param {*} [context=this] The context to invoke the listener with.
 * @returns {EventEmitter} `this`.
 * @public
 */
EventEmitter.prototype.once = function once(event, fn, context) {
  return addListener(this, event, fn, context, true);
};

/**
 * Remove the listeners of a given event.
 *
 * @param {(String|Symbol)} event The event name.
 * @param {Function} fn Only remove the listeners that match this function.
 * @param {*} context Only remove the listeners that have this context.
 * @param {Boolean} once Only remove one-time listeners.
 * @returns {EventEmitter} `this`.
 * @public
 */
EventEmitter.prototype.removeListener = function removeListener(event, fn, context, once) {
  var evt = prefix ? prefix + event : event;

  if (!this._events[evt]) return this;
  if (!fn) {
    clearEvent(this, evt);
    return this;
  }

  var listeners = this._events[evt];

  if (listeners.fn) {
    if (
      listeners.fn === fn &&
      (!once || listeners.once) &&
      (!context || listeners.context === context)
    ) {
      clearEvent(this, evt);
    }
  } else {
    for (var i = 0, events = [], length = listeners.length; i < length; i++) {
      if (
        listeners[i].fn !== fn ||
        (once && !listeners[i].once) ||
        (context && listeners[i].context !== context)
      ) {
        events.push(listeners[i]);
      }
    }

    //
    // Reset the array, or remove it completely if we have no more listeners.
    //
    if (events.length) this._events[evt] = events.length === 1 ? events[0] : events;
    else clearEvent(this, evt);
  }

  return this;
};

/**
 * Remove all listeners, or those of the specified event.
 *
 * @param {(String|Symbol)} [event] The event name.
 * @returns {EventEmitter} `this`.
 * @public
 */
EventEmitter.prototype.removeAllListeners = function removeAllListeners(event) {
  var evt;

  if (event) {
    evt = prefix ? prefix + event : event;
    if (this._events[evt]) clearEvent(this, evt);
  } else {
    this._events = new Events();
    this._eventsCount = 0;
  }

  return this;
};

//
// Alias methods names because people roll like that.
//
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;
EventEmitter.prototype.addListener = EventEmitter.prototype.on;

//
// Expose the prefix.
//
EventEmitter.prefixed = prefix;

//
// Allow `EventEmitter` to be imported as module namespace.
//
EventEmitter.EventEmitter = EventEmitter;

//
// Expose the module.
//
if (true) {
  module.exports = EventEmitter;
}


/***/ }),

/***/ 2766:
/***/ ((module) => {


module.exports = (promise, onFinally) => {
	onFinally = onFinally || (() => {});

	return promise.then(
		val => new Promise(resolve => {
			resolve(onFinally());
		}).then(() => val),
		err => new Promise(resolve => {
			resolve(onFinally());
		}).then(() => {
			throw err;
		})
	);
};


/***/ }),

/***/ 6459:
/***/ ((__unused_webpack_module, exports, __webpack_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const EventEmitter = __webpack_require__(2415);
const p_timeout_1 = __webpack_require__(4802);
const priority_queue_1 = __webpack_require__(5905);
// eslint-disable-next-line @typescript-eslint/no-empty-function
const empty = () => { };
const timeoutError = new p_timeout_1.TimeoutError();
/**
Promise queue with concurrency control.
*/
class PQueue extends EventEmitter {
    constructor(options) {
        var _a, _b, _c, _d;
        super();
        this._intervalCount = 0;
        this._intervalEnd = 0;
        this._pendingCount = 0;
        this._resolveEmpty = empty;
        this._resolveIdle = empty;
        // eslint-disable-next-line @typescript-eslint/consistent-type-assertions
        options = Object.assign({ carryoverConcurrencyCount: false, intervalCap: Infinity, interval: 0, concurrency: Infinity, autoStart: true, queueClass: priority_queue_1.default }, options);
        if (!(typeof options.intervalCap === 'number' && options.intervalCap >= 1)) {
            throw new TypeError(`Expected \`intervalCap\` to be a number from 1 and up, got \`${(_b = (_a = options.intervalCap) === null || _a === void 0 ? void 0 : _a.toString()) !== null && _b !== void 0 ? _b : ''}\` (${typeof options.intervalCap})`);
        }
        if (options.interval === undefined || !(Number.isFinite(options.interval) && options.interval >= 0)) {
            throw new TypeError(`Expected \`interval\` to be a finite number >= 0, got \`${(_d = (_c = options.interval) === null || _c === void 0 ? void 0 : _c.toString()) !== null && _d !== void 0 ? _d : ''}\` (${typeof options.interval})`);
        }
        this._carryoverConcurrencyCount = options.carryoverConcurrencyCount;
        this._isIntervalIgnored = options.intervalCap === Infinity || options.interval === 0;
        this._intervalCap = options.intervalCap;
        this._interval = options.interval;
        this._queue = new options.queueClass();
        this._queueClass = options.queueClass;
        this.concurrency = options.concurrency;
        this._timeout = options.timeout;
        this._throwOnTimeout = options.throwOnTimeout === true;
        this._isPaused = options.autoStart === false;
    }
    get _doesIntervalAllowAnother() {
        return this._isIntervalIgnored || this._intervalCount < this._intervalCap;
    }
    get _doesConcurrentAllowAnother() {
        return this._pendingCount < this._concurrency;
    }
    _next() {
        this._pendingCount--;
        this._tryToStartAnother();
        this.emit('next');
    }
    _resolvePromises() {
        this._resolveEmpty();
        this._resolveEmpty = empty;
        if (this._pendingCount === 0) {
            this._resolveIdle();
            this._resolveIdle = empty;
            this.emit('idle');
        }
    }
    _onResumeInterval() {
        this._onInterval();
        this._initializeIntervalIfNeeded();
        this._timeoutId = undefined;
    }
    _isIntervalPaused() {
        const now = Date.now();
        if (this._intervalId === undefined) {
            const delay = this._intervalEnd - now;
            if (delay < 0) {
                // Act as the interval was done
                // We don't need to resume it here because it will be resumed on line 160
                this._intervalCount = (this._carryoverConcurrencyCount) ? this._pendingCount : 0;
            }
            else {
                // Act as the interval is pending
                if (this._timeoutId === undefined) {
                    this._timeoutId = setTimeout(() => {
                        this._onResumeInterval();
                    }, delay);
                }
                return true;
            }
        }
        return false;
    }
    _tryToStartAnother() {
        if (this._queue.size === 0) {
            // We can clear the interval ("pause")
            // Because we can redo it later ("resume")
            if (this._intervalId) {
                clearInterval(this._intervalId);
            }
            this._intervalId = undefined;
            this._resolvePromises();
            return false;
        }
        if (!this._isPaused) {
            const canInitializeInterval = !this._isIntervalPaused();
            if (this._doesIntervalAllowAnother && this._doesConcurrentAllowAnother) {
                const job = this._queue.dequeue();
                if (!job) {
                    return false;
                }
                this.emit('active');
                job();
                if (canInitializeInterval) {
                    this._initializeIntervalIfNeeded();
                }
                return true;
            }
        }
        return false;
    }
    _initializeIntervalIfNeeded() {
        if (this._isIntervalIgnored || this._intervalId !== undefined) {
            return;
        }
        this._intervalId = setInterval(() => {
            this._onInterval();
        }, this._interval);
        this._intervalEnd = Date.now() + this._interval;
    }
    _onInterval() {
        if (this._intervalCount === 0 && this._pendingCount === 0 && this._intervalId) {
            clearInterval(this._intervalId);
            this._intervalId = undefined;
        }
        this._intervalCount = this._carryoverConcurrencyCount ? this._pendingCount : 0;
        this._processQueue();
    }
    /**
    Executes all queued functions until it reaches the limit.
    */
    _processQueue() {
        // eslint-disable-next-line no-empty
        while (this._tryToStartAnother()) { }
    }
    get concurrency() {
        return this._concurrency;
    }
    set concurrency(newConcurrency) {
        if (!(typeof newConcurrency === 'number' && newConcurrency >= 1)) {
            throw new TypeError(`Expected \`concurrency\` to be a number from 1 and up, got \`${newConcurrency}\` (${typeof newConcurrency})`);
        }
        this._concurrency = newConcurrency;
        this._processQueue();
    }
    /**
    Adds a sync or async task to the queue. Always returns a promise.
    */
    async add(fn, options = {}) {
        return new Promise((resolve, reject) => {
            const run = async () => {
                this._pendingCount++;
                this._intervalCount++;
                try {
                    const operation = (this._timeout === undefined && options.timeout === undefined) ? fn() : p_timeout_1.default(Promise.resolve(fn()), (options.timeout === undefined ? this._timeout : options.timeout), () => {
                        if (options.throwOnTimeout === undefined ? this._throwOnTimeout : options.throwOnTimeout) {
                            reject(timeoutError);
                        }
                        return undefined;
                    });
                    resolve(await operation);
                }
                catch (error) {
                    reject(error);
                }
                this._next();
            };
            this._queue.enqueue(run, options);
            this._tryToStartAnother();
            this.emit('add');
        });
    }
    /**
    Same as `.add()`, but accepts an array of sync or async functions.

    @returns A promise that resolves when all functions are resolved.
    */
    async addAll(functions, options) {
        return Promise.all(functions.map(async (function_) => this.add(function_, options)));
    }
    /**
    Start (or resume) executing enqueued tasks within concurrency limit. No need to call this if queue is not paused (via `options.autoStart = false` or by `.pause()` method.)
    */
    start() {
        if (!this._isPaused) {
            return this;
        }
        this._isPaused = false;
        this._processQueue();
        return this;
    }
    /**
    Put queue execution on hold.
    */
    pause() {
        this._isPaused = true;
    }
    /**
    Clear the queue.
    */
    clear() {
        this._queue = new this._queueClass();
    }
    /**
    Can be called multiple times. Useful if you for example add additional items at a later time.

    @returns A promise that settles when the queue becomes empty.
    */
    async onEmpty() {
        // Instantly resolve if the queue is empty
        if (this._queue.size === 0) {
            return;
        }
        return new Promise(resolve => {
            const existingResolve = this._resolveEmpty;
            this._resolveEmpty = () => {
                existingResolve();
                resolve();
            };
        });
    }
    /**
    The difference with `.onEmpty` is that `.onIdle` guarantees that all work from the queue has finished. `.onEmpty` merely signals that the queue is empty, but it could mean that some promises haven't completed yet.

    @returns A promise that settles when the queue becomes empty, and all promises have completed; `queue.size === 0 && queue.pending === 0`.
    */
    async onIdle() {
        // Instantly resolve if none pending and if nothing else is queued
        if (this._pendingCount === 0 && this._queue.size === 0) {
            return;
        }
        return new Promise(resolve => {
            const existingResolve = this._resolveIdle;
            this._resolveIdle = () => {
                existingResolve();
                resolve();
            };
        });
    }
    /**
    Size of the queue.
    */
    get size() {
        return this._queue.size;
    }
    /**
    Size of the queue, filtered by the given options.

    For example, this can be used to find the number of items remaining in the queue with a specific priority level.
    */
    sizeBy(options) {
        // eslint-disable-next-line unicorn/no-fn-reference-in-iterator
        return this._queue.filter(options).length;
    }
    /**
    Number of pending promises.
    */
    get pending() {
        return this._pendingCount;
    }
    /**
    Whether the queue is currently paused.
    */
    get isPaused() {
        return this._isPaused;
    }
    get timeout() {
        return this._timeout;
    }
    /**
    Set the timeout for future operations.
    */
    set timeout(milliseconds) {
        this._timeout = milliseconds;
    }
}
exports["default"] = PQueue;


/***/ }),

/***/ 9015:
/***/ ((__unused_webpack_module, exports) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
// Port of lower_bound from https://en.cppreference.com/w/cpp/algorithm/lower_bound
// Used to compute insertion index to keep queue sorted after insertion
function lowerBound(array, value, comparator) {
    let first = 0;
    let count = array.length;
    while (count > 0) {
        const step = (count / 2) | 0;
        let it = first + step;
        if (comparator(array[it], value) <= 0) {
            first = ++it;
            count -= step + 1;
        }
        else {
            count = step;
        }
    }
    return first;
}
exports["default"] = lowerBound;


/***/ }),

/***/ 5905:
/***/ ((__unused_webpack_module, exports, __webpack_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const lower_bound_1 = __webpack_require__(9015);
class PriorityQueue {
    constructor() {
        this._queue = [];
    }
    enqueue(run, options) {
        options = Object.assign({ priority: 0 }, options);
        const element = {
            priority: options.priority,
            run
        };
        if (this.size && this._queue[this.size - 1].priority >= options.priority) {
            this._queue.push(element);
            return;
        }
        const index = lower_bound_1.default(this._queue, element, (a, b) => b.priority - a.priority);
        this._queue.splice(index, 0, element);
    }
    dequeue() {
        const item = this._queue.shift();
        return item === null || item === void 0 ? void 0 : item.run;
    }
    filter(options) {
        return this._queue.filter((element) => element.priority === options.priority).map((element) => element.run);
    }
    get size() {
        return this._queue.length;
    }
}
exports["default"] = PriorityQueue;


/***/ }),

/***/ 4802:
/***/ ((module, __unused_webpack_exports, __webpack_require__) => {



const pFinally = __webpack_require__(2766);

class TimeoutError extends Error {
	constructor(message) {
		super(message);
		this.name = 'TimeoutError';
	}
}

const pTimeout = (promise, milliseconds, fallback) => new Promise((resolve, reject) => {
	if (typeof milliseconds !== 'number' || milliseconds < 0) {
		throw new TypeError('Expected `milliseconds` to be a positive number');
	}

	if (milliseconds === Infinity) {
		resolve(promise);
		return;
	}

	const timer = setTimeout(() => {
		if (typeof fallback === 'function') {
			try {
				resolve(fallback());
			} catch (error) {
				reject(error);
			}

			return;
		}

		const message = typeof fallback === 'string' ? fallback : `Promise timed out after ${milliseconds} milliseconds`;
		const timeoutError = fallback instanceof Error ? fallback : new TimeoutError(message);

		if (typeof promise.cancel === 'function') {
			promise.cancel();
		}

		reject(timeoutError);
	}, milliseconds);

	// TODO: Use native `finally` keyword when targeting Node.js 10
	pFinally(
		// eslint-disable-next-line promise/prefer-await-to-then
		promise.then(resolve, reject),
		() => {
			clearTimeout(timer);
		}
	);
});

module.exports = pTimeout;
// TODO: Remove this for the next major release
module.exports["default"] = pTimeout;

module.exports.TimeoutError = TimeoutError;


/***/ }),

/***/ 9733:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Client: () => (/* binding */ Client)
});

// UNUSED EXPORTS: AutoBatchQueue, DEFAULT_MAX_SIZE_BYTES, DEFAULT_UNCOMPRESSED_BATCH_SIZE_LIMIT_BYTES, _checkBackendVersion, mergeRuntimeEnvIntoRun

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/env.mjs

const env_isEnvTracingEnabled = (tracingEnabled) => {
    if (tracingEnabled !== undefined) {
        return tracingEnabled;
    }
    const envVars = ["TRACING_V2", "TRACING"];
    return !!envVars.find((envVar) => env_getLangSmithEnvironmentVariable(envVar) === "true");
};
/**
 * Whether a failed redactor should fall back to tracing the raw payload.
 *
 * Set `LANGSMITH_ALLOW_UNPROCESSED_PAYLOADS` to restore the pre-fail-closed
 * behavior in an emergency. It uploads data no redactor processed, so it is off
 * by default and the caller logs a warning naming it whenever it takes effect.
 * Read only on failure, so it stays off the hot path.
 */
const allowUnprocessedPayloads = () => {
    const value = getLangSmithEnvironmentVariable("ALLOW_UNPROCESSED_PAYLOADS");
    return value?.toLowerCase() === "true" || value === "1";
};

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/error.mjs
/**
 * Get the error message for an invalid prompt identifier.
 * Used consistently across the codebase when parsing prompt identifiers fails.
 *
 * @param identifier - The invalid identifier that was provided
 * @returns A formatted error message explaining the valid formats
 */
function getInvalidPromptIdentifierMsg(identifier) {
    return (`Invalid prompt identifier format: "${identifier}". ` +
        `Expected one of:\n` +
        `  - "prompt-name" (for private prompts)\n` +
        `  - "owner/prompt-name" (for prompts with explicit owner)\n` +
        `  - "prompt-name:commit-hash" (with commit reference)\n` +
        `  - "owner/prompt-name:commit-hash" (with owner and commit)`);
}
function getErrorStackTrace(e) {
    if (typeof e !== "object" || e == null)
        return undefined;
    if (!("stack" in e) || typeof e.stack !== "string")
        return undefined;
    let stack = e.stack;
    const prevLine = `${e}`;
    if (stack.startsWith(prevLine)) {
        stack = stack.slice(prevLine.length);
    }
    if (stack.startsWith("\n")) {
        stack = stack.slice(1);
    }
    return stack;
}
function printErrorStackTrace(e) {
    const stack = getErrorStackTrace(e);
    if (stack == null)
        return;
    console.error(stack);
}
/**
 * LangSmithConflictError
 *
 * Represents an error that occurs when there's a conflict during an operation,
 * typically corresponding to HTTP 409 status code responses.
 *
 * This error is thrown when an attempt to create or modify a resource conflicts
 * with the current state of the resource on the server. Common scenarios include:
 * - Attempting to create a resource that already exists
 * - Trying to update a resource that has been modified by another process
 * - Violating a uniqueness constraint in the data
 *
 * @extends Error
 *
 * @example
 * try {
 *   await createProject("existingProject");
 * } catch (error) {
 *   if (error instanceof ConflictError) {
 *     console.log("A conflict occurred:", error.message);
 *     // Handle the conflict, e.g., by suggesting a different project name
 *   } else {
 *     // Handle other types of errors
 *   }
 * }
 *
 * @property {string} name - Always set to 'ConflictError' for easy identification
 * @property {string} message - Detailed error message including server response
 *
 * @see https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/409
 */
class LangSmithConflictError extends Error {
    constructor(message) {
        super(message);
        Object.defineProperty(this, "status", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.name = "LangSmithConflictError";
        this.status = 409;
    }
}
/**
 * LangSmithNotFoundError
 *
 * Represents an error that occurs when a requested resource is not found,
 * typically corresponding to HTTP 404 status code responses.
 *
 * @extends Error
 */
class LangSmithNotFoundError extends Error {
    constructor(message) {
        super(message);
        Object.defineProperty(this, "status", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.name = "LangSmithNotFoundError";
        this.status = 404;
    }
}
function isLangSmithNotFoundError(error) {
    return (error != null &&
        typeof error === "object" &&
        "name" in error &&
        error?.name === "LangSmithNotFoundError");
}
function isLangSmithConflictError(error) {
    return (error != null &&
        typeof error === "object" &&
        "name" in error &&
        error?.name === "LangSmithConflictError");
}
/**
 * Throws an appropriate error based on the response status and body.
 *
 * @param response - The fetch Response object
 * @param context - Additional context to include in the error message (e.g., operation being performed)
 * @throws {LangSmithConflictError} When the response status is 409
 * @throws {Error} For all other non-ok responses
 */
async function raiseForStatus(response, context, consumeOnSuccess) {
    let errorBody;
    if (response.ok) {
        // consume the response body to release the connection
        // https://undici.nodejs.org/#/?id=garbage-collection
        if (consumeOnSuccess) {
            errorBody = await response.text();
        }
        return;
    }
    try {
        errorBody = await response.text();
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
    }
    catch (_e) {
        errorBody = "";
    }
    if (response.status === 403) {
        let errorData;
        try {
            errorData = JSON.parse(errorBody);
        }
        catch {
            // Non-JSON body (e.g. a proxy in front of a self-hosted instance):
            // fall through and surface the raw body like every other status.
        }
        if (errorData?.error === "org_scoped_key_requires_workspace") {
            errorBody =
                "This API key is org-scoped and requires workspace specification. " +
                    "Please provide 'workspaceId' parameter, " +
                    "or set LANGSMITH_WORKSPACE_ID environment variable.";
        }
    }
    const fullMessage = `Failed to ${context}. Received status [${response.status}]: ${response.statusText}. Message: ${errorBody}`;
    if (response.status === 404) {
        throw new LangSmithNotFoundError(fullMessage);
    }
    if (response.status === 409) {
        throw new LangSmithConflictError(fullMessage);
    }
    const err = new Error(fullMessage);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    err.status = response.status;
    throw err;
}
const ERR_CONFLICTING_ENDPOINTS = "ERR_CONFLICTING_ENDPOINTS";
class ConflictingEndpointsError extends Error {
    constructor() {
        super("You cannot provide both LANGSMITH_ENDPOINT / LANGCHAIN_ENDPOINT " +
            "and LANGSMITH_RUNS_ENDPOINTS.");
        Object.defineProperty(this, "code", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: ERR_CONFLICTING_ENDPOINTS
        });
        this.name = "ConflictingEndpointsError"; // helpful in logs
    }
}
function isConflictingEndpointsError(err) {
    return (typeof err === "object" &&
        err !== null &&
        err.code === ERR_CONFLICTING_ENDPOINTS);
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/singletons/constants.mjs
const _LC_CONTEXT_VARIABLES_KEY = Symbol.for("lc:context_variables");
const _LC_CHILD_RUN_END_PROMISES_KEY = Symbol.for("lc:child_run_end_promises");
const _LC_RUN_OUTPUT_PROCESSING_STARTED_KEY = Symbol.for("lc:run_output_processing_started");
const _REPLICA_TRACE_ROOTS_KEY = Symbol.for("langsmith:replica_trace_roots");
// Marker for a payload whose redactor threw.
// Takes the hook name, never the error: reading e.constructor runs user code.
const _PROCESSING_FAILED_KEY = "ls_error";
const _PROCESSING_FAILED_PREFIX = "Processing failed; ";
const _processingFailed = (payload, hook) => `${_PROCESSING_FAILED_PREFIX}${payload} dropped (${hook})`;

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/context_vars.mjs

/**
 * Get a context variable from a run tree instance
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function getContextVar(runTree, key) {
    if (_LC_CONTEXT_VARIABLES_KEY in runTree) {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const contextVars = runTree[_LC_CONTEXT_VARIABLES_KEY];
        return contextVars[key];
    }
    return undefined;
}
/**
 * Set a context variable on a run tree instance
 */
function setContextVar(
// eslint-disable-next-line @typescript-eslint/no-explicit-any
runTree, key, value) {
    const contextVars = _LC_CONTEXT_VARIABLES_KEY in runTree
        ? // eslint-disable-next-line @typescript-eslint/no-explicit-any
            runTree[_LC_CONTEXT_VARIABLES_KEY]
        : {};
    contextVars[key] = value;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    runTree[_LC_CONTEXT_VARIABLES_KEY] = contextVars;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/warn.mjs
const warnedMessages = {};
/**
 * Clear the warn-once record so a later call warns again.
 *
 * Test-only. `warnedMessages` is module-global and never otherwise reset, so
 * without this a test asserting "warning X was (not) emitted" depends on whether
 * an earlier test in the same file already consumed X.
 *
 * @internal
 */
function _resetWarnedMessages() {
    for (const key of Object.keys(warnedMessages)) {
        delete warnedMessages[key];
    }
}
function warn_warnOnce(message, options) {
    const key = options?.code ?? message;
    if (!warnedMessages[key]) {
        warnedMessages[key] = true;
        if (options?.type &&
            typeof process !== "undefined" &&
            typeof process.emitWarning === "function") {
            process.emitWarning(message, { type: options.type, code: options.code });
        }
        else if (options?.type && options?.code) {
            console.warn(`${options.type} [${options.code}]: ${message}`);
        }
        else {
            console.warn(message);
        }
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/uuid/src/stringify.mjs

/**
 * Convert array of 16 byte values to UUID string format of the form:
 * XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX
 */
const byteToHex = [];
for (let i = 0; i < 256; ++i) {
    byteToHex.push((i + 0x100).toString(16).slice(1));
}
function unsafeStringify(arr, offset = 0) {
    // Note: Be careful editing this code!  It's been tuned for performance
    // and works in ways you may not expect. See https://github.com/uuidjs/uuid/pull/434
    //
    // Note to future-self: No, you can't remove the `toLowerCase()` call.
    // REF: https://github.com/uuidjs/uuid/pull/677#issuecomment-1757351351
    return (byteToHex[arr[offset + 0]] +
        byteToHex[arr[offset + 1]] +
        byteToHex[arr[offset + 2]] +
        byteToHex[arr[offset + 3]] +
        "-" +
        byteToHex[arr[offset + 4]] +
        byteToHex[arr[offset + 5]] +
        "-" +
        byteToHex[arr[offset + 6]] +
        byteToHex[arr[offset + 7]] +
        "-" +
        byteToHex[arr[offset + 8]] +
        byteToHex[arr[offset + 9]] +
        "-" +
        byteToHex[arr[offset + 10]] +
        byteToHex[arr[offset + 11]] +
        byteToHex[arr[offset + 12]] +
        byteToHex[arr[offset + 13]] +
        byteToHex[arr[offset + 14]] +
        byteToHex[arr[offset + 15]]).toLowerCase();
}
function stringify(arr, offset = 0) {
    const uuid = unsafeStringify(arr, offset);
    // Consistency check for valid UUID.  If this throws, it's likely due to one
    // of the following:
    // - One or more input array values don't map to a hex octet (leading to
    // "undefined" in the uuid)
    // - Invalid input values for the RFC `version` or `variant` fields
    if (!validate(uuid)) {
        throw TypeError("Stringified UUID is invalid");
    }
    return uuid;
}
/* harmony default export */ const src_stringify = ((/* unused pure expression or super */ null && (stringify)));

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/uuid/src/rng.mjs
// RNG values for use in UUID generation. This *must* use a high-quality source
// of entropy, such as `crypto.getRandomValues()`.  And we reuse an array for
// performance.
const rnds8 = new Uint8Array(16);
function rng() {
    return crypto.getRandomValues(rnds8);
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/uuid/src/v4.mjs


function v4(options, buf, offset) {
    if (!buf && !options && crypto.randomUUID) {
        return crypto.randomUUID();
    }
    // Putting tail-code that could just go inline here in a separate function to
    // enable compiler optimizations that dramatically improve performance.
    //
    // REF: https://github.com/uuidjs/uuid/issues/892
    return _v4(options, buf, offset);
}
function _v4(options, buf, offset) {
    options = options || {};
    const rnds = options.random ?? options.rng?.() ?? rng();
    if (rnds.length < 16) {
        throw new Error("Random bytes length must be >= 16");
    }
    // Per 4.4, set bits for version and `clock_seq_hi_and_reserved`
    rnds[6] = (rnds[6] & 0x0f) | 0x40;
    rnds[8] = (rnds[8] & 0x3f) | 0x80;
    // Copy bytes to buffer, if provided
    if (buf) {
        offset = offset || 0;
        if (offset < 0 || offset + 16 > buf.length) {
            throw new RangeError(`UUID byte range ${offset}:${offset + 15} is out of buffer bounds`);
        }
        for (let i = 0; i < 16; ++i) {
            buf[offset + i] = rnds[i];
        }
        return buf;
    }
    return unsafeStringify(rnds);
}
/* harmony default export */ const src_v4 = (v4);

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/uuid/src/sha1.mjs
// Adapted from Chris Veness' SHA1 code at
// http://www.movable-type.co.uk/scripts/sha1.html
function f(s, x, y, z) {
    switch (s) {
        case 0:
            return (x & y) ^ (~x & z);
        case 1:
            return x ^ y ^ z;
        case 2:
            return (x & y) ^ (x & z) ^ (y & z);
        case 3:
            return x ^ y ^ z;
    }
}
function ROTL(x, n) {
    return (x << n) | (x >>> (32 - n));
}
function sha1(bytes) {
    const K = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];
    const H = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
    const newBytes = new Uint8Array(bytes.length + 1);
    newBytes.set(bytes);
    newBytes[bytes.length] = 0x80;
    bytes = newBytes;
    const l = bytes.length / 4 + 2;
    const N = Math.ceil(l / 16);
    const M = new Array(N);
    for (let i = 0; i < N; ++i) {
        const arr = new Uint32Array(16);
        for (let j = 0; j < 16; ++j) {
            arr[j] =
                (bytes[i * 64 + j * 4] << 24) |
                    (bytes[i * 64 + j * 4 + 1] << 16) |
                    (bytes[i * 64 + j * 4 + 2] << 8) |
                    bytes[i * 64 + j * 4 + 3];
        }
        M[i] = arr;
    }
    M[N - 1][14] = ((bytes.length - 1) * 8) / 2 ** 32;
    M[N - 1][14] = Math.floor(M[N - 1][14]);
    M[N - 1][15] = ((bytes.length - 1) * 8) & 0xffffffff;
    for (let i = 0; i < N; ++i) {
        const W = new Uint32Array(80);
        for (let t = 0; t < 16; ++t) {
            W[t] = M[i][t];
        }
        for (let t = 16; t < 80; ++t) {
            W[t] = ROTL(W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16], 1);
        }
        let a = H[0];
        let b = H[1];
        let c = H[2];
        let d = H[3];
        let e = H[4];
        for (let t = 0; t < 80; ++t) {
            const s = Math.floor(t / 20);
            const T = (ROTL(a, 5) + f(s, b, c, d) + e + K[s] + W[t]) >>> 0;
            e = d;
            d = c;
            c = ROTL(b, 30) >>> 0;
            b = a;
            a = T;
        }
        H[0] = (H[0] + a) >>> 0;
        H[1] = (H[1] + b) >>> 0;
        H[2] = (H[2] + c) >>> 0;
        H[3] = (H[3] + d) >>> 0;
        H[4] = (H[4] + e) >>> 0;
    }
    // Note: Uint8Array.of() does `& 0xff` for each value
    return Uint8Array.of(H[0] >> 24, H[0] >> 16, H[0] >> 8, H[0], H[1] >> 24, H[1] >> 16, H[1] >> 8, H[1], H[2] >> 24, H[2] >> 16, H[2] >> 8, H[2], H[3] >> 24, H[3] >> 16, H[3] >> 8, H[3], H[4] >> 24, H[4] >> 16, H[4] >> 8, H[4]);
}
/* harmony default export */ const src_sha1 = (sha1);

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/uuid/src/regex.mjs
/* harmony default export */ const regex = (/^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i);

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/uuid/src/validate.mjs

function validate_validate(uuid) {
    return typeof uuid === "string" && regex.test(uuid);
}
/* harmony default export */ const src_validate = (validate_validate);

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/uuid/src/parse.mjs

function parse(uuid) {
    if (!src_validate(uuid)) {
        throw TypeError("Invalid UUID");
    }
    let v;
    return Uint8Array.of((v = parseInt(uuid.slice(0, 8), 16)) >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff, 
    // Parse ........-####-....-....-............
    (v = parseInt(uuid.slice(9, 13), 16)) >>> 8, v & 0xff, 
    // Parse ........-....-####-....-............
    (v = parseInt(uuid.slice(14, 18), 16)) >>> 8, v & 0xff, 
    // Parse ........-....-....-####-............
    (v = parseInt(uuid.slice(19, 23), 16)) >>> 8, v & 0xff, 
    // Parse ........-....-....-....-############
    // (Use "/" to avoid 32-bit truncation when bit-shifting high-order bytes)
    ((v = parseInt(uuid.slice(24, 36), 16)) / 0x10000000000) & 0xff, (v / 0x100000000) & 0xff, (v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
}
/* harmony default export */ const src_parse = (parse);

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/uuid/src/v35.mjs


function stringToBytes(str) {
    // TODO: Use TextEncoder (see https://stackoverflow.com/a/48762658/109538)
    str = unescape(encodeURIComponent(str));
    const bytes = new Uint8Array(str.length);
    for (let i = 0; i < str.length; ++i) {
        bytes[i] = str.charCodeAt(i);
    }
    return bytes;
}
const DNS = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
const v35_URL = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";
function v35(version, hash, value, namespace, buf, offset) {
    const valueBytes = typeof value === "string" ? stringToBytes(value) : value;
    const namespaceBytes = typeof namespace === "string" ? src_parse(namespace) : namespace;
    if (typeof namespace === "string") {
        namespace = src_parse(namespace);
    }
    if (namespace?.length !== 16) {
        throw TypeError("Namespace must be array-like (16 iterable integer values, 0-255)");
    }
    // Compute hash of namespace and value, Per 4.3
    // Future: Use spread syntax when supported on all platforms, e.g. `bytes =
    // hashfunc([...namespace, ... value])`
    let bytes = new Uint8Array(16 + valueBytes.length);
    bytes.set(namespaceBytes);
    bytes.set(valueBytes, namespaceBytes.length);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    bytes = hash(bytes);
    bytes[6] = (bytes[6] & 0x0f) | version;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    if (buf) {
        offset ?? (offset = 0);
        if (offset < 0 || offset + 16 > buf.length) {
            throw new RangeError(`UUID byte range ${offset}:${offset + 15} is out of buffer bounds`);
        }
        for (let i = 0; i < 16; ++i) {
            buf[offset + i] = bytes[i];
        }
        return buf;
    }
    return unsafeStringify(bytes);
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/uuid/src/v5.mjs



function v5(value, namespace, buf, offset) {
    return v35(0x50, src_sha1, value, namespace, buf, offset);
}
v5.DNS = DNS;
v5.URL = v35_URL;
/* harmony default export */ const src_v5 = (v5);

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/uuid/src/v7.mjs


const _state = {};
function v7(options, buf, offset) {
    let bytes;
    if (options) {
        // With options: Make UUID independent of internal state
        bytes = v7Bytes(options.random ?? options.rng?.() ?? rng(), options.msecs, options.seq, buf, offset);
    }
    else {
        // No options: Use internal state
        const now = Date.now();
        const rnds = rng();
        updateV7State(_state, now, rnds);
        bytes = v7Bytes(rnds, _state.msecs, _state.seq, buf, offset);
    }
    return buf ?? unsafeStringify(bytes);
}
// (Private!)  Do not use.  This method is only exported for testing purposes
// and may change without notice.
function updateV7State(state, now, rnds) {
    state.msecs ?? (state.msecs = -Infinity);
    state.seq ?? (state.seq = 0);
    if (now > state.msecs) {
        // Time has moved on! Pick a new random sequence number
        state.seq = (rnds[6] << 23) | (rnds[7] << 16) | (rnds[8] << 8) | rnds[9];
        state.msecs = now;
    }
    else {
        // Bump sequence counter w/ 32-bit rollover
        state.seq = (state.seq + 1) | 0;
        // In case of rollover, bump timestamp to preserve monotonicity. This is
        // allowed by the RFC and should self-correct as the system clock catches
        // up. See https://www.rfc-editor.org/rfc/rfc9562.html#section-6.2-9.4
        if (state.seq === 0) {
            state.msecs++;
        }
    }
    return state;
}
function v7Bytes(rnds, msecs, seq, buf, offset = 0) {
    if (rnds.length < 16) {
        throw new Error("Random bytes length must be >= 16");
    }
    if (!buf) {
        buf = new Uint8Array(16);
        offset = 0;
    }
    else {
        if (offset < 0 || offset + 16 > buf.length) {
            throw new RangeError(`UUID byte range ${offset}:${offset + 15} is out of buffer bounds`);
        }
    }
    // Defaults
    msecs ?? (msecs = Date.now());
    seq ?? (seq = ((rnds[6] * 0x7f) << 24) | (rnds[7] << 16) | (rnds[8] << 8) | rnds[9]);
    // byte 0-5: timestamp (48 bits)
    buf[offset++] = (msecs / 0x10000000000) & 0xff;
    buf[offset++] = (msecs / 0x100000000) & 0xff;
    buf[offset++] = (msecs / 0x1000000) & 0xff;
    buf[offset++] = (msecs / 0x10000) & 0xff;
    buf[offset++] = (msecs / 0x100) & 0xff;
    buf[offset++] = msecs & 0xff;
    // byte 6: `version` (4 bits) | sequence bits 28-31 (4 bits)
    buf[offset++] = 0x70 | ((seq >>> 28) & 0x0f);
    // byte 7: sequence bits 20-27 (8 bits)
    buf[offset++] = (seq >>> 20) & 0xff;
    // byte 8: `variant` (2 bits) | sequence bits 14-19 (6 bits)
    buf[offset++] = 0x80 | ((seq >>> 14) & 0x3f);
    // byte 9: sequence bits 6-13 (8 bits)
    buf[offset++] = (seq >>> 6) & 0xff;
    // byte 10: sequence bits 0-5 (6 bits) | random (2 bits)
    buf[offset++] = ((seq << 2) & 0xff) | (rnds[10] & 0x03);
    // bytes 11-15: random (40 bits)
    buf[offset++] = rnds[11];
    buf[offset++] = rnds[12];
    buf[offset++] = rnds[13];
    buf[offset++] = rnds[14];
    buf[offset++] = rnds[15];
    return buf;
}
/* harmony default export */ const src_v7 = (v7);

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/uuid/src/index.mjs










;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/xxhash/xxhash.mjs
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-nocheck
// Original from: https://github.com/i404788/xxh3-ts
// Vendored for compatibility (remove Buffer use in favor of Uint8Array)
const n = (n) => BigInt(n);
const PRIME32_1 = n("0x9E3779B1"); // 0b10011110001101110111100110110001
const PRIME32_2 = n("0x85EBCA77"); // 0b10000101111010111100101001110111
const PRIME32_3 = n("0xC2B2AE3D"); // 0b11000010101100101010111000111101
const PRIME64_1 = n("0x9E3779B185EBCA87"); // 0b1001111000110111011110011011000110000101111010111100101010000111
const PRIME64_2 = n("0xC2B2AE3D27D4EB4F"); // 0b1100001010110010101011100011110100100111110101001110101101001111
const PRIME64_3 = n("0x165667B19E3779F9"); // 0b0001011001010110011001111011000110011110001101110111100111111001
const PRIME64_4 = n("0x85EBCA77C2B2AE63"); // 0b1000010111101011110010100111011111000010101100101010111001100011
const PRIME64_5 = n("0x27D4EB2F165667C5"); // 0b0010011111010100111010110010111100010110010101100110011111000101
const PRIME_MX1 = n("0x165667919E3779F9"); // 0b0001011001010110011001111001000110011110001101110111100111111001
const PRIME_MX2 = n("0x9FB21C651E98DF25"); // 0b1001111110110010000111000110010100011110100110001101111100100101
// Convert hex string to Uint8Array
function hexToBytes(hex) {
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < hex.length; i += 2) {
        bytes[i / 2] = parseInt(hex.substring(i, i + 2), 16);
    }
    return bytes;
}
const kkey = hexToBytes("b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671fcb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e");
const mask128 = (n(1) << n(128)) - n(1);
const mask64 = (n(1) << n(64)) - n(1);
const mask32 = (n(1) << n(32)) - n(1);
const STRIPE_LEN = 64;
const ACC_NB = STRIPE_LEN / 8;
const _U64 = 8;
const _U32 = 4;
// Create a view into a Uint8Array at an offset
function getView(buf, offset = 0) {
    return new Uint8Array(buf.buffer, buf.byteOffset + offset, buf.length - offset);
}
// Read BigInt from Uint8Array in little-endian
function readBigUInt64LE(buf, offset = 0) {
    const view = new DataView(buf.buffer, buf.byteOffset + offset);
    return view.getBigUint64(0, true);
}
// Read UInt32 from Uint8Array in little-endian
function readUInt32LE(buf, offset = 0) {
    const view = new DataView(buf.buffer, buf.byteOffset + offset);
    return view.getUint32(0, true);
}
// Read UInt8 from Uint8Array
function readUInt8(buf, offset = 0) {
    return buf[offset];
}
const bswap64 = (a) => {
    return (((a & n(0xff)) << n(56)) |
        ((a & n(0xff00)) << n(40)) |
        ((a & n(0xff0000)) << n(24)) |
        ((a & n(0xff000000)) << n(8)) |
        ((a & n(0xff00000000)) >> n(8)) |
        ((a & n(0xff0000000000)) >> n(24)) |
        ((a & n(0xff000000000000)) >> n(40)) |
        ((a & n(0xff00000000000000)) >> n(56)));
};
const bswap32 = (a) => {
    a = ((a & n(0x0000ffff)) << n(16)) | ((a & n(0xffff0000)) >> n(16));
    a = ((a & n(0x00ff00ff)) << n(8)) | ((a & n(0xff00ff00)) >> n(8));
    return a;
};
const XXH_mult32to64 = (a, b) => ((a & mask32) * (b & mask32)) & mask64;
const assert = (a) => {
    if (!a)
        throw new Error("Assert failed");
};
function rotl32(a, b) {
    return ((a << b) | (a >> (n(32) - b))) & mask32;
}
function XXH3_accumulate_512(acc, data, key) {
    for (let i = 0; i < ACC_NB; i++) {
        const data_val = readBigUInt64LE(data, i * 8);
        const data_key = data_val ^ readBigUInt64LE(key, i * 8);
        acc[i ^ 1] += data_val;
        acc[i] += XXH_mult32to64(data_key, data_key >> n(32));
    }
    return acc;
}
function XXH3_accumulate(acc, data, key, nbStripes) {
    for (let n = 0; n < nbStripes; n++) {
        XXH3_accumulate_512(acc, getView(data, n * STRIPE_LEN), getView(key, n * 8));
    }
    return acc;
}
function XXH3_scrambleAcc(acc, key) {
    for (let i = 0; i < ACC_NB; i++) {
        const key64 = readBigUInt64LE(key, i * 8);
        let acc64 = acc[i];
        acc64 = xorshift64(acc64, n(47));
        acc64 ^= key64;
        acc64 *= PRIME32_1;
        acc[i] = acc64 & mask64;
    }
    return acc;
}
function XXH3_mix2Accs(acc, key) {
    return XXH3_mul128_fold64(acc[0] ^ readBigUInt64LE(key, 0), acc[1] ^ readBigUInt64LE(key, _U64));
}
function XXH3_mergeAccs(acc, key, start) {
    let result64 = start;
    result64 += XXH3_mix2Accs(acc.slice(0), getView(key, 0 * _U32));
    result64 += XXH3_mix2Accs(acc.slice(2), getView(key, 4 * _U32));
    result64 += XXH3_mix2Accs(acc.slice(4), getView(key, 8 * _U32));
    result64 += XXH3_mix2Accs(acc.slice(6), getView(key, 12 * _U32));
    return XXH3_avalanche(result64 & mask64);
}
function XXH3_hashLong(acc, data, secret, f_acc, f_scramble) {
    const nbStripesPerBlock = Math.floor((secret.byteLength - STRIPE_LEN) / 8);
    const block_len = STRIPE_LEN * nbStripesPerBlock;
    const nb_blocks = Math.floor((data.byteLength - 1) / block_len);
    for (let n = 0; n < nb_blocks; n++) {
        acc = XXH3_accumulate(acc, getView(data, n * block_len), secret, nbStripesPerBlock);
        acc = f_scramble(acc, getView(secret, secret.byteLength - STRIPE_LEN));
    }
    {
        // Partial block
        const nbStripes = Math.floor((data.byteLength - 1 - block_len * nb_blocks) / STRIPE_LEN);
        acc = XXH3_accumulate(acc, getView(data, nb_blocks * block_len), secret, nbStripes);
        // Last Stripe
        acc = f_acc(acc, getView(data, data.byteLength - STRIPE_LEN), getView(secret, secret.byteLength - STRIPE_LEN - 7));
    }
    return acc;
}
function XXH3_hashLong_128b(data, secret, seed) {
    let acc = new BigUint64Array([
        PRIME32_3,
        PRIME64_1,
        PRIME64_2,
        PRIME64_3,
        PRIME64_4,
        PRIME32_2,
        PRIME64_5,
        PRIME32_1,
    ]);
    assert(data.length > 128);
    acc = XXH3_hashLong(acc, data, secret, XXH3_accumulate_512, XXH3_scrambleAcc);
    /* converge into final hash */
    assert(acc.length * 8 == 64);
    {
        const low64 = XXH3_mergeAccs(acc, getView(secret, 11), (n(data.byteLength) * PRIME64_1) & mask64);
        const high64 = XXH3_mergeAccs(acc, getView(secret, secret.byteLength - STRIPE_LEN - 11), ~(n(data.byteLength) * PRIME64_2) & mask64);
        return (high64 << n(64)) | low64;
    }
}
function XXH3_mul128_fold64(a, b) {
    const lll = (a * b) & mask128;
    return (lll & mask64) ^ (lll >> n(64));
}
function XXH3_mix16B(data, key, seed) {
    return XXH3_mul128_fold64((readBigUInt64LE(data, 0) ^ (readBigUInt64LE(key, 0) + seed)) & mask64, (readBigUInt64LE(data, 8) ^ (readBigUInt64LE(key, 8) - seed)) & mask64);
}
function XXH3_mix32B(acc, data1, data2, key, seed) {
    let accl = acc & mask64;
    let acch = (acc >> n(64)) & mask64;
    accl += XXH3_mix16B(data1, key, seed);
    accl ^= readBigUInt64LE(data2, 0) + readBigUInt64LE(data2, 8);
    accl &= mask64;
    acch += XXH3_mix16B(data2, getView(key, 16), seed);
    acch ^= readBigUInt64LE(data1, 0) + readBigUInt64LE(data1, 8);
    acch &= mask64;
    return (acch << n(64)) | accl;
}
function XXH3_avalanche(h64) {
    h64 ^= h64 >> n(37);
    h64 *= PRIME_MX1;
    h64 &= mask64;
    h64 ^= h64 >> n(32);
    return h64;
}
function XXH3_avalanche64(h64) {
    h64 ^= h64 >> n(33);
    h64 *= PRIME64_2;
    h64 &= mask64;
    h64 ^= h64 >> n(29);
    h64 *= PRIME64_3;
    h64 &= mask64;
    h64 ^= h64 >> n(32);
    return h64;
}
function XXH3_len_1to3_128b(data, key32, seed) {
    const len = data.byteLength;
    assert(len > 0 && len <= 3);
    const combined = n(readUInt8(data, len - 1)) |
        n(len << 8) |
        n(readUInt8(data, 0) << 16) |
        n(readUInt8(data, len >> 1) << 24);
    const blow = (n(readUInt32LE(key32, 0)) ^ n(readUInt32LE(key32, 4))) + seed;
    const low = (combined ^ blow) & mask64;
    const bhigh = (n(readUInt32LE(key32, 8)) ^ n(readUInt32LE(key32, 12))) - seed;
    const high = (rotl32(bswap32(combined), n(13)) ^ bhigh) & mask64;
    return ((XXH3_avalanche64(high) & mask64) << n(64)) | XXH3_avalanche64(low);
}
function xorshift64(b, shift) {
    return b ^ (b >> shift);
}
function XXH3_len_4to8_128b(data, key32, seed) {
    const len = data.byteLength;
    assert(len >= 4 && len <= 8);
    {
        const l1 = readUInt32LE(data, 0);
        const l2 = readUInt32LE(data, len - 4);
        const l64 = n(l1) | (n(l2) << n(32));
        const bitflip = ((readBigUInt64LE(key32, 16) ^ readBigUInt64LE(key32, 24)) + seed) &
            mask64;
        const keyed = l64 ^ bitflip;
        let m128 = (keyed * (PRIME64_1 + (n(len) << n(2)))) & mask128;
        m128 += (m128 & mask64) << n(65);
        m128 &= mask128;
        m128 ^= m128 >> n(67);
        return (xorshift64((xorshift64(m128 & mask64, n(35)) * PRIME_MX2) & mask64, n(28)) |
            (XXH3_avalanche(m128 >> n(64)) << n(64)));
    }
}
function XXH3_len_9to16_128b(data, key64, seed) {
    const len = data.byteLength;
    assert(len >= 9 && len <= 16);
    {
        const bitflipl = ((readBigUInt64LE(key64, 32) ^ readBigUInt64LE(key64, 40)) + seed) &
            mask64;
        const bitfliph = ((readBigUInt64LE(key64, 48) ^ readBigUInt64LE(key64, 56)) - seed) &
            mask64;
        const ll1 = readBigUInt64LE(data);
        let ll2 = readBigUInt64LE(data, len - 8);
        let m128 = (ll1 ^ ll2 ^ bitflipl) * PRIME64_1;
        const m128_l = (m128 & mask64) + (n(len - 1) << n(54));
        m128 = (m128 & (mask128 ^ mask64)) | m128_l; // eqv. to adding only to lower 64b
        ll2 ^= bitfliph;
        m128 += (ll2 + (ll2 & mask32) * (PRIME32_2 - n(1))) << n(64);
        m128 &= mask128;
        m128 ^= bswap64(m128 >> n(64));
        let h128 = (m128 & mask64) * PRIME64_2;
        h128 += ((m128 >> n(64)) * PRIME64_2) << n(64);
        h128 &= mask128;
        return (XXH3_avalanche(h128 & mask64) | (XXH3_avalanche(h128 >> n(64)) << n(64)));
    }
}
function XXH3_len_0to16_128b(data, seed) {
    const len = data.byteLength;
    assert(len <= 16);
    if (len > 8)
        return XXH3_len_9to16_128b(data, kkey, seed);
    if (len >= 4)
        return XXH3_len_4to8_128b(data, kkey, seed);
    if (len > 0)
        return XXH3_len_1to3_128b(data, kkey, seed);
    return (XXH3_avalanche64(seed ^ readBigUInt64LE(kkey, 64) ^ readBigUInt64LE(kkey, 72)) |
        (XXH3_avalanche64(seed ^ readBigUInt64LE(kkey, 80) ^ readBigUInt64LE(kkey, 88)) <<
            n(64)));
}
function inv64(x) {
    // NOTE: `AND` fixes signedness (but because of 2's complement we need to re-add 1)
    return (~x + n(1)) & mask64;
}
function XXH3_len_17to128_128b(data, secret, seed) {
    let acc = (n(data.byteLength) * PRIME64_1) & mask64;
    let i = n(data.byteLength - 1) / n(32);
    while (i >= 0) {
        const ni = Number(i);
        acc = XXH3_mix32B(acc, getView(data, 16 * ni), getView(data, data.byteLength - 16 * (ni + 1)), getView(secret, 32 * ni), seed);
        i--;
    }
    let h128l = (acc + (acc >> n(64))) & mask64;
    h128l = XXH3_avalanche(h128l);
    let h128h = (acc & mask64) * PRIME64_1 +
        (acc >> n(64)) * PRIME64_4 +
        ((n(data.byteLength) - seed) & mask64) * PRIME64_2;
    h128h &= mask64;
    h128h = inv64(XXH3_avalanche(h128h));
    return h128l | (h128h << n(64));
}
function XXH3_len_129to240_128b(data, secret, seed) {
    let acc = (n(data.byteLength) * PRIME64_1) & mask64;
    for (let i = 32; i < 160; i += 32) {
        acc = XXH3_mix32B(acc, getView(data, i - 32), getView(data, i - 16), getView(secret, i - 32), seed);
    }
    acc = XXH3_avalanche(acc & mask64) | (XXH3_avalanche(acc >> n(64)) << n(64));
    for (let i = 160; i <= data.byteLength; i += 32) {
        acc = XXH3_mix32B(acc, getView(data, i - 32), getView(data, i - 16), getView(secret, 3 + i - 160), seed);
    }
    acc = XXH3_mix32B(acc, getView(data, data.byteLength - 16), getView(data, data.byteLength - 32), getView(secret, 136 - 17 - 16), inv64(seed));
    let h128l = (acc + (acc >> n(64))) & mask64;
    h128l = XXH3_avalanche(h128l);
    let h128h = (acc & mask64) * PRIME64_1 +
        (acc >> n(64)) * PRIME64_4 +
        ((n(data.byteLength) - seed) & mask64) * PRIME64_2;
    h128h &= mask64;
    h128h = inv64(XXH3_avalanche(h128h));
    return h128l | (h128h << n(64));
}
/**
 * Compute XXH3 128-bit hash of the input data.
 *
 * @param data - Input data as Uint8Array
 * @param seed - Optional seed value (default: 0)
 * @returns 128-bit hash as a single BigInt (high 64 bits << 64 | low 64 bits)
 */
function XXH3_128(data, seed = n(0)) {
    const len = data.byteLength;
    if (len <= 16)
        return XXH3_len_0to16_128b(data, seed);
    if (len <= 128)
        return XXH3_len_17to128_128b(data, kkey, seed);
    if (len <= 240)
        return XXH3_len_129to240_128b(data, kkey, seed);
    return XXH3_hashLong_128b(data, kkey, seed);
}
/**
 * Convert a 128-bit hash (BigInt) to a 16-byte Uint8Array.
 *
 * @param hash128 - 128-bit hash as BigInt
 * @returns 16-byte Uint8Array in little-endian byte order
 */
function xxh128ToBytes(hash128) {
    const result = new Uint8Array(16);
    const view = new DataView(result.buffer);
    // Extract low and high 64-bit values
    const low64 = hash128 & mask64;
    const high64 = hash128 >> n(64);
    // Write in big-endian order to match Python's xxhash.digest() output
    // Python outputs: [high64 bytes][low64 bytes], each in big-endian
    view.setBigUint64(0, high64, false); // high 64 bits, big-endian
    view.setBigUint64(8, low64, false); // low 64 bits, big-endian
    return result;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/_uuid.mjs
// Relaxed UUID validation regex (allows any valid UUID format including nil UUIDs)
const UUID_REGEX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;



let UUID7_WARNING_EMITTED = false;
function _uuid_assertUuid(str, which) {
    // Use relaxed regex validation instead of strict uuid.validate()
    // This allows edge cases like nil UUIDs or test UUIDs that might not pass strict validation
    if (!UUID_REGEX.test(str)) {
        const msg = which !== undefined
            ? `Invalid UUID for ${which}: ${str}`
            : `Invalid UUID: ${str}`;
        throw new Error(msg);
    }
    return str;
}
/**
 * Generate a UUID v7 from a timestamp.
 *
 * @param timestamp - The timestamp in milliseconds
 * @returns A UUID v7 string
 */
function uuid7FromTime(timestamp) {
    const msecs = typeof timestamp === "string" ? Date.parse(timestamp) : timestamp;
    // Work around uuid@10 behavior where providing only { msecs }
    // may not set the internal timestamp used for stringification.
    // Providing a seq ensures the implementation updates its internal state
    // and encodes the provided milliseconds into the UUID bytes.
    return src_v7({ msecs, seq: 0 });
}
/**
 * Get the version of a UUID string.
 * @param uuidStr - The UUID string to check
 * @returns The version number (1-7) or null if invalid
 */
function _uuid_getUuidVersion(uuidStr) {
    if (!UUID_REGEX.test(uuidStr)) {
        return null;
    }
    // Version is in bits 48-51
    // Format: xxxxxxxx-xxxx-Vxxx-xxxx-xxxxxxxxxxxx
    const versionChar = uuidStr[14];
    return parseInt(versionChar, 16);
}
/**
 * Warn if a UUID is not version 7.
 *
 * @param uuidStr - The UUID string to check
 * @param idType - The type of ID (e.g., "run_id", "trace_id") for the warning message
 */
function warnIfNotUuidV7(uuidStr, _idType) {
    const version = _uuid_getUuidVersion(uuidStr);
    if (version !== null && version !== 7 && !UUID7_WARNING_EMITTED) {
        UUID7_WARNING_EMITTED = true;
        warnOnce(`LangSmith now uses UUID v7 for run and trace identifiers. ` +
            `This warning appears when passing custom IDs. ` +
            `Please use: import { uuidv7 } from 'langsmith'; const id = uuidv7(); ` +
            `Future versions will require UUID v7.`);
    }
}
/**
 * Convert a UUID string to its 16-byte representation.
 * @param uuidStr - The UUID string (with or without dashes)
 * @returns A Uint8Array containing the 16 bytes of the UUID
 */
function uuidToBytes(uuidStr) {
    const hex = uuidStr.replace(/-/g, "");
    const bytes = new Uint8Array(16);
    for (let i = 0; i < 16; i++) {
        bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    }
    return bytes;
}
/**
 * Convert 16 bytes to a UUID string.
 * @param bytes - A Uint8Array containing 16 bytes
 * @returns A UUID string in standard format
 */
function bytesToUuid(bytes) {
    const hex = Array.from(bytes)
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
// Reuse TextEncoder instance for performance
const _textEncoder = new TextEncoder();
/**
 * Generates a 16-byte fingerprint for deterministic UUID generation using XXH3-128.
 *
 * XXH3 is an extremely fast, non-cryptographic hash function that provides excellent
 * collision resistance. It's widely used in production systems and compatible with
 * xxHash implementations in other languages.
 *
 * See: https://github.com/Cyan4973/xxHash
 *
 * @param str - The input string to hash
 * @returns A Uint8Array containing 16 bytes of hash output
 */
function _fastHash128(str) {
    const data = _textEncoder.encode(str);
    // Compute XXH3-128 hash and convert to bytes
    const hash128 = XXH3_128(data);
    return xxh128ToBytes(hash128);
}
/**
 * Generate a deterministic UUID v7 derived from an original UUID and a key.
 *
 * A pure function of `originalId` and `key`: it reads no ambient state, so the
 * same pair always yields the same UUID, in any process, at any time. This is
 * used for creating replica ids that are reproducible across distributed
 * systems, including across SDK implementations.
 *
 * A UUID v7 original keeps its timestamp, so derived ids stay ordered by run
 * start time. Any other original has none to keep, and the field is
 * hash-derived: stable, but not chronological.
 *
 * @param originalId - The source UUID string (ideally UUID v7 to preserve timestamp)
 * @param key - A string key used for deterministic derivation (e.g., project name)
 * @returns A new UUID v7 string with preserved timestamp (if original is v7) and
 *          deterministic random bits
 *
 * @example
 * ```typescript
 * const original = uuidv7();
 * const replicaId = nonCryptographicUuid7Deterministic(original, "replica-project");
 * // Same inputs always produce same output
 * assert(nonCryptographicUuid7Deterministic(original, "replica-project") === replicaId);
 * ```
 */
function _uuid_nonCryptographicUuid7Deterministic(originalId, key) {
    // Generate deterministic bytes from hash of original + key
    const hashInput = `${originalId}:${key}`;
    const h = _fastHash128(hashInput);
    // Build new UUID7:
    // UUID7 structure (RFC 9562):
    // [0-5]  48 bits: unix_ts_ms (timestamp in milliseconds)
    // [6]    4 bits: version (0111 = 7) + 4 bits rand_a
    // [7]    8 bits: rand_a (continued)
    // [8]    2 bits: variant (10) + 6 bits rand_b
    // [9-15] 56 bits: rand_b (continued)
    const b = new Uint8Array(16);
    const version = _uuid_getUuidVersion(originalId);
    if (version === 7) {
        // Preserve timestamp from original UUID7 (bytes 0-5)
        const originalBytes = uuidToBytes(originalId);
        b.set(originalBytes.slice(0, 6), 0);
    }
    else {
        // No timestamp to preserve. Use the six hash bytes left unused below: a
        // clock read here would make this impure, and the same id is derived
        // from several runs, all of which must agree.
        b.set(h.slice(10, 16), 0);
    }
    // Set version 7 (0111) in high nibble + 4 bits from hash
    b[6] = 0x70 | (h[0] & 0x0f);
    // rand_a continued (8 bits from hash)
    b[7] = h[1];
    // Set variant (10) in high 2 bits + 6 bits from hash
    b[8] = 0x80 | (h[2] & 0x3f);
    // rand_b (56 bits = 7 bytes from hash)
    b.set(h.slice(3, 10), 9);
    return bytesToUuid(b);
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/addressing.mjs



function rejectConflicting(project, address) {
    if (project && address) {
        throw new Error(`A run is sent to a project (${JSON.stringify(project)}) or to an ` +
            "address, not both.");
    }
}
/** The highest level naming a project or an address, whichever it names. */
function firstNamed(...tiers) {
    for (const [project, address] of tiers) {
        rejectConflicting(project, address);
        if (project || address) {
            return [project || undefined, address];
        }
    }
    return [undefined, undefined];
}
function getEnvProject() {
    return (env_getLangSmithEnvironmentVariable("PROJECT") ||
        env_getEnvironmentVariable("LANGCHAIN_SESSION") ||
        undefined);
}
/**
 * The env's destination: its address, else its project, else "default".
 * @throws {EnvAddressError} For half an address, or an address and a project.
 */
function resolveFromEnv() {
    const project = getEnvProject();
    const address = addressFromEnv();
    if (project && address) {
        throw new EnvAddressError("LANGSMITH_AGENT_* and a project are both set in the environment.");
    }
    return address ? [undefined, address] : [project ?? "default", undefined];
}
function logUntraced(error) {
    warn_warnOnce(`LangSmith is not tracing this call: ${error.message}`);
}
/** Warn once, at client construction, if the env can't address runs. */
function warnOnEnv() {
    if (!envNames().some((name) => env_getEnvironmentVariable(name))) {
        return;
    }
    try {
        resolveFromEnv();
    }
    catch (e) {
        warn_warnOnce(`${e.message} Runs that name no destination in code are ` +
            "not traced.");
    }
}
/**
 * Put the run's address in its payload field, in its wire form.
 * Without one, a create naming no project takes the env address.
 *
 * @throws {EnvAddressError} If the env names half an address.
 */
function applyToPayload(run, { update = false } = {}) {
    const payload = run;
    let address;
    if (typeof payload.address === "string") {
        // Wire data already applied: a queued run is applied again when its batch
        // is sent. It is parsed again, so a malformed one cannot fail the whole
        // batch in the backend.
        try {
            address = addressFromLrn(payload.address);
        }
        catch {
            throw new Error("The run's `address` is not a valid agent address.");
        }
    }
    else {
        address = ensureAgent(payload.address);
    }
    delete payload.address;
    const namedProject = payload.session_id != null || payload.session_name != null;
    if (!address && !update && !namedProject) {
        address = addressFromEnv();
    }
    if (!address) {
        return;
    }
    payload.address = addressToLrn(address);
    if (!namedProject) {
        delete payload.session_name;
        delete payload.session_id;
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/run_trees.mjs













const TIMESTAMP_LENGTH = 36;
// DNS namespace for UUID v5 (same as Python's uuid.NAMESPACE_DNS)
const UUID_NAMESPACE_DNS = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
function getReplicaKey(replica) {
    // Generate a unique key by hashing the replica's identifying properties
    // This ensures each unique replica (combination of projectName, apiUrl, workspaceId, apiKey) gets a unique key
    // Sort keys to ensure consistent hashing
    const sortedKeys = Object.keys(replica).sort();
    const keyData = sortedKeys
        .map((key) => `${key}:${replica[key] ?? ""}`)
        .join("|");
    return src_v5(keyData, UUID_NAMESPACE_DNS);
}
function stripNonAlphanumeric(input) {
    return input.replace(/[-:.]/g, "");
}
function getMicrosecondPrecisionDatestring(epoch, executionOrder = 1) {
    // Date only has millisecond precision, so we use the microseconds to break
    // possible ties, avoiding incorrect run order
    const paddedOrder = executionOrder.toFixed(0).slice(0, 3).padStart(3, "0");
    return `${new Date(epoch).toISOString().slice(0, -1)}${paddedOrder}Z`;
}
function convertToDottedOrderFormat(epoch, runId, executionOrder = 1) {
    const microsecondPrecisionDatestring = getMicrosecondPrecisionDatestring(epoch, executionOrder);
    return {
        dottedOrder: stripNonAlphanumeric(microsecondPrecisionDatestring) + runId,
        microsecondPrecisionDatestring,
    };
}
const HEADER_SAFE_REPLICA_FIELDS = new Set([
    "projectName",
    "primary",
    "updates",
    "reroot",
    "address",
]);
/** Rebuilds an untrusted header address; `undefined` if unusable. */
function addressFromHeader(value) {
    try {
        return addressFromLrn(value);
    }
    catch {
        // Values are untrusted, so not logged.
        console.warn("Ignoring an unusable address in a `baggage` header.");
        return undefined;
    }
}
function filterReplicaForHeaders(replica) {
    const filtered = {};
    for (const key of Object.keys(replica)) {
        if (key === "primary" && typeof replica[key] !== "boolean") {
            continue;
        }
        if (HEADER_SAFE_REPLICA_FIELDS.has(key)) {
            filtered[key] = replica[key];
        }
    }
    return filtered;
}
/**
 * Baggage header information
 */
class Baggage {
    constructor(metadata, tags, project_name, replicas, address) {
        Object.defineProperty(this, "metadata", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "tags", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "project_name", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "replicas", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "address", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.metadata = metadata;
        this.tags = tags;
        this.project_name = project_name;
        this.replicas = replicas;
        this.address = address;
    }
    static fromHeader(value) {
        const items = value.split(",");
        let metadata = {};
        let tags = [];
        let project_name;
        let replicas;
        let address;
        for (const item of items) {
            const [key, uriValue] = item.split("=");
            const value = decodeURIComponent(uriValue);
            if (key === "langsmith-metadata") {
                metadata = JSON.parse(value);
            }
            else if (key === "langsmith-tags") {
                tags = value.split(",");
            }
            else if (key === "langsmith-project") {
                project_name = value;
            }
            else if (key === "langsmith-address") {
                address = addressFromHeader(value);
            }
            else if (key === "langsmith-replicas") {
                const parsed = JSON.parse(value);
                replicas = parsed.flatMap((replica) => {
                    if (Array.isArray(replica)) {
                        return [replica];
                    }
                    const filtered = filterReplicaForHeaders(replica);
                    const raw = filtered.address;
                    delete filtered.address;
                    // A project wins over an address; a replica with an invalid
                    // address and no project is dropped.
                    if (filtered.projectName || raw == null) {
                        return [filtered];
                    }
                    const replicaAddress = addressFromHeader(raw);
                    return replicaAddress
                        ? [{ ...filtered, address: replicaAddress }]
                        : [];
                });
            }
        }
        return new Baggage(metadata, tags, project_name, replicas, address);
    }
    toHeader() {
        const items = [];
        if (this.metadata && Object.keys(this.metadata).length > 0) {
            items.push(`langsmith-metadata=${encodeURIComponent(JSON.stringify(this.metadata))}`);
        }
        if (this.tags && this.tags.length > 0) {
            items.push(`langsmith-tags=${encodeURIComponent(this.tags.join(","))}`);
        }
        if (this.project_name) {
            items.push(`langsmith-project=${encodeURIComponent(this.project_name)}`);
        }
        if (this.address) {
            items.push(`langsmith-address=${encodeURIComponent(addressToLrn(this.address))}`);
        }
        return items.join(",");
    }
}
function getExcludeInputsOnPatch() {
    const value = env_getLangSmithEnvironmentVariable("EXCLUDE_INPUTS_ON_PATCH");
    return value === undefined || value.toLowerCase() === "true" || value === "1";
}
class RunTree {
    constructor(originalConfig) {
        Object.defineProperty(this, "id", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "name", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "run_type", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        /** Unset for a run sent to an `address`. */
        Object.defineProperty(this, "project_name", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        /** Set instead of `project_name` for an addressed run. */
        Object.defineProperty(this, "address", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "parent_run", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "parent_run_id", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "child_runs", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "start_time", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "end_time", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "extra", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "tags", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "error", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "serialized", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "inputs", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "outputs", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "reference_example_id", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "client", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "events", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "trace_id", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "dotted_order", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "tracingEnabled", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "execution_order", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "child_execution_order", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        /**
         * Attachments associated with the run.
         * Each entry is a tuple of [mime_type, bytes]
         */
        Object.defineProperty(this, "attachments", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        /**
         * Projects to replicate this run to with optional updates.
         */
        Object.defineProperty(this, "replicas", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "distributedParentId", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        /**
         * @interface
         */
        Object.defineProperty(this, "_serialized_start_time", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        /** Attachment names already sent by postRun, so patchRun does not resend them. */
        Object.defineProperty(this, "_postedAttachmentNames", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        /**
         * @internal
         */
        Object.defineProperty(this, "_awaitInputsOnPost", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        // If you pass in a run tree directly, return a shallow clone
        if (isRunTree(originalConfig)) {
            Object.assign(this, { ...originalConfig });
            return;
        }
        const defaultConfig = RunTree.getDefaultConfig();
        const { metadata, ...config } = originalConfig;
        const client = config.client ?? RunTree.getSharedClient();
        const dedupedMetadata = {
            ...metadata,
            ...config?.extra?.metadata,
        };
        config.extra = { ...config.extra, metadata: dedupedMetadata };
        if ("id" in config && config.id == null) {
            delete config.id;
        }
        Object.assign(this, { ...defaultConfig, ...config, client });
        this._resolveAddressing(config);
        this.execution_order ?? (this.execution_order = 1);
        this.child_execution_order ?? (this.child_execution_order = 1);
        // Generate serialized start time for ID generation
        if (!this.dotted_order) {
            this._serialized_start_time = getMicrosecondPrecisionDatestring(this.start_time, this.execution_order);
        }
        // Generate id from serialized start_time if not provided
        if (!this.id) {
            this.id = uuid7FromTime(this._serialized_start_time ?? this.start_time);
        }
        if (!this.trace_id) {
            if (this.parent_run) {
                this.trace_id = this.parent_run.trace_id ?? this.id;
            }
            else {
                this.trace_id = this.id;
            }
        }
        this.replicas = _ensureWriteReplicas(this.replicas);
        // Now set the dotted order with the actual ID
        if (!this.dotted_order) {
            const { dottedOrder } = convertToDottedOrderFormat(this.start_time, this.id, this.execution_order);
            if (this.parent_run) {
                this.dotted_order = this.parent_run.dotted_order + "." + dottedOrder;
            }
            else {
                this.dotted_order = dottedOrder;
            }
        }
    }
    /** Falls back to the env; a bad env leaves the run untraced. */
    _resolveAddressing(config) {
        const address = ensureAgent(config.address);
        const project = config.project_name || undefined;
        rejectConflicting(project, address);
        if (project || address) {
            this.project_name = project;
            this.address = address;
            return;
        }
        try {
            [this.project_name, this.address] = resolveFromEnv();
        }
        catch (e) {
            if (!(e instanceof EnvAddressError)) {
                throw e;
            }
            if (env_isEnvTracingEnabled(this.tracingEnabled)) {
                logUntraced(e);
            }
            this.project_name = undefined;
            this.address = undefined;
            this.tracingEnabled = false;
        }
    }
    set metadata(metadata) {
        this.extra = {
            ...this.extra,
            metadata: {
                ...this.extra?.metadata,
                ...metadata,
            },
        };
    }
    get metadata() {
        return this.extra?.metadata;
    }
    static getDefaultConfig() {
        const start_time = Date.now();
        return {
            run_type: "chain",
            child_runs: [],
            api_url: env_getEnvironmentVariable("LANGCHAIN_ENDPOINT") ?? "http://localhost:1984",
            api_key: env_getEnvironmentVariable("LANGCHAIN_API_KEY"),
            caller_options: {},
            start_time,
            serialized: {},
            inputs: {},
            extra: {},
        };
    }
    static getSharedClient() {
        if (!RunTree.sharedClient) {
            RunTree.sharedClient = new Client();
        }
        return RunTree.sharedClient;
    }
    createChild(config) {
        const child_execution_order = this.child_execution_order + 1;
        // Handle replicas: if child has its own replicas, use those; otherwise inherit parent's (with reroot stripped)
        // Reroot should only apply to the run where it's explicitly configured, not propagate down
        const inheritedReplicas = this.replicas?.map((replica) => {
            const { reroot, ...rest } = replica;
            return rest;
        });
        const childReplicas = config.replicas ?? inheritedReplicas;
        const child = new RunTree({
            ...config,
            parent_run: this,
            project_name: this.project_name,
            address: this.address,
            replicas: childReplicas,
            client: this.client,
            tracingEnabled: this.tracingEnabled,
            execution_order: child_execution_order,
            child_execution_order: child_execution_order,
        });
        // Propagate all parent metadata; child metadata takes precedence.
        const parentMeta = this.extra?.metadata ?? {};
        const childMeta = child.extra?.metadata ?? {};
        if (Object.keys(parentMeta).length > 0) {
            child.extra = {
                ...child.extra,
                metadata: { ...parentMeta, ...childMeta },
            };
        }
        // Copy context vars over into the new run tree.
        if (_LC_CONTEXT_VARIABLES_KEY in this) {
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            child[_LC_CONTEXT_VARIABLES_KEY] =
                this[_LC_CONTEXT_VARIABLES_KEY];
        }
        const LC_CHILD = Symbol.for("lc:child_config");
        const presentConfig = config.extra?.[LC_CHILD] ??
            this.extra[LC_CHILD];
        // tracing for LangChain is defined by the _parentRunId and runMap of the tracer
        if (isRunnableConfigLike(presentConfig)) {
            const newConfig = { ...presentConfig };
            const callbacks = isCallbackManagerLike(newConfig.callbacks)
                ? newConfig.callbacks.copy?.()
                : undefined;
            if (callbacks) {
                // update the parent run id
                Object.assign(callbacks, { _parentRunId: child.id });
                // only populate if we're in a newer LC.JS version
                callbacks.handlers
                    ?.find(isLangChainTracerLike)
                    ?.updateFromRunTree?.(child);
                newConfig.callbacks = callbacks;
            }
            child.extra[LC_CHILD] = newConfig;
        }
        // propagate child_execution_order upwards
        const visited = new Set();
        let current = this;
        while (current != null && !visited.has(current.id)) {
            visited.add(current.id);
            current.child_execution_order = Math.max(current.child_execution_order, child_execution_order);
            current = current.parent_run;
        }
        this.child_runs.push(child);
        return child;
    }
    async end(outputs, error, endTime = Date.now(), metadata) {
        this.outputs = this.outputs ?? outputs;
        this.error = this.error ?? error;
        this.end_time = this.end_time ?? endTime;
        if (metadata && Object.keys(metadata).length > 0) {
            this.extra = this.extra
                ? { ...this.extra, metadata: { ...this.extra.metadata, ...metadata } }
                : { metadata };
        }
    }
    _convertToCreate(run, runtimeEnv, excludeChildRuns = true) {
        const runExtra = run.extra ?? {};
        // Avoid overwriting the runtime environment if it's already set
        if (runExtra?.runtime?.library === undefined) {
            if (!runExtra.runtime) {
                runExtra.runtime = {};
            }
            if (runtimeEnv) {
                for (const [k, v] of Object.entries(runtimeEnv)) {
                    if (!runExtra.runtime[k]) {
                        runExtra.runtime[k] = v;
                    }
                }
            }
        }
        const parent_run_id = run.parent_run?.id ?? run.parent_run_id;
        let child_runs;
        if (!excludeChildRuns) {
            child_runs = run.child_runs.map((child_run) => this._convertToCreate(child_run, runtimeEnv, excludeChildRuns));
        }
        else {
            child_runs = [];
        }
        return {
            id: run.id,
            name: run.name,
            start_time: run._serialized_start_time ?? run.start_time,
            end_time: run.end_time,
            run_type: run.run_type,
            reference_example_id: run.reference_example_id,
            extra: runExtra,
            serialized: run.serialized,
            error: run.error,
            inputs: run.inputs,
            outputs: run.outputs,
            session_name: run.project_name,
            address: run.address,
            child_runs: child_runs,
            parent_run_id: parent_run_id,
            trace_id: run.trace_id,
            dotted_order: run.dotted_order,
            tags: run.tags,
            // Copied so files added later are left to patchRun, not this create.
            attachments: run.attachments ? { ...run.attachments } : undefined,
            events: run.events,
        };
    }
    _sliceParentId(parentId, run) {
        /**
         * Slice the parent id from dotted order.
         * Additionally check if the current run is a child of the parent. If so, update
         * the parent_run_id to undefined, and set the trace id to the new root id after
         * parent_id.
         */
        if (run.dotted_order) {
            const segs = run.dotted_order.split(".");
            let startIdx = null;
            // Find the index of the parent ID in the dotted order
            for (let idx = 0; idx < segs.length; idx++) {
                const segId = segs[idx].slice(-TIMESTAMP_LENGTH);
                if (segId === parentId) {
                    startIdx = idx;
                    break;
                }
            }
            if (startIdx !== null) {
                // Trim segments to start after parent_id (exclusive)
                const trimmedSegs = segs.slice(startIdx + 1);
                // Rebuild dotted_order
                run.dotted_order = trimmedSegs.join(".");
                if (trimmedSegs.length > 0) {
                    run.trace_id = trimmedSegs[0].slice(-TIMESTAMP_LENGTH);
                }
                else {
                    run.trace_id = run.id;
                }
            }
        }
        if (run.parent_run_id === parentId) {
            // We've found the new root node.
            run.parent_run_id = undefined;
        }
    }
    _setReplicaTraceRoot(replicaKey, traceRootId) {
        // Set the replica trace root in context vars on this run and all descendants
        const replicaTraceRoots = getContextVar(this, _REPLICA_TRACE_ROOTS_KEY) ?? {};
        replicaTraceRoots[replicaKey] = traceRootId;
        setContextVar(this, _REPLICA_TRACE_ROOTS_KEY, replicaTraceRoots);
        // Recursively update all descendants to avoid race conditions
        // around run tree creation vs processing time
        for (const child of this.child_runs) {
            child._setReplicaTraceRoot(replicaKey, traceRootId);
        }
    }
    /** A replica naming neither inherits the run tree's destination. */
    _replicaAddressing(replica) {
        const address = ensureAgent(replica.address);
        if (replica.projectName != null) {
            rejectConflicting(replica.projectName, address);
            return [replica.projectName, undefined];
        }
        if (address) {
            return [undefined, address];
        }
        return [this.project_name, this.address];
    }
    _remapForProject(params) {
        const { projectName, address, primary, runtimeEnv, excludeChildRuns = true, reroot = false, distributedParentId, apiUrl, apiKey, workspaceId, } = params;
        const baseRun = this._convertToCreate(this, runtimeEnv, excludeChildRuns);
        // Preserve legacy behavior when `primary` is omitted, unless another replica is primary.
        if (primary === undefined &&
            !this.replicas?.some((r) => r.primary === true) &&
            projectName === this.project_name &&
            (address ? addressToLrn(address) : undefined) ===
                (this.address ? addressToLrn(this.address) : undefined)) {
            return {
                ...baseRun,
                session_name: projectName,
                address,
            };
        }
        const seed = projectName ?? (address ? addressToLrn(address) : undefined) ?? "agent//";
        // Apply reroot logic before ID remapping
        if (reroot) {
            if (distributedParentId) {
                // If we have a distributed parent ID, slice at that point
                this._sliceParentId(distributedParentId, baseRun);
            }
            else {
                // If no distributed parent ID, simply make this run a root run
                // by removing parent_run_id and resetting trace info
                baseRun.parent_run_id = undefined;
                // Keep the current run as the trace root
                if (baseRun.dotted_order) {
                    // Reset dotted order to just this run
                    const segs = baseRun.dotted_order.split(".");
                    if (segs.length > 0) {
                        baseRun.dotted_order = segs[segs.length - 1];
                        baseRun.trace_id = baseRun.id;
                    }
                }
            }
            // Store this run's original ID in context vars so descendants know the new trace root
            // We store the original ID (before remapping) so it can be found in dotted_order
            const replicaKey = getReplicaKey({
                projectName: seed,
                apiUrl,
                apiKey,
                workspaceId,
            });
            this._setReplicaTraceRoot(replicaKey, baseRun.id);
        }
        // If an ancestor was rerooted for this replica, update trace_id and dotted_order
        // to reflect the new trace hierarchy. This is tracked via context variables.
        let ancestorRerootedTraceId;
        if (!reroot) {
            const replicaTraceRoots = getContextVar(this, _REPLICA_TRACE_ROOTS_KEY) ?? {};
            const replicaKey = getReplicaKey({
                projectName: seed,
                apiUrl,
                apiKey,
                workspaceId,
            });
            ancestorRerootedTraceId = replicaTraceRoots[replicaKey];
            if (ancestorRerootedTraceId) {
                // An ancestor was rerooted for this replica, so set our trace_id
                // to the ancestor's original (unmapped) ID. It will be remapped along with other IDs.
                baseRun.trace_id = ancestorRerootedTraceId;
                // Also slice the dotted_order to start from the new trace root
                // This ensures descendants of a rerooted ancestor have correct hierarchy
                if (baseRun.dotted_order) {
                    const segs = baseRun.dotted_order.split(".");
                    let rootIdx = null;
                    // Find the new trace root's segment in dotted_order
                    for (let idx = 0; idx < segs.length; idx++) {
                        const segId = segs[idx].slice(-TIMESTAMP_LENGTH);
                        if (segId === ancestorRerootedTraceId) {
                            rootIdx = idx;
                            break;
                        }
                    }
                    if (rootIdx !== null) {
                        // Keep segments from new trace root onwards
                        const trimmedSegs = segs.slice(rootIdx);
                        baseRun.dotted_order = trimmedSegs.join(".");
                    }
                }
            }
        }
        if (primary) {
            return {
                ...baseRun,
                session_name: projectName,
                address,
            };
        }
        // Remap IDs for the replica using nonCryptographicUuid7Deterministic
        // This ensures consistency across runs in the same replica while
        // preserving UUID7 properties (time-ordering, monotonicity)
        const oldId = baseRun.id;
        const newId = _uuid_nonCryptographicUuid7Deterministic(oldId, seed);
        // Remap trace_id
        let newTraceId;
        if (baseRun.trace_id) {
            newTraceId = _uuid_nonCryptographicUuid7Deterministic(baseRun.trace_id, seed);
        }
        else {
            newTraceId = newId;
        }
        // Remap parent_run_id
        let newParentId;
        if (baseRun.parent_run_id) {
            newParentId = _uuid_nonCryptographicUuid7Deterministic(baseRun.parent_run_id, seed);
        }
        // Remap dotted_order segments
        let newDottedOrder;
        if (baseRun.dotted_order) {
            const segs = baseRun.dotted_order.split(".");
            const remappedSegs = segs.map((seg) => {
                // Extract the UUID from the segment (last TIMESTAMP_LENGTH characters)
                const segId = seg.slice(-TIMESTAMP_LENGTH);
                const remappedId = _uuid_nonCryptographicUuid7Deterministic(segId, seed);
                // Replace the UUID part while keeping the timestamp prefix
                return seg.slice(0, -TIMESTAMP_LENGTH) + remappedId;
            });
            newDottedOrder = remappedSegs.join(".");
        }
        return {
            ...baseRun,
            id: newId,
            trace_id: newTraceId,
            parent_run_id: newParentId,
            dotted_order: newDottedOrder,
            session_name: projectName,
            address,
        };
    }
    async postRun(excludeChildRuns = true) {
        // Applies when `processInputs` is an async function
        if (this._awaitInputsOnPost) {
            this.inputs = await this.inputs;
        }
        try {
            const runtimeEnv = getRuntimeEnvironment();
            // Read before createRun awaits: traceable runs the function meanwhile,
            // and files it adds then are not in the create payload.
            const postedAttachmentNames = new Set(Object.keys(this.attachments ?? {}));
            if (this.replicas && this.replicas.length > 0) {
                for (const replica of this.replicas) {
                    const { primary, apiKey, apiUrl, workspaceId, reroot, client: replicaClient, } = replica;
                    const [projectName, address] = this._replicaAddressing(replica);
                    const runCreate = this._remapForProject({
                        projectName,
                        address,
                        primary,
                        runtimeEnv,
                        excludeChildRuns: true,
                        reroot,
                        distributedParentId: this.distributedParentId,
                        apiUrl,
                        apiKey,
                        workspaceId,
                    });
                    const targetClient = replicaClient ?? this.client;
                    await targetClient.createRun(runCreate, {
                        apiKey,
                        apiUrl,
                        workspaceId,
                    });
                }
            }
            else {
                const runCreate = this._convertToCreate(this, runtimeEnv, excludeChildRuns);
                await this.client.createRun(runCreate);
            }
            this._postedAttachmentNames = postedAttachmentNames;
            if (!excludeChildRuns) {
                warn_warnOnce("Posting with excludeChildRuns=false is deprecated and will be removed in a future version.");
                for (const childRun of this.child_runs) {
                    await childRun.postRun(false);
                }
            }
            this.child_runs = [];
        }
        catch (error) {
            console.error(`Error in postRun for run ${this.id}:`, error);
        }
    }
    /** Attachments added since postRun, or undefined when there are none. */
    _attachmentsToPatch() {
        const posted = this._postedAttachmentNames;
        const pending = Object.entries(this.attachments ?? {}).filter(([name]) => !posted?.has(name));
        return pending.length > 0 ? Object.fromEntries(pending) : undefined;
    }
    /**
     * Patch the run tree to the API.
     *
     * @param options.excludeInputs - Whether to exclude inputs from the patch
     * request. Defaults to the value of `LANGSMITH_EXCLUDE_INPUTS_ON_PATCH`
     * (or its `LANGCHAIN_` equivalent), which itself defaults to `true`.
     * An explicit value overrides the environment variable for this call.
     *
     * Unless the environment variable is disabled, inputs added after the
     * initial `postRun()` are not persisted unless this option is explicitly set
     * to `false`.
     */
    async patchRun(options) {
        const excludeInputs = options?.excludeInputs ?? getExcludeInputsOnPatch();
        const attachments = this._attachmentsToPatch();
        if (this.replicas && this.replicas.length > 0) {
            for (const replica of this.replicas) {
                const { primary, apiKey, apiUrl, workspaceId, updates, reroot, client: replicaClient, } = replica;
                const [projectName, address] = this._replicaAddressing(replica);
                const runData = this._remapForProject({
                    projectName,
                    address,
                    primary,
                    runtimeEnv: undefined,
                    excludeChildRuns: true,
                    reroot,
                    distributedParentId: this.distributedParentId,
                    apiUrl,
                    apiKey,
                    workspaceId,
                });
                const updatePayload = {
                    id: runData.id,
                    name: runData.name,
                    run_type: runData.run_type,
                    start_time: runData.start_time,
                    outputs: runData.outputs,
                    error: runData.error,
                    parent_run_id: runData.parent_run_id,
                    session_name: runData.session_name,
                    address: runData.address,
                    reference_example_id: runData.reference_example_id,
                    end_time: runData.end_time,
                    dotted_order: runData.dotted_order,
                    trace_id: runData.trace_id,
                    events: runData.events,
                    tags: runData.tags,
                    extra: runData.extra,
                    attachments,
                    ...updates,
                };
                // Important that inputs is not a key in the run update
                // if excluded because it will overwrite the run create if the
                // two operations are merged during batching
                if (!excludeInputs) {
                    updatePayload.inputs = runData.inputs;
                }
                const targetClient = replicaClient ?? this.client;
                await targetClient.updateRun(runData.id, updatePayload, {
                    apiKey,
                    apiUrl,
                    workspaceId,
                });
            }
        }
        else {
            try {
                const runUpdate = {
                    name: this.name,
                    run_type: this.run_type,
                    start_time: this._serialized_start_time ?? this.start_time,
                    end_time: this.end_time,
                    error: this.error,
                    outputs: this.outputs,
                    parent_run_id: this.parent_run?.id ?? this.parent_run_id,
                    reference_example_id: this.reference_example_id,
                    extra: this.extra,
                    events: this.events,
                    dotted_order: this.dotted_order,
                    trace_id: this.trace_id,
                    tags: this.tags,
                    attachments,
                    session_name: this.project_name,
                    address: this.address,
                };
                // Important that inputs is not a key in the run update
                // if excluded because it will overwrite the run create if the
                // two operations are merged during batching
                if (!excludeInputs) {
                    runUpdate.inputs = this.inputs;
                }
                await this.client.updateRun(this.id, runUpdate);
            }
            catch (error) {
                console.error(`Error in patchRun for run ${this.id}`, error);
            }
        }
        this.child_runs = [];
    }
    toJSON() {
        return this._convertToCreate(this, undefined, false);
    }
    /**
     * Add an event to the run tree.
     * @param event - A single event or string to add
     */
    addEvent(event) {
        if (!this.events) {
            this.events = [];
        }
        if (typeof event === "string") {
            this.events.push({
                name: "event",
                time: new Date().toISOString(),
                message: event,
            });
        }
        else {
            this.events.push({
                ...event,
                time: event.time ?? new Date().toISOString(),
            });
        }
    }
    static fromRunnableConfig(parentConfig, props) {
        // We only handle the callback manager case for now
        const callbackManager = parentConfig?.callbacks;
        let parentRun;
        let projectName;
        let client;
        let tracingEnabled = env_isEnvTracingEnabled();
        if (callbackManager) {
            const parentRunId = callbackManager?.getParentRunId?.() ?? "";
            const langChainTracer = callbackManager?.handlers?.find((handler) => handler?.name == "langchain_tracer");
            parentRun = langChainTracer?.getRun?.(parentRunId);
            projectName = langChainTracer?.projectName;
            client = langChainTracer?.client;
            tracingEnabled = tracingEnabled || !!langChainTracer;
        }
        if (!parentRun) {
            return new RunTree({
                ...props,
                client,
                tracingEnabled,
                project_name: props.address ? undefined : projectName,
            });
        }
        const parentRunTree = new RunTree({
            name: parentRun.name,
            id: parentRun.id,
            trace_id: parentRun.trace_id,
            dotted_order: parentRun.dotted_order,
            client,
            tracingEnabled,
            project_name: projectName,
            tags: [
                ...new Set((parentRun?.tags ?? []).concat(parentConfig?.tags ?? [])),
            ],
            extra: {
                metadata: {
                    ...parentRun?.extra?.metadata,
                    ...parentConfig?.metadata,
                },
            },
        });
        return parentRunTree.createChild(props);
    }
    static fromDottedOrder(dottedOrder) {
        return this.fromHeaders({ "langsmith-trace": dottedOrder });
    }
    static fromHeaders(headers, inheritArgs) {
        const rawHeaders = "get" in headers && typeof headers.get === "function"
            ? {
                "langsmith-trace": headers.get("langsmith-trace"),
                baggage: headers.get("baggage"),
            }
            : headers;
        const headerTrace = rawHeaders["langsmith-trace"];
        if (!headerTrace || typeof headerTrace !== "string")
            return undefined;
        const parentDottedOrder = headerTrace.trim();
        const parsedDottedOrder = parentDottedOrder.split(".").map((part) => {
            const [strTime, uuid] = part.split("Z");
            return { strTime, time: Date.parse(strTime + "Z"), uuid };
        });
        const traceId = parsedDottedOrder[0].uuid;
        const config = {
            ...inheritArgs,
            name: inheritArgs?.["name"] ?? "parent",
            run_type: inheritArgs?.["run_type"] ?? "chain",
            start_time: inheritArgs?.["start_time"] ?? Date.now(),
            id: parsedDottedOrder.at(-1)?.uuid,
            trace_id: traceId,
            dotted_order: parentDottedOrder,
        };
        if (rawHeaders["baggage"] && typeof rawHeaders["baggage"] === "string") {
            const baggage = Baggage.fromHeader(rawHeaders["baggage"]);
            config.metadata = baggage.metadata;
            config.tags = baggage.tags;
            if (baggage.project_name && baggage.address) {
                console.warn("Ignoring a `baggage` header that names both a project and an address.");
                return undefined;
            }
            // The header's destination outranks the caller's.
            if (baggage.project_name) {
                config.project_name = baggage.project_name;
                delete config.address;
            }
            else if (baggage.address) {
                config.address = baggage.address;
                delete config.project_name;
            }
            config.replicas = baggage.replicas;
        }
        const runTree = new RunTree(config);
        // Set the distributed parent ID to this run's ID for rerooting
        runTree.distributedParentId = runTree.id;
        return runTree;
    }
    toHeaders(headers) {
        const result = {
            "langsmith-trace": this.dotted_order,
            baggage: new Baggage(this.extra?.metadata, this.tags, this.project_name, this.replicas, this.address).toHeader(),
        };
        if (headers) {
            for (const [key, value] of Object.entries(result)) {
                headers.set(key, value);
            }
        }
        return result;
    }
}
Object.defineProperty(RunTree, "sharedClient", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: null
});
function isRunTree(x) {
    return (x != null &&
        typeof x.createChild === "function" &&
        typeof x.postRun === "function");
}
function isLangChainTracerLike(x) {
    return (typeof x === "object" &&
        x != null &&
        typeof x.name === "string" &&
        x.name === "langchain_tracer");
}
function containsLangChainTracerLike(x) {
    return (Array.isArray(x) && x.some((callback) => isLangChainTracerLike(callback)));
}
function isCallbackManagerLike(x) {
    return (typeof x === "object" &&
        x != null &&
        Array.isArray(x.handlers));
}
function isRunnableConfigLike(x) {
    // Check that it's an object with a callbacks arg
    // that has either a CallbackManagerLike object with a langchain tracer within it
    // or an array with a LangChainTracerLike object within it
    const callbacks = x?.callbacks;
    return (x != null &&
        typeof callbacks === "object" &&
        // Callback manager with a langchain tracer
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        (containsLangChainTracerLike(callbacks?.handlers) ||
            // Or it's an array with a LangChainTracerLike object within it
            containsLangChainTracerLike(callbacks)));
}
function _getWriteReplicasFromEnv() {
    const envVar = env_getEnvironmentVariable("LANGSMITH_RUNS_ENDPOINTS");
    if (!envVar)
        return [];
    try {
        const parsed = JSON.parse(envVar);
        if (Array.isArray(parsed)) {
            const replicas = [];
            for (const item of parsed) {
                if (typeof item !== "object" || item === null) {
                    console.warn(`Invalid item type in LANGSMITH_RUNS_ENDPOINTS: ` +
                        `expected object, got ${typeof item}`);
                    continue;
                }
                if (typeof item.api_url !== "string") {
                    console.warn(`Invalid api_url type in LANGSMITH_RUNS_ENDPOINTS: ` +
                        `expected string, got ${typeof item.api_url}`);
                    continue;
                }
                if (typeof item.api_key !== "string") {
                    console.warn(`Invalid api_key type in LANGSMITH_RUNS_ENDPOINTS: ` +
                        `expected string, got ${typeof item.api_key}`);
                    continue;
                }
                if (item.project_name !== undefined &&
                    item.project_name !== null &&
                    typeof item.project_name !== "string") {
                    console.warn(`Invalid project_name type in LANGSMITH_RUNS_ENDPOINTS: ` +
                        `expected string, got ${typeof item.project_name}`);
                    continue;
                }
                if (item.workspace_id !== undefined &&
                    item.workspace_id !== null &&
                    typeof item.workspace_id !== "string") {
                    console.warn(`Invalid workspace_id type in LANGSMITH_RUNS_ENDPOINTS: ` +
                        `expected string, got ${typeof item.workspace_id}; ignoring it`);
                    item.workspace_id = undefined;
                }
                if (item.primary !== undefined && typeof item.primary !== "boolean") {
                    console.warn(`Invalid primary type in LANGSMITH_RUNS_ENDPOINTS: ` +
                        `expected boolean, got ${typeof item.primary}`);
                    continue;
                }
                replicas.push({
                    apiUrl: item.api_url.replace(/\/$/, ""),
                    apiKey: item.api_key,
                    projectName: item.project_name ?? undefined,
                    workspaceId: item.workspace_id?.trim() || undefined,
                    primary: item.primary ?? undefined,
                });
            }
            return replicas;
        }
        else if (typeof parsed === "object" && parsed !== null) {
            _checkEndpointEnvUnset(parsed);
            const replicas = [];
            for (const [url, key] of Object.entries(parsed)) {
                const cleanUrl = url.replace(/\/$/, "");
                if (typeof key === "string") {
                    replicas.push({
                        apiUrl: cleanUrl,
                        apiKey: key,
                    });
                }
                else {
                    console.warn(`Invalid value type in LANGSMITH_RUNS_ENDPOINTS for URL ${url}: ` +
                        `expected string, got ${typeof key}`);
                    continue;
                }
            }
            return replicas;
        }
        else {
            console.warn("Invalid LANGSMITH_RUNS_ENDPOINTS – must be valid JSON array of " +
                `objects with api_url and api_key properties, or object mapping url->apiKey, got ${typeof parsed}`);
            return [];
        }
    }
    catch (e) {
        if (isConflictingEndpointsError(e)) {
            throw e;
        }
        console.warn("Invalid LANGSMITH_RUNS_ENDPOINTS – must be valid JSON array of " +
            "objects with api_url and api_key properties, or object mapping url->apiKey");
        return [];
    }
}
function _ensureWriteReplicas(replicas) {
    const ensured = replicas
        ? replicas.map((replica) => {
            if (Array.isArray(replica)) {
                return {
                    projectName: replica[0],
                    updates: replica[1],
                };
            }
            const address = ensureAgent(replica.address);
            return address ? { ...replica, address } : replica;
        })
        : _getWriteReplicasFromEnv();
    if (ensured.filter((replica) => replica.primary === true).length > 1) {
        throw new Error("Only one replica can be marked as primary.");
    }
    return ensured;
}
function _checkEndpointEnvUnset(parsed) {
    if (Object.keys(parsed).length > 0 &&
        env_getLangSmithEnvironmentVariable("ENDPOINT")) {
        throw new ConflictingEndpointsError();
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/singletons/fetch.mjs

// Wrap the default fetch call due to issues with illegal invocations
// in some environments:
// https://stackoverflow.com/questions/69876859/why-does-bind-fix-failed-to-execute-fetch-on-window-illegal-invocation-err
// @ts-expect-error Broad typing to support a range of fetch implementations
const DEFAULT_FETCH_IMPLEMENTATION = (...args) => fetch(...args);
let globalFetchSupportsWebStreaming = undefined;
const LANGSMITH_FETCH_IMPLEMENTATION_KEY = Symbol.for("ls:fetch_implementation");
/**
 * Overrides the fetch implementation used for LangSmith calls.
 * You should use this if you need to use an implementation of fetch
 * other than the default global (e.g. for dealing with proxies).
 * @param fetch The new fetch function to use.
 */
const overrideFetchImplementation = (fetch, supportsWebStreaming) => {
    globalThis[LANGSMITH_FETCH_IMPLEMENTATION_KEY] = fetch;
    globalFetchSupportsWebStreaming = supportsWebStreaming;
};
const clearFetchImplementation = () => {
    delete globalThis[LANGSMITH_FETCH_IMPLEMENTATION_KEY];
    globalFetchSupportsWebStreaming = undefined;
};
const _shouldStreamForGlobalFetchImplementation = () => {
    const overriddenFetchImpl = globalThis[LANGSMITH_FETCH_IMPLEMENTATION_KEY];
    if (overriddenFetchImpl === undefined) {
        return true;
    }
    return globalFetchSupportsWebStreaming ?? false;
};
/**
 * @internal
 */
const _getFetchImplementation = (debug) => {
    return async (...args) => {
        if (debug || env_getLangSmithEnvironmentVariable("DEBUG") === "true") {
            const [url, options] = args;
            console.log(`→ ${options?.method || "GET"} ${url}`);
        }
        const res = await (globalThis[LANGSMITH_FETCH_IMPLEMENTATION_KEY] ??
            DEFAULT_FETCH_IMPLEMENTATION)(...args);
        if (debug || env_getLangSmithEnvironmentVariable("DEBUG") === "true") {
            console.log(`← ${res.status} ${res.statusText} ${res.url}`);
        }
        return res;
    };
};

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/project.mjs

const getDefaultProjectName = () => {
    return (getLangSmithEnvironmentVariable("PROJECT") ??
        getEnvironmentVariable("LANGCHAIN_SESSION") ?? // TODO: Deprecate
        "default");
};

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/uuid.mjs



/**
 * Generate a random UUID v7 string.
 */
function uuid7() {
    return uuidv7();
}
/**
 * Compute the run ID used for a secondary tracing replica.
 *
 * @param runId - The original UUID v7 run ID.
 * @param projectName - The secondary replica's destination project name.
 * @returns The run ID used in the secondary replica destination.
 */
function computeRunIdForSecondaryReplica(runId, projectName) {
    if (typeof projectName !== "string" || projectName.length === 0) {
        throw new Error("projectName must be a non-empty string");
    }
    assertUuid(runId, "runId");
    const normalizedRunId = runId.toLowerCase();
    if (getUuidVersion(normalizedRunId) !== 7) {
        throw new Error("runId must be a UUID v7");
    }
    return nonCryptographicUuid7Deterministic(normalizedRunId, projectName);
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/singletons/traceable.mjs
class MockAsyncLocalStorage {
    getStore() {
        return undefined;
    }
    run(_, callback) {
        return callback();
    }
}
const TRACING_ALS_KEY = Symbol.for("ls:tracing_async_local_storage");
const mockAsyncLocalStorage = new MockAsyncLocalStorage();
class AsyncLocalStorageProvider {
    getInstance() {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return globalThis[TRACING_ALS_KEY] ?? mockAsyncLocalStorage;
    }
    initializeGlobalInstance(instance) {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        if (globalThis[TRACING_ALS_KEY] === undefined) {
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            globalThis[TRACING_ALS_KEY] = instance;
        }
    }
}
const AsyncLocalStorageProviderSingleton = new AsyncLocalStorageProvider();
function traceable_getCurrentRunTree(permitAbsentRunTree = false) {
    const runTree = AsyncLocalStorageProviderSingleton.getInstance().getStore();
    if (!permitAbsentRunTree && runTree === undefined) {
        throw new Error("Could not get the current run tree.\n\nPlease make sure you are calling this method within a traceable function and that tracing is enabled.");
    }
    return runTree;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function withRunTree(runTree, fn) {
    const storage = AsyncLocalStorageProviderSingleton.getInstance();
    return new Promise((resolve, reject) => {
        storage.run(runTree, () => void Promise.resolve(fn()).then(resolve).catch(reject));
    });
}
const ROOT = Symbol.for("langsmith:traceable:root");
function isTraceableFunction(x) {
    return typeof x === "function" && "langsmith:traceable" in x;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/guard.mjs


/**
 * Check if tracing is enabled for the current run tree or environment.
 *
 * @returns `true` if tracing is enabled, `false` otherwise.
 */
function isTracingEnabled() {
    return getCurrentRunTree(true)?.tracingEnabled ?? isEnvTracingEnabled();
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_namespaceObject = /*#__PURE__*/__webpack_require__.t(external_node_path_, 2);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/fs.mjs
/**
 * File system abstraction (Node.js version).
 *
 * This file is swapped with fs.browser.ts for browser builds
 * via the package.json browser field.
 */





function resolveConfigPath(filePath) {
    const expanded = filePath === "~" || filePath.startsWith("~/") || filePath.startsWith("~\\")
        ? external_node_path_.join((0,external_node_os_.homedir)(), filePath.slice(1))
        : filePath;
    const absolute = external_node_path_.resolve(expanded);
    return external_node_fs_.existsSync(absolute) ? external_node_fs_.realpathSync(absolute) : absolute;
}
function homeDirectory() {
    return (0,external_node_os_.homedir)();
}
const path = external_node_path_namespaceObject;
// ---------------------------------------------------------------------------
// Async operations (used by trace dump fallback)
// ---------------------------------------------------------------------------
async function mkdir(dir) {
    await promises_.mkdir(dir, { recursive: true });
}
async function writeFileAtomic(filePath, content) {
    const tempPath = `${filePath}.${(0,external_node_crypto_.randomUUID)()}.tmp`;
    const file = await promises_.open(tempPath, "wx", 0o600);
    try {
        try {
            await file.writeFile(content, "utf8");
            await file.sync();
        }
        finally {
            await file.close();
        }
        await promises_.rename(tempPath, filePath);
    }
    finally {
        await promises_.rm(tempPath, { force: true });
    }
}
async function readdir(dir) {
    return promises_.readdir(dir);
}
async function stat(filePath) {
    return promises_.stat(filePath);
}
async function unlink(filePath) {
    await nodeFsPromises.unlink(filePath);
}
// ---------------------------------------------------------------------------
// Sync operations (used by prompt cache)
// ---------------------------------------------------------------------------
function existsSync(p) {
    return external_node_fs_.existsSync(p);
}
function mkdirSync(dir) {
    external_node_fs_.mkdirSync(dir, { recursive: true });
}
function writeFileSync(filePath, content) {
    external_node_fs_.writeFileSync(filePath, content);
}
function renameSync(oldPath, newPath) {
    external_node_fs_.renameSync(oldPath, newPath);
}
function unlinkSync(filePath) {
    external_node_fs_.unlinkSync(filePath);
}
function readFileSync(filePath) {
    return external_node_fs_.readFileSync(filePath, "utf-8");
}
// ---------------------------------------------------------------------------
// Lock primitives (used by the OAuth refresh directory lock)
// ---------------------------------------------------------------------------
async function mkdirExclusive(dir) {
    // Non-recursive mkdir throws EEXIST if the directory already exists, which
    // is the atomic test-and-set the cross-process lock relies on.
    await promises_.mkdir(dir, { mode: 0o700 });
}
function statMtimeMs(filePath) {
    try {
        return external_node_fs_.statSync(filePath).mtimeMs;
    }
    catch {
        return undefined;
    }
}
async function rmRecursive(filePath) {
    // On Windows, deletes fail with EBUSY/EPERM while another process (e.g. the
    // Python or Go SDK reading an OAuth lock file) has the file open. Node
    // retries those errors with a short linear backoff (~150ms total).
    await promises_.rm(filePath, {
        recursive: true,
        force: true,
        maxRetries: 5,
        retryDelay: 10,
    });
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/prompt_cache/index.mjs
/**
 * Prompt caching module for LangSmith SDK.
 *
 * Provides an LRU cache with background refresh for prompt caching.
 * Uses stale-while-revalidate pattern for optimal performance.
 *
 * Works in all environments. File operations (dump/load) use the shared
 * fs abstraction which is swapped for browser builds via package.json
 * browser field (no-ops in browser — cache just doesn't persist).
 */

/**
 * Check if a cache entry is stale based on TTL.
 */
function isStale(entry, ttlSeconds) {
    if (ttlSeconds === null) {
        return false; // Infinite TTL, never stale
    }
    const ageMs = Date.now() - entry.createdAt;
    return ageMs > ttlSeconds * 1000;
}
/**
 * LRU cache with background refresh for prompts.
 *
 * Features:
 * - In-memory LRU cache with configurable max size
 * - Background refresh using setInterval
 * - Stale-while-revalidate: returns stale data while refresh happens
 * - Uses the most recently used client for a key for refreshes
 * - JSON dump/load for offline use
 *
 * @example
 * ```typescript
 * const cache = new Cache({
 *   maxSize: 100,
 *   ttlSeconds: 3600,
 * });
 *
 * // Use the cache
 * cache.set("my-prompt:latest", promptCommit);
 * const cached = cache.get("my-prompt:latest");
 *
 * // Cleanup
 * cache.stop();
 * ```
 */
class PromptCache {
    constructor(config = {}) {
        Object.defineProperty(this, "cache", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Map()
        });
        Object.defineProperty(this, "maxSize", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "ttlSeconds", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "refreshIntervalSeconds", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "refreshTimer", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "_metrics", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: {
                hits: 0,
                misses: 0,
                refreshes: 0,
                refreshErrors: 0,
            }
        });
        this.configure(config);
    }
    /**
     * Get cache performance metrics.
     */
    get metrics() {
        return { ...this._metrics };
    }
    /**
     * Get total cache requests (hits + misses).
     */
    get totalRequests() {
        return this._metrics.hits + this._metrics.misses;
    }
    /**
     * Get cache hit rate (0.0 to 1.0).
     */
    get hitRate() {
        const total = this.totalRequests;
        return total > 0 ? this._metrics.hits / total : 0;
    }
    /**
     * Reset all metrics to zero.
     */
    resetMetrics() {
        this._metrics = {
            hits: 0,
            misses: 0,
            refreshes: 0,
            refreshErrors: 0,
        };
    }
    /**
     * Get a value from cache.
     *
     * Returns the cached value or undefined if not found.
     * Stale entries are still returned (background refresh handles updates).
     */
    get(key, refreshFunc) {
        // If max_size is 0, cache is disabled
        if (this.maxSize === 0) {
            return undefined;
        }
        const entry = this.cache.get(key);
        if (!entry) {
            this._metrics.misses += 1;
            return undefined;
        }
        // Move to end for LRU (delete and re-add)
        this.cache.delete(key);
        this.cache.set(key, { ...entry, refreshFunc });
        this._metrics.hits += 1;
        return entry.value;
    }
    /**
     * Set a value in the cache.
     */
    set(key, value, refreshFunc) {
        // If max_size is 0, cache is disabled - do nothing
        if (this.maxSize === 0) {
            return;
        }
        if (this.refreshTimer === undefined) {
            this.startRefreshLoop();
        }
        // Check if we need to evict (and key is new)
        if (!this.cache.has(key) && this.cache.size >= this.maxSize) {
            // Evict oldest (first item in Map)
            const oldestKey = this.cache.keys().next().value;
            if (oldestKey !== undefined) {
                this.cache.delete(oldestKey);
            }
        }
        const entry = {
            value,
            createdAt: Date.now(),
            refreshFunc,
        };
        // Delete first to ensure it's at the end
        this.cache.delete(key);
        this.cache.set(key, entry);
    }
    /**
     * Remove a specific entry from cache.
     */
    invalidate(key) {
        this.cache.delete(key);
    }
    /**
     * Clear all cache entries.
     */
    clear() {
        this.cache.clear();
    }
    /**
     * Get the number of entries in the cache.
     */
    get size() {
        return this.cache.size;
    }
    /**
     * Stop background refresh.
     * Should be called when the client is being cleaned up.
     */
    stop() {
        if (this.refreshTimer) {
            clearInterval(this.refreshTimer);
            this.refreshTimer = undefined;
        }
    }
    /**
     * Dump cache contents to a JSON file for offline use.
     */
    dump(filePath) {
        const entries = {};
        for (const [key, entry] of this.cache.entries()) {
            entries[key] = entry.value;
        }
        const dir = path.dirname(filePath);
        if (!existsSync(dir)) {
            mkdirSync(dir);
        }
        const tempPath = `${filePath}.tmp`;
        try {
            writeFileSync(tempPath, JSON.stringify({ entries }, null, 2));
            renameSync(tempPath, filePath);
        }
        catch (e) {
            if (existsSync(tempPath)) {
                unlinkSync(tempPath);
            }
            throw e;
        }
    }
    /**
     * Load cache contents from a JSON file.
     *
     * Loaded entries get a fresh TTL starting from load time.
     *
     * @returns Number of entries loaded.
     */
    load(filePath) {
        if (!existsSync(filePath)) {
            return 0;
        }
        let entries;
        try {
            const content = readFileSync(filePath);
            const data = JSON.parse(content);
            entries = data.entries ?? null;
        }
        catch {
            return 0;
        }
        if (!entries) {
            return 0;
        }
        let loaded = 0;
        const now = Date.now();
        for (const [key, value] of Object.entries(entries)) {
            if (this.cache.size >= this.maxSize) {
                break;
            }
            const entry = {
                value: value,
                createdAt: now, // Fresh TTL from load time
            };
            this.cache.set(key, entry);
            loaded += 1;
        }
        return loaded;
    }
    /**
     * Start the background refresh loop.
     */
    startRefreshLoop() {
        this.stop();
        if (this.ttlSeconds !== null) {
            this.refreshTimer = setInterval(() => {
                this.refreshStaleEntries().catch((e) => {
                    // Log but don't die - keep the refresh loop running
                    console.warn("Unexpected error in cache refresh loop:", e);
                });
            }, this.refreshIntervalSeconds * 1000);
            // Don't block Node.js from exiting
            if (this.refreshTimer.unref) {
                this.refreshTimer.unref();
            }
        }
    }
    /**
     * Get list of stale cache keys.
     */
    getStaleEntries() {
        const staleEntries = [];
        for (const [key, value] of this.cache.entries()) {
            if (isStale(value, this.ttlSeconds)) {
                staleEntries.push([key, value]);
            }
        }
        return staleEntries;
    }
    /**
     * Check for stale entries and refresh them.
     */
    async refreshStaleEntries() {
        const staleEntries = this.getStaleEntries();
        if (staleEntries.length === 0) {
            return;
        }
        for (const [key, value] of staleEntries) {
            if (value.refreshFunc !== undefined) {
                try {
                    const newValue = await value.refreshFunc();
                    this.set(key, newValue, value.refreshFunc);
                    this._metrics.refreshes += 1;
                }
                catch (e) {
                    // Keep stale data on refresh failure
                    this._metrics.refreshErrors += 1;
                    console.warn(`Failed to refresh cache entry ${key}:`, e);
                }
            }
        }
    }
    configure(config) {
        this.stop();
        this.refreshIntervalSeconds = config.refreshIntervalSeconds ?? 60;
        this.maxSize = config.maxSize ?? 100;
        this.ttlSeconds = config.ttlSeconds ?? 5 * 60;
    }
}
/**
 * Global singleton instance of PromptCache.
 * Use configureGlobalPromptCache(), enableGlobalPromptCache(), or disableGlobalPromptCache() instead.
 */
const promptCacheSingleton = new PromptCache();
/**
 * Configure the global prompt cache.
 *
 * This should be called before any cache instances are created.
 *
 * @param config - Cache configuration options
 *
 * @example
 * ```typescript
 * import { configureGlobalPromptCache } from 'langsmith';
 *
 * configureGlobalPromptCache({ maxSize: 200, ttlSeconds: 7200 });
 * ```
 */
function configureGlobalPromptCache(config) {
    promptCacheSingleton.configure(config);
}
/**
 * @deprecated Use `PromptCache` instead. This is a deprecated alias.
 *
 * Deprecated alias for PromptCache. Use PromptCache instead.
 */
class Cache extends PromptCache {
    constructor(config = {}) {
        console.warn("The 'Cache' class is deprecated and will be removed in a future version. " +
            "Use 'PromptCache' instead.");
        super(config);
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/errors.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.
function isAbortError(err) {
    return (typeof err === 'object' &&
        err !== null &&
        // Spec-compliant fetch implementations
        (('name' in err && err.name === 'AbortError') ||
            // Expo fetch
            ('message' in err && String(err.message).includes('FetchRequestCanceledException'))));
}
const castToError = (err) => {
    if (err instanceof Error)
        return err;
    if (typeof err === 'object' && err !== null) {
        try {
            if (Object.prototype.toString.call(err) === '[object Error]') {
                // @ts-ignore - not all envs have native support for cause yet
                const error = new Error(err.message, err.cause ? { cause: err.cause } : {});
                if (err.stack)
                    error.stack = err.stack;
                // @ts-ignore - not all envs have native support for cause yet
                if (err.cause && !error.cause)
                    error.cause = err.cause;
                if (err.name)
                    error.name = err.name;
                return error;
            }
        }
        catch { }
        try {
            return new Error(JSON.stringify(err));
        }
        catch { }
    }
    return new Error(err);
};

;// CONCATENATED MODULE: ./node_modules/langsmith/core/error.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

class error_LangsmithError extends Error {
}
class APIError extends error_LangsmithError {
    constructor(status, error, message, headers) {
        super(`${APIError.makeMessage(status, error, message)}`);
        /** HTTP status for the response that caused the error */
        Object.defineProperty(this, "status", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        /** HTTP headers for the response that caused the error */
        Object.defineProperty(this, "headers", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        /** JSON body of the response that caused the error */
        Object.defineProperty(this, "error", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.status = status;
        this.headers = headers;
        this.error = error;
    }
    static makeMessage(status, error, message) {
        const msg = error?.message ?
            typeof error.message === 'string' ?
                error.message
                : JSON.stringify(error.message)
            : error ? JSON.stringify(error)
                : message;
        if (status && msg) {
            return `${status} ${msg}`;
        }
        if (status) {
            return `${status} status code (no body)`;
        }
        if (msg) {
            return msg;
        }
        return '(no status code or body)';
    }
    static generate(status, errorResponse, message, headers) {
        if (!status || !headers) {
            return new APIConnectionError({ message, cause: castToError(errorResponse) });
        }
        const error = errorResponse;
        if (status === 400) {
            return new BadRequestError(status, error, message, headers);
        }
        if (status === 401) {
            return new AuthenticationError(status, error, message, headers);
        }
        if (status === 403) {
            return new PermissionDeniedError(status, error, message, headers);
        }
        if (status === 404) {
            return new NotFoundError(status, error, message, headers);
        }
        if (status === 409) {
            return new ConflictError(status, error, message, headers);
        }
        if (status === 422) {
            return new UnprocessableEntityError(status, error, message, headers);
        }
        if (status === 429) {
            return new RateLimitError(status, error, message, headers);
        }
        if (status >= 500) {
            return new InternalServerError(status, error, message, headers);
        }
        return new APIError(status, error, message, headers);
    }
}
class APIUserAbortError extends APIError {
    constructor({ message } = {}) {
        super(undefined, undefined, message || 'Request was aborted.', undefined);
    }
}
class APIConnectionError extends APIError {
    constructor({ message, cause }) {
        super(undefined, undefined, message || 'Connection error.', undefined);
        // in some environments the 'cause' property is already declared
        // @ts-ignore
        if (cause)
            this.cause = cause;
    }
}
class APIConnectionTimeoutError extends APIConnectionError {
    constructor({ message } = {}) {
        super({ message: message ?? 'Request timed out.' });
    }
}
class BadRequestError extends APIError {
}
class AuthenticationError extends APIError {
}
class PermissionDeniedError extends APIError {
}
class NotFoundError extends APIError {
}
class ConflictError extends APIError {
}
class UnprocessableEntityError extends APIError {
}
class RateLimitError extends APIError {
}
class InternalServerError extends APIError {
}

;// CONCATENATED MODULE: ./node_modules/langsmith/version.mjs
const VERSION = '0.12.0'; // x-release-please-version

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/index.mjs










// Metadata key to hide a traced run from LangSmith's Messages View.
const LS_MESSAGE_VIEW_EXCLUDE = "ls_message_view_exclude";

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/env.mjs
// Inlined from https://github.com/flexdinesh/browser-or-node

let globalEnv;
const isBrowser = () => typeof window !== "undefined" && typeof window.document !== "undefined";
const isWebWorker = () => typeof globalThis === "object" &&
    globalThis.constructor &&
    globalThis.constructor.name === "DedicatedWorkerGlobalScope";
const isJsDom = () => (typeof window !== "undefined" && window.name === "nodejs") ||
    (typeof navigator !== "undefined" && navigator.userAgent.includes("jsdom"));
// Supabase Edge Function provides a `Deno` global object
// without `version` property
const isDeno = () => typeof globalThis.Deno !== "undefined";
// Mark not-as-node if in Supabase Edge Function
const isNode = () => typeof process !== "undefined" &&
    typeof process.versions !== "undefined" &&
    typeof process.versions.node !== "undefined" &&
    !isDeno();
const getEnv = () => {
    if (globalEnv) {
        return globalEnv;
    }
    // @ts-expect-error Bun types are not imported due to conflicts with Node types
    if (typeof Bun !== "undefined") {
        globalEnv = "bun";
    }
    else if (isBrowser()) {
        globalEnv = "browser";
    }
    else if (isNode()) {
        globalEnv = "node";
    }
    else if (isWebWorker()) {
        globalEnv = "webworker";
    }
    else if (isJsDom()) {
        globalEnv = "jsdom";
    }
    else if (isDeno()) {
        globalEnv = "deno";
    }
    else {
        globalEnv = "other";
    }
    return globalEnv;
};
let runtimeEnvironment;
function getRuntimeEnvironment() {
    if (runtimeEnvironment === undefined) {
        const env = getEnv();
        const releaseEnv = getShas();
        runtimeEnvironment = {
            library: "langsmith",
            runtime: env,
            sdk: "langsmith-js",
            sdk_version: VERSION,
            ...releaseEnv,
        };
    }
    return runtimeEnvironment;
}
// Substrings marking a variable as secret-bearing or personal; matched
// case-insensitively against the variable name.
const EXCLUDED_SUBSTRINGS = [
    "key",
    "secret",
    "token",
    "password",
    "passwd",
    "pwd",
    "credential",
    "email",
];
function isSensitiveEnvVarName(key) {
    const lowered = key.toLowerCase();
    return EXCLUDED_SUBSTRINGS.some((sub) => lowered.includes(sub));
}
/**
 * Retrieves the LangSmith-specific metadata from the current runtime environment.
 *
 * @returns {Record<string, string>}
 *  - A record of LangSmith-specific metadata environment variables.
 */
function getLangSmithEnvVarsMetadata() {
    const allEnvVars = getLangSmithEnvironmentVariables();
    const envVars = {};
    const excluded = [
        "LANGCHAIN_API_KEY",
        "LANGCHAIN_ENDPOINT",
        "LANGCHAIN_TRACING_V2",
        "LANGCHAIN_PROJECT",
        "LANGCHAIN_SESSION",
        "LANGSMITH_API_KEY",
        "LANGSMITH_ENDPOINT",
        "LANGSMITH_TRACING_V2",
        "LANGSMITH_CONFIG_FILE",
        "LANGSMITH_PROJECT",
        "LANGSMITH_SESSION",
        "LANGSMITH_AGENT_ID",
        "LANGSMITH_AGENT_ENVIRONMENT",
    ];
    for (const [key, value] of Object.entries(allEnvVars)) {
        if (typeof value === "string" &&
            !excluded.includes(key) &&
            !isSensitiveEnvVarName(key)) {
            // LANGCHAIN_REVISION_ID is the legacy name for LANGSMITH_REVISION_ID.
            if (key !== "LANGSMITH_REVISION_ID" && key !== "LANGCHAIN_REVISION_ID") {
                envVars[key] = value;
            }
        }
    }
    const revisionId = allEnvVars.LANGSMITH_REVISION_ID || allEnvVars.LANGCHAIN_REVISION_ID;
    if (revisionId) {
        envVars["revision_id"] = revisionId;
    }
    return envVars;
}
/**
 * Retrieves only the LangChain/LangSmith-prefixed environment variables from the current runtime environment.
 * This is more efficient than copying all environment variables.
 *
 * @returns {Record<string, string>}
 *  - A record of LangChain/LangSmith environment variables.
 */
function getLangSmithEnvironmentVariables() {
    const envVars = {};
    try {
        // Check for Node.js environment
        // eslint-disable-next-line no-process-env
        if (typeof process !== "undefined" && process.env) {
            // eslint-disable-next-line no-process-env
            for (const [key, value] of Object.entries(process.env)) {
                if ((key.startsWith("LANGCHAIN_") || key.startsWith("LANGSMITH_")) &&
                    value != null) {
                    if (isSensitiveEnvVarName(key) && typeof value === "string") {
                        envVars[key] =
                            value.slice(0, 2) +
                                "*".repeat(value.length - 4) +
                                value.slice(-2);
                    }
                    else {
                        envVars[key] = value;
                    }
                }
            }
        }
    }
    catch (_e) {
        // Catch any errors that might occur while trying to access environment variables
    }
    return envVars;
}
function env_getEnvironmentVariable(name) {
    // Certain Deno setups will throw an error if you try to access environment variables
    // https://github.com/hwchase17/langchainjs/issues/1412
    try {
        return typeof process !== "undefined"
            ? // eslint-disable-next-line no-process-env
                process.env?.[name]
            : undefined;
    }
    catch (_e) {
        return undefined;
    }
}
function env_getLangSmithEnvironmentVariable(name) {
    return (env_getEnvironmentVariable(`LANGSMITH_${name}`) ||
        env_getEnvironmentVariable(`LANGCHAIN_${name}`));
}
function setEnvironmentVariable(name, value) {
    if (typeof process !== "undefined") {
        // eslint-disable-next-line no-process-env
        process.env[name] = value;
    }
}
let cachedCommitSHAs;
/**
 * Get the Git commit SHA from common environment variables
 * used by different CI/CD platforms.
 * @returns {string | undefined} The Git commit SHA or undefined if not found.
 */
function getShas() {
    if (cachedCommitSHAs !== undefined) {
        return cachedCommitSHAs;
    }
    const common_release_envs = [
        "VERCEL_GIT_COMMIT_SHA",
        "NEXT_PUBLIC_VERCEL_GIT_COMMIT_SHA",
        "COMMIT_REF",
        "RENDER_GIT_COMMIT",
        "CI_COMMIT_SHA",
        "CIRCLE_SHA1",
        "CF_PAGES_COMMIT_SHA",
        "REACT_APP_GIT_SHA",
        "SOURCE_VERSION",
        "GITHUB_SHA",
        "TRAVIS_COMMIT",
        "GIT_COMMIT",
        "BUILD_VCS_NUMBER",
        "bamboo_planRepository_revision",
        "Build.SourceVersion",
        "BITBUCKET_COMMIT",
        "DRONE_COMMIT_SHA",
        "SEMAPHORE_GIT_SHA",
        "BUILDKITE_COMMIT",
    ];
    const shas = {};
    for (const env of common_release_envs) {
        const envVar = env_getEnvironmentVariable(env);
        if (envVar !== undefined) {
            shas[env] = envVar;
        }
    }
    cachedCommitSHAs = shas;
    return shas;
}
function getOtelEnabled() {
    return (env_getEnvironmentVariable("OTEL_ENABLED") === "true" ||
        env_getLangSmithEnvironmentVariable("OTEL_ENABLED") === "true");
}
const _VALID_TRACING_MODES = new Set(["langsmith", "otel"]);
/**
 * Resolve the effective tracing mode from an explicit config value and
 * environment variables.
 *
 * Priority: explicit argument > `LANGSMITH_TRACING_MODE` env var >
 * legacy `OTEL_ENABLED` / `LANGSMITH_OTEL_ENABLED` env vars > `"langsmith"`.
 */
function resolveTracingMode(configValue) {
    if (configValue !== undefined) {
        return configValue;
    }
    const envMode = env_getLangSmithEnvironmentVariable("TRACING_MODE");
    if (envMode !== undefined && envMode !== "") {
        const lower = envMode.toLowerCase();
        if (!_VALID_TRACING_MODES.has(lower)) {
            throw new Error(`Invalid LANGSMITH_TRACING_MODE=${JSON.stringify(envMode)}. ` +
                `Must be one of: ${[..._VALID_TRACING_MODES].sort().join(", ")}`);
        }
        if (getOtelEnabled()) {
            console.warn("Both LANGSMITH_TRACING_MODE and the legacy OTEL_ENABLED / " +
                "LANGSMITH_OTEL_ENABLED env vars are set. " +
                "LANGSMITH_TRACING_MODE takes precedence.");
        }
        return lower;
    }
    // Fall back to legacy env var
    if (getOtelEnabled()) {
        return "otel";
    }
    return "langsmith";
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/address.mjs
/**
 * Addresses that name where runs are sent instead of a project.
 *
 * An `Address` names a tracing project held by a feature: an `AgentAddress`, an
 * `ExperimentAddress` or the workspace's `EvaluatorAddress`. Any of them can be resolved to
 * its project. Only an `AgentAddress` can receive traces, and ingestion rejects the
 * others at its entry points. Self-hosted deployments need LangSmith v0.18 or later.
 *
 * @example
 * ```ts
 * import { AgentAddress, traceable } from "langsmith";
 *
 * const support = new AgentAddress("customer-support", "production");
 * const handle = traceable(fn, { address: support });
 * ```
 */

/** Construct and validate an agent address; plain objects are also accepted. */
class AgentAddress {
    constructor(id, environment) {
        const address = ensureAgent({ kind: "AGENT", id, environment });
        this.kind = address.kind;
        this.id = address.id;
        this.environment = address.environment;
        Object.freeze(this);
    }
}
/** Construct and validate an experiment address. */
class ExperimentAddress {
    constructor(id) {
        const address = ensureAddress({ kind: "EXPERIMENT", id });
        this.kind = address.kind;
        this.id = address.id;
        Object.freeze(this);
    }
}
/** Construct the workspace's evaluators address. */
class EvaluatorAddress {
    constructor() {
        this.kind = "EVALUATOR";
        Object.freeze(this);
    }
}
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// The server's agent id rule: a DNS label, so a hostname can carry the id.
const AGENT_ID_PATTERN = /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const ENVIRONMENTS = ["local", "development", "staging", "production"];
// The wire form of an agent address. The parts are validated at entrypoints.
const LRN_PATTERN = /^lrn:agents\/([^/]+)\/environments\/([^/]+)$/;
const ENV_NAMES = ["LANGSMITH_AGENT_ID", "LANGSMITH_AGENT_ENVIRONMENT"];
/** The `LANGSMITH_AGENT_*` / project env vars name half an address, or both. */
class EnvAddressError extends Error {
    constructor(message) {
        super(message);
        this.name = "EnvAddressError";
    }
}
function ensureAddress(value) {
    if (value == null)
        return undefined;
    if (typeof value !== "object") {
        throw new Error("address must be an AgentAddress, ExperimentAddress or EvaluatorAddress object.");
    }
    const { kind, id, environment } = value;
    if (kind === "EVALUATOR")
        return { kind };
    if (kind === "EXPERIMENT") {
        if (typeof id !== "string" || !UUID_PATTERN.test(id)) {
            throw new Error(`Experiment id must be a UUID, got ${JSON.stringify(id)}.`);
        }
        return { kind, id: id.toLowerCase() };
    }
    if (kind !== "AGENT") {
        throw new Error("address must be an AgentAddress, ExperimentAddress or EvaluatorAddress object.");
    }
    if (typeof id !== "string" || !AGENT_ID_PATTERN.test(id)) {
        throw new Error("Address agent id must be 1 to 63 lowercase ASCII letters, digits, or " +
            "hyphens, start with a letter, and end with a letter or digit, got " +
            `${JSON.stringify(id)}. Use an id such as "support-agent".`);
    }
    const normalized = typeof environment === "string" ? environment.toLowerCase() : undefined;
    if (normalized === undefined || !ENVIRONMENTS.includes(normalized)) {
        throw new Error(`Address environment must be one of ${ENVIRONMENTS.join(", ")}, got ${JSON.stringify(environment)}.`);
    }
    return {
        kind,
        id,
        environment: normalized.toUpperCase(),
    };
}
function ensureAgent(value) {
    const address = ensureAddress(value);
    if (address && address.kind !== "AGENT") {
        throw new Error(`Only an AgentAddress can receive traces, got ${address.kind}.`);
    }
    return address;
}
/** @internal Convert a validated address to the ingestion wire format. */
function addressToLrn(address) {
    return `lrn:agents/${address.id}/environments/${address.environment.toLowerCase()}`;
}
/** @internal Parse and validate an address from untrusted wire data. */
function addressFromLrn(value) {
    const match = typeof value === "string" ? LRN_PATTERN.exec(value) : null;
    if (!match)
        throw new Error("Not an agent address.");
    return ensureAgent({ kind: "AGENT", id: match[1], environment: match[2] });
}
/** @internal Read and validate the address named by environment variables. */
function addressFromEnv() {
    const values = ENV_NAMES.map((name) => env_getEnvironmentVariable(name));
    if (!values.some(Boolean))
        return undefined;
    try {
        const missing = ENV_NAMES.filter((_, i) => !values[i]);
        if (missing.length)
            throw new Error(`An address needs ${missing.join(" and ")} as well.`);
        return ensureAgent({
            kind: "AGENT",
            id: values[0],
            environment: values[1],
        });
    }
    catch (e) {
        throw new EnvAddressError(`The LANGSMITH_AGENT_* env vars can't address a run: ${e.message}`);
    }
}
/** @internal The environment variable names an address reads. */
function envNames() {
    return ENV_NAMES;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/api_url.mjs
function getOpenAPIBaseUrl(apiUrl) {
    const url = apiUrl.replace(/\/$/, "");
    for (const suffix of ["/api/v1", "/api"]) {
        if (url.endsWith(suffix))
            return url.slice(0, -suffix.length);
    }
    return url;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/experimental/otel/constants.mjs
// OpenTelemetry GenAI semantic convention attribute names
const GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
const GEN_AI_SYSTEM = "gen_ai.system";
const GEN_AI_REQUEST_MODEL = "gen_ai.request.model";
const GEN_AI_RESPONSE_MODEL = "gen_ai.response.model";
const GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens";
const GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
const GEN_AI_USAGE_TOTAL_TOKENS = "gen_ai.usage.total_tokens";
const GEN_AI_REQUEST_MAX_TOKENS = "gen_ai.request.max_tokens";
const GEN_AI_REQUEST_TEMPERATURE = "gen_ai.request.temperature";
const GEN_AI_REQUEST_TOP_P = "gen_ai.request.top_p";
const GEN_AI_REQUEST_FREQUENCY_PENALTY = "gen_ai.request.frequency_penalty";
const GEN_AI_REQUEST_PRESENCE_PENALTY = "gen_ai.request.presence_penalty";
const GEN_AI_RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons";
const GENAI_PROMPT = "gen_ai.prompt";
const GENAI_COMPLETION = "gen_ai.completion";
const GEN_AI_REQUEST_EXTRA_QUERY = "gen_ai.request.extra_query";
const GEN_AI_REQUEST_EXTRA_BODY = "gen_ai.request.extra_body";
const GEN_AI_SERIALIZED_NAME = "gen_ai.serialized.name";
const GEN_AI_SERIALIZED_SIGNATURE = "gen_ai.serialized.signature";
const GEN_AI_SERIALIZED_DOC = "gen_ai.serialized.doc";
const GEN_AI_RESPONSE_ID = "gen_ai.response.id";
const GEN_AI_TOOL_NAME = "gen_ai.tool.name";
const GEN_AI_TOOL_CALL_ID = "gen_ai.tool.call.id";
const GEN_AI_TOOL_DEFINITIONS = "gen_ai.tool.definitions";
const GEN_AI_RESPONSE_SERVICE_TIER = "gen_ai.response.service_tier";
const GEN_AI_RESPONSE_SYSTEM_FINGERPRINT = "gen_ai.response.system_fingerprint";
const GEN_AI_USAGE_INPUT_TOKEN_DETAILS = "gen_ai.usage.input_token_details";
const GEN_AI_USAGE_OUTPUT_TOKEN_DETAILS = "gen_ai.usage.output_token_details";
// LangSmith custom attributes
const LANGSMITH_SESSION_ID = "langsmith.trace.session_id";
const LANGSMITH_SESSION_NAME = "langsmith.trace.session_name";
const LANGSMITH_RUN_TYPE = "langsmith.span.kind";
const LANGSMITH_NAME = "langsmith.trace.name";
const LANGSMITH_METADATA = "langsmith.metadata";
const LANGSMITH_TAGS = "langsmith.span.tags";
const LANGSMITH_RUNTIME = "langsmith.span.runtime";
const LANGSMITH_REQUEST_STREAMING = "langsmith.request.streaming";
const LANGSMITH_REQUEST_HEADERS = "langsmith.request.headers";
const LANGSMITH_RUN_ID = "langsmith.span.id";
const LANGSMITH_TRACE_ID = "langsmith.trace.id";
const LANGSMITH_DOTTED_ORDER = "langsmith.span.dotted_order";
const LANGSMITH_PARENT_RUN_ID = "langsmith.span.parent_id";
const LANGSMITH_USAGE_METADATA = "langsmith.usage_metadata";
const LANGSMITH_REFERENCE_EXAMPLE_ID = "langsmith.reference_example_id";
const LANGSMITH_TRACEABLE = "langsmith.traceable";
const LANGSMITH_IS_ROOT = "langsmith.is_root";
const LANGSMITH_TRACEABLE_PARENT_OTEL_SPAN_ID = "langsmith.traceable_parent_otel_span_id";
// GenAI event names
const GEN_AI_SYSTEM_MESSAGE = "gen_ai.system.message";
const GEN_AI_USER_MESSAGE = "gen_ai.user.message";
const GEN_AI_ASSISTANT_MESSAGE = "gen_ai.assistant.message";
const GEN_AI_CHOICE = "gen_ai.choice";
const AI_SDK_LLM_OPERATIONS = (/* unused pure expression or super */ null && ([
    "ai.generateText.doGenerate",
    "ai.streamText.doStream",
    "ai.generateObject.doGenerate",
    "ai.streamObject.doStream",
]));
const AI_SDK_TOOL_OPERATIONS = (/* unused pure expression or super */ null && (["ai.toolCall"]));

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/singletons/otel.mjs
// Should not import any OTEL packages to avoid pulling in optional deps.

class MockTracer {
    constructor() {
        Object.defineProperty(this, "hasWarned", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: false
        });
    }
    startActiveSpan(_name, ...args) {
        if (!this.hasWarned && resolveTracingMode() === "otel") {
            console.warn("OTel tracing mode is active (via LANGSMITH_TRACING_MODE, OTEL_ENABLED, or " +
                "LANGSMITH_OTEL_ENABLED), but the required OTEL instances have not been initialized. " +
                'Please add:\n```\nimport { initializeOTEL } from "langsmith/experimental/otel/setup";\ninitializeOTEL();\n```\nat the beginning of your code.');
            this.hasWarned = true;
        }
        // Handle different overloads:
        // startActiveSpan(name, fn)
        // startActiveSpan(name, options, fn)
        // startActiveSpan(name, options, context, fn)
        let fn;
        if (args.length === 1 && typeof args[0] === "function") {
            fn = args[0];
        }
        else if (args.length === 2 && typeof args[1] === "function") {
            fn = args[1];
        }
        else if (args.length === 3 && typeof args[2] === "function") {
            fn = args[2];
        }
        if (typeof fn === "function") {
            return fn();
        }
        return undefined;
    }
}
class MockOTELTrace {
    constructor() {
        Object.defineProperty(this, "mockTracer", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new MockTracer()
        });
    }
    getTracer(_name, _version) {
        return this.mockTracer;
    }
    getActiveSpan() {
        return undefined;
    }
    setSpan(context, _span) {
        return context;
    }
    getSpan(_context) {
        return undefined;
    }
    setSpanContext(context, _spanContext) {
        return context;
    }
    getTracerProvider() {
        return undefined;
    }
    setGlobalTracerProvider(_tracerProvider) {
        return false;
    }
}
class MockOTELContext {
    active() {
        return {};
    }
    with(_context, fn) {
        return fn();
    }
}
const OTEL_TRACE_KEY = Symbol.for("ls:otel_trace");
const OTEL_CONTEXT_KEY = Symbol.for("ls:otel_context");
const OTEL_GET_DEFAULT_OTLP_TRACER_PROVIDER_KEY = Symbol.for("ls:otel_get_default_otlp_tracer_provider");
const mockOTELTrace = new MockOTELTrace();
const mockOTELContext = new MockOTELContext();
class OTELProvider {
    getTraceInstance() {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return globalThis[OTEL_TRACE_KEY] ?? mockOTELTrace;
    }
    getContextInstance() {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return globalThis[OTEL_CONTEXT_KEY] ?? mockOTELContext;
    }
    initializeGlobalInstances(otel) {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        if (globalThis[OTEL_TRACE_KEY] === undefined) {
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            globalThis[OTEL_TRACE_KEY] = otel.trace;
        }
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        if (globalThis[OTEL_CONTEXT_KEY] === undefined) {
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            globalThis[OTEL_CONTEXT_KEY] = otel.context;
        }
    }
    setDefaultOTLPTracerComponents(components) {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        globalThis[OTEL_GET_DEFAULT_OTLP_TRACER_PROVIDER_KEY] = components;
    }
    getDefaultOTLPTracerComponents() {
        return (globalThis[OTEL_GET_DEFAULT_OTLP_TRACER_PROVIDER_KEY] ??
            undefined);
    }
}
const OTELProviderSingleton = new OTELProvider();
/**
 * Get the current OTEL trace instance.
 * Returns a mock implementation if OTEL is not available.
 */
function getOTELTrace() {
    return OTELProviderSingleton.getTraceInstance();
}
/**
 * Get the current OTEL context instance.
 * Returns a mock implementation if OTEL is not available.
 */
function getOTELContext() {
    return OTELProviderSingleton.getContextInstance();
}
/**
 * Initialize the global OTEL instances.
 * Should be called once when OTEL packages are available.
 */
function setOTELInstances(otel) {
    OTELProviderSingleton.initializeGlobalInstances(otel);
}
/**
 * Set a getter function for the default OTLP tracer provider.
 * This allows lazy initialization of the tracer provider.
 */
function setDefaultOTLPTracerComponents(components) {
    OTELProviderSingleton.setDefaultOTLPTracerComponents(components);
}
/**
 * Get the default OTLP tracer provider instance.
 * Returns undefined if not set.
 */
function getDefaultOTLPTracerComponents() {
    return OTELProviderSingleton.getDefaultOTLPTracerComponents();
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/experimental/otel/translator.mjs


const WELL_KNOWN_OPERATION_NAMES = {
    llm: "chat",
    tool: "execute_tool",
    retriever: "embeddings",
    embedding: "embeddings",
    prompt: "chat",
};
function getOperationName(runType) {
    return WELL_KNOWN_OPERATION_NAMES[runType] || runType;
}
function isPrimitive(value) {
    return (typeof value === "string" ||
        typeof value === "number" ||
        typeof value === "boolean");
}
class LangSmithToOTELTranslator {
    constructor() {
        Object.defineProperty(this, "spans", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Map()
        });
    }
    exportBatch(operations, otelContextMap) {
        for (const op of operations) {
            try {
                if (!op.run) {
                    continue;
                }
                if (op.operation === "post") {
                    const span = this.createSpanForRun(op, op.run, otelContextMap.get(op.id));
                    if (span && !op.run.end_time) {
                        this.spans.set(op.id, span);
                    }
                }
                else {
                    this.updateSpanForRun(op, op.run);
                }
            }
            catch (e) {
                console.error(`Error processing operation ${op.id}:`, e);
            }
        }
    }
    createSpanForRun(op, runInfo, otelContext) {
        const activeSpan = otelContext && getOTELTrace().getSpan(otelContext);
        if (!activeSpan) {
            return;
        }
        try {
            return this.finishSpanSetup(activeSpan, runInfo, op);
        }
        catch (e) {
            console.error(`Failed to create span for run ${op.id}:`, e);
            return undefined;
        }
    }
    finishSpanSetup(span, runInfo, op) {
        // Set all attributes
        this.setSpanAttributes(span, runInfo, op);
        // Set status based on error
        if (runInfo.error) {
            span.setStatus({ code: 2 }); // ERROR status
            span.recordException(new Error(runInfo.error));
        }
        else {
            span.setStatus({ code: 1 }); // OK status
        }
        // End the span if end_time is present
        if (runInfo.end_time) {
            span.end(new Date(runInfo.end_time));
        }
        return span;
    }
    updateSpanForRun(op, runInfo) {
        try {
            const span = this.spans.get(op.id);
            if (!span) {
                console.debug(`No span found for run ${op.id} during update`);
                return;
            }
            // Update attributes
            this.setSpanAttributes(span, runInfo, op);
            // Update status based on error
            if (runInfo.error) {
                span.setStatus({ code: 2 }); // ERROR status
                span.recordException(new Error(runInfo.error));
            }
            else {
                span.setStatus({ code: 1 }); // OK status
            }
            // End the span if end_time is present
            const endTime = runInfo.end_time;
            if (endTime) {
                span.end(new Date(endTime));
                this.spans.delete(op.id);
            }
        }
        catch (e) {
            console.error(`Failed to update span for run ${op.id}:`, e);
        }
    }
    extractModelName(runInfo) {
        // Try to get model name from metadata
        if (runInfo.extra?.metadata) {
            const metadata = runInfo.extra.metadata;
            // First check for ls_model_name in metadata
            if (metadata.ls_model_name) {
                return metadata.ls_model_name;
            }
            // Then check invocation_params for model info
            if (metadata.invocation_params) {
                const invocationParams = metadata.invocation_params;
                if (invocationParams.model) {
                    return invocationParams.model;
                }
                else if (invocationParams.model_name) {
                    return invocationParams.model_name;
                }
            }
        }
        return;
    }
    setSpanAttributes(span, runInfo, op) {
        if ("run_type" in runInfo && runInfo.run_type) {
            span.setAttribute(LANGSMITH_RUN_TYPE, runInfo.run_type);
            // Set GenAI attributes according to OTEL semantic conventions
            const operationName = getOperationName(runInfo.run_type || "chain");
            span.setAttribute(GEN_AI_OPERATION_NAME, operationName);
        }
        if ("name" in runInfo && runInfo.name) {
            span.setAttribute(LANGSMITH_NAME, runInfo.name);
        }
        if ("session_id" in runInfo && runInfo.session_id) {
            span.setAttribute(LANGSMITH_SESSION_ID, runInfo.session_id);
        }
        if ("session_name" in runInfo && runInfo.session_name) {
            span.setAttribute(LANGSMITH_SESSION_NAME, runInfo.session_name);
        }
        // Set gen_ai.system
        this.setGenAiSystem(span, runInfo);
        // Set model name if available
        const modelName = this.extractModelName(runInfo);
        if (modelName) {
            span.setAttribute(GEN_AI_REQUEST_MODEL, modelName);
        }
        // Set usage from metadata if available
        // This can be overriden by `run.outputs.usage_metadata` later if present.
        if (runInfo.extra?.metadata?.usage_metadata &&
            typeof runInfo.extra.metadata.usage_metadata === "object") {
            span.setAttribute(LANGSMITH_USAGE_METADATA, JSON.stringify(runInfo.extra.metadata.usage_metadata));
        }
        // Set token usage information
        if ("prompt_tokens" in runInfo &&
            typeof runInfo.prompt_tokens === "number") {
            span.setAttribute(GEN_AI_USAGE_INPUT_TOKENS, runInfo.prompt_tokens);
        }
        if ("completion_tokens" in runInfo &&
            typeof runInfo.completion_tokens === "number") {
            span.setAttribute(GEN_AI_USAGE_OUTPUT_TOKENS, runInfo.completion_tokens);
        }
        if ("total_tokens" in runInfo && typeof runInfo.total_tokens === "number") {
            span.setAttribute(GEN_AI_USAGE_TOTAL_TOKENS, runInfo.total_tokens);
        }
        // Set other parameters from invocation_params
        this.setInvocationParameters(span, runInfo);
        if ("run_type" in runInfo && runInfo.run_type === "tool") {
            if ("name" in runInfo && runInfo.name) {
                span.setAttribute(GEN_AI_TOOL_NAME, runInfo.name);
            }
            // Match Python: prefer extra.tool_call_id over metadata.tool_call_id.
            const toolCallId = runInfo.extra?.tool_call_id || runInfo.extra?.metadata?.tool_call_id;
            if (toolCallId != null) {
                span.setAttribute(GEN_AI_TOOL_CALL_ID, String(toolCallId));
            }
        }
        // Set metadata and tags if available
        const metadata = runInfo.extra?.metadata || {};
        for (const [key, value] of Object.entries(metadata)) {
            if (value !== null && value !== undefined) {
                span.setAttribute(`${LANGSMITH_METADATA}.${key}`, isPrimitive(value) ? String(value) : JSON.stringify(value));
            }
        }
        const tags = runInfo.tags;
        if (tags && Array.isArray(tags)) {
            span.setAttribute(LANGSMITH_TAGS, tags.join(", "));
        }
        else if (tags) {
            span.setAttribute(LANGSMITH_TAGS, String(tags));
        }
        // Support additional serialized attributes, if present
        if ("serialized" in runInfo && typeof runInfo.serialized === "object") {
            const serialized = runInfo.serialized;
            if (serialized.name) {
                span.setAttribute(GEN_AI_SERIALIZED_NAME, String(serialized.name));
            }
            if (serialized.signature) {
                span.setAttribute(GEN_AI_SERIALIZED_SIGNATURE, String(serialized.signature));
            }
            if (serialized.doc) {
                span.setAttribute(GEN_AI_SERIALIZED_DOC, String(serialized.doc));
            }
        }
        // Set inputs/outputs if available
        this.setIOAttributes(span, op);
    }
    setGenAiSystem(span, runInfo) {
        // Default to "langchain" if we can't determine the system
        let system = "langchain";
        // Extract model name to determine the system
        const modelName = this.extractModelName(runInfo);
        if (modelName) {
            const modelLower = modelName.toLowerCase();
            if (modelLower.includes("anthropic") || modelLower.startsWith("claude")) {
                system = "anthropic";
            }
            else if (modelLower.includes("bedrock")) {
                system = "aws.bedrock";
            }
            else if (modelLower.includes("azure") &&
                modelLower.includes("openai")) {
                system = "az.ai.openai";
            }
            else if (modelLower.includes("azure") &&
                modelLower.includes("inference")) {
                system = "az.ai.inference";
            }
            else if (modelLower.includes("cohere")) {
                system = "cohere";
            }
            else if (modelLower.includes("deepseek")) {
                system = "deepseek";
            }
            else if (modelLower.includes("gemini")) {
                system = "gemini";
            }
            else if (modelLower.includes("groq")) {
                system = "groq";
            }
            else if (modelLower.includes("watson") || modelLower.includes("ibm")) {
                system = "ibm.watsonx.ai";
            }
            else if (modelLower.includes("mistral")) {
                system = "mistral_ai";
            }
            else if (modelLower.includes("gpt") || modelLower.includes("openai")) {
                system = "openai";
            }
            else if (modelLower.includes("perplexity") ||
                modelLower.includes("sonar")) {
                system = "perplexity";
            }
            else if (modelLower.includes("vertex")) {
                system = "vertex_ai";
            }
            else if (modelLower.includes("xai") || modelLower.includes("grok")) {
                system = "xai";
            }
        }
        span.setAttribute(GEN_AI_SYSTEM, system);
    }
    setInvocationParameters(span, runInfo) {
        const tools = runInfo.extra?.invocation_params?.tools;
        if (Array.isArray(tools) && tools.length > 0) {
            span.setAttribute(GEN_AI_TOOL_DEFINITIONS, JSON.stringify(tools));
        }
        if (!runInfo.extra?.metadata?.invocation_params) {
            return;
        }
        const invocationParams = runInfo.extra.metadata.invocation_params;
        // Set relevant invocation parameters
        if (invocationParams.max_tokens !== undefined) {
            span.setAttribute(GEN_AI_REQUEST_MAX_TOKENS, invocationParams.max_tokens);
        }
        if (invocationParams.temperature !== undefined) {
            span.setAttribute(GEN_AI_REQUEST_TEMPERATURE, invocationParams.temperature);
        }
        if (invocationParams.top_p !== undefined) {
            span.setAttribute(GEN_AI_REQUEST_TOP_P, invocationParams.top_p);
        }
        if (invocationParams.frequency_penalty !== undefined) {
            span.setAttribute(GEN_AI_REQUEST_FREQUENCY_PENALTY, invocationParams.frequency_penalty);
        }
        if (invocationParams.presence_penalty !== undefined) {
            span.setAttribute(GEN_AI_REQUEST_PRESENCE_PENALTY, invocationParams.presence_penalty);
        }
    }
    setIOAttributes(span, op) {
        if (op.run.inputs) {
            try {
                const inputs = op.run.inputs;
                if (typeof inputs === "object" && inputs !== null) {
                    if (inputs.model && Array.isArray(inputs.messages)) {
                        span.setAttribute(GEN_AI_REQUEST_MODEL, inputs.model);
                    }
                    // Set additional request attributes if available
                    if (inputs.stream !== undefined) {
                        span.setAttribute(LANGSMITH_REQUEST_STREAMING, inputs.stream);
                    }
                    if (inputs.extra_headers) {
                        span.setAttribute(LANGSMITH_REQUEST_HEADERS, JSON.stringify(inputs.extra_headers));
                    }
                    if (inputs.extra_query) {
                        span.setAttribute(GEN_AI_REQUEST_EXTRA_QUERY, JSON.stringify(inputs.extra_query));
                    }
                    if (inputs.extra_body) {
                        span.setAttribute(GEN_AI_REQUEST_EXTRA_BODY, JSON.stringify(inputs.extra_body));
                    }
                }
                span.setAttribute(GENAI_PROMPT, JSON.stringify(inputs));
            }
            catch (e) {
                console.debug(`Failed to process inputs for run ${op.id}`, e);
            }
        }
        if (op.run.outputs) {
            try {
                const outputs = op.run.outputs;
                // Extract token usage from outputs (for LLM runs)
                const tokenUsage = this.getUnifiedRunTokens(outputs);
                if (tokenUsage) {
                    span.setAttribute(GEN_AI_USAGE_INPUT_TOKENS, tokenUsage[0]);
                    span.setAttribute(GEN_AI_USAGE_OUTPUT_TOKENS, tokenUsage[1]);
                    span.setAttribute(GEN_AI_USAGE_TOTAL_TOKENS, tokenUsage[0] + tokenUsage[1]);
                }
                if (outputs && typeof outputs === "object") {
                    if (outputs.model) {
                        span.setAttribute(GEN_AI_RESPONSE_MODEL, String(outputs.model));
                    }
                    // Extract additional response attributes
                    if (outputs.id) {
                        span.setAttribute(GEN_AI_RESPONSE_ID, outputs.id);
                    }
                    if (outputs.choices && Array.isArray(outputs.choices)) {
                        const finishReasons = outputs.choices
                            // eslint-disable-next-line @typescript-eslint/no-explicit-any
                            .map((choice) => choice.finish_reason)
                            // eslint-disable-next-line @typescript-eslint/no-explicit-any
                            .filter((reason) => reason)
                            .map(String);
                        if (finishReasons.length > 0) {
                            span.setAttribute(GEN_AI_RESPONSE_FINISH_REASONS, finishReasons.join(", "));
                        }
                    }
                    if (outputs.service_tier) {
                        span.setAttribute(GEN_AI_RESPONSE_SERVICE_TIER, outputs.service_tier);
                    }
                    if (outputs.system_fingerprint) {
                        span.setAttribute(GEN_AI_RESPONSE_SYSTEM_FINGERPRINT, outputs.system_fingerprint);
                    }
                    if (outputs.usage_metadata &&
                        typeof outputs.usage_metadata === "object") {
                        const usageMetadata = outputs.usage_metadata;
                        // Set usage from outputs if available
                        // This overrides the usage from metadata if present.
                        span.setAttribute(LANGSMITH_USAGE_METADATA, JSON.stringify(usageMetadata));
                        if (usageMetadata.input_token_details) {
                            span.setAttribute(GEN_AI_USAGE_INPUT_TOKEN_DETAILS, JSON.stringify(usageMetadata.input_token_details));
                        }
                        if (usageMetadata.output_token_details) {
                            span.setAttribute(GEN_AI_USAGE_OUTPUT_TOKEN_DETAILS, JSON.stringify(usageMetadata.output_token_details));
                        }
                    }
                }
                span.setAttribute(GENAI_COMPLETION, JSON.stringify(outputs));
            }
            catch (e) {
                console.debug(`Failed to process outputs for run ${op.id}`, e);
            }
        }
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    getUnifiedRunTokens(outputs) {
        if (!outputs) {
            return null;
        }
        // Search in non-generations lists
        let tokenUsage = this.extractUnifiedRunTokens(outputs.usage_metadata);
        if (tokenUsage) {
            return tokenUsage;
        }
        // Find if direct kwarg in outputs
        const keys = Object.keys(outputs);
        for (const key of keys) {
            const haystack = outputs[key];
            if (!haystack || typeof haystack !== "object") {
                continue;
            }
            tokenUsage = this.extractUnifiedRunTokens(haystack.usage_metadata);
            if (tokenUsage) {
                return tokenUsage;
            }
            if (haystack.lc === 1 &&
                haystack.kwargs &&
                typeof haystack.kwargs === "object") {
                tokenUsage = this.extractUnifiedRunTokens(haystack.kwargs.usage_metadata);
                if (tokenUsage) {
                    return tokenUsage;
                }
            }
        }
        // Find in generations
        const generations = outputs.generations || [];
        if (!Array.isArray(generations)) {
            return null;
        }
        const flatGenerations = Array.isArray(generations[0])
            ? generations.flat()
            : generations;
        for (const generation of flatGenerations) {
            if (typeof generation === "object" &&
                generation.message &&
                typeof generation.message === "object" &&
                generation.message.kwargs &&
                typeof generation.message.kwargs === "object") {
                tokenUsage = this.extractUnifiedRunTokens(generation.message.kwargs.usage_metadata);
                if (tokenUsage) {
                    return tokenUsage;
                }
            }
        }
        return null;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    extractUnifiedRunTokens(outputs) {
        if (!outputs || typeof outputs !== "object") {
            return null;
        }
        if (typeof outputs.input_tokens !== "number" ||
            typeof outputs.output_tokens !== "number") {
            return null;
        }
        return [outputs.input_tokens, outputs.output_tokens];
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/is-network-error/index.mjs
/* eslint-disable */
// @ts-nocheck
// is-network-error vendored to avoid import issues
// Source: https://github.com/sindresorhus/is-network-error
const objectToString = Object.prototype.toString;
const isError = (value) => objectToString.call(value) === "[object Error]";
const errorMessages = new Set([
    "network error", // Chrome
    "Failed to fetch", // Chrome
    "NetworkError when attempting to fetch resource.", // Firefox
    "The Internet connection appears to be offline.", // Safari 16
    "Network request failed", // `cross-fetch`
    "fetch failed", // Undici (Node.js)
    "terminated", // Undici (Node.js)
    " A network error occurred.", // Bun (WebKit)
    "Network connection lost", // Cloudflare Workers (fetch)
]);
function isNetworkError(error) {
    const isValid = error &&
        isError(error) &&
        error.name === "TypeError" &&
        typeof error.message === "string";
    if (!isValid) {
        return false;
    }
    const { message, stack } = error;
    // Safari 17+ has generic message but no stack for network errors
    if (message === "Load failed") {
        return (stack === undefined ||
            // Sentry adds its own stack trace to the fetch error, so also check for that
            "__sentry_captured__" in error);
    }
    // Deno network errors start with specific text
    if (message.startsWith("error sending request for url")) {
        return true;
    }
    // Standard network error messages
    return errorMessages.has(message);
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/p-retry/index.mjs
/* eslint-disable */
// @ts-nocheck
// p-retry code vendored to avoid import issues
// Source: https://github.com/sindresorhus/p-retry

function validateRetries(retries) {
    if (typeof retries === "number") {
        if (retries < 0) {
            throw new TypeError("Expected `retries` to be a non-negative number.");
        }
        if (Number.isNaN(retries)) {
            throw new TypeError("Expected `retries` to be a valid number or Infinity, got NaN.");
        }
    }
    else if (retries !== undefined) {
        throw new TypeError("Expected `retries` to be a number or Infinity.");
    }
}
function validateNumberOption(name, value, { min = 0, allowInfinity = false } = {}) {
    if (value === undefined) {
        return;
    }
    if (typeof value !== "number" || Number.isNaN(value)) {
        throw new TypeError(`Expected \`${name}\` to be a number${allowInfinity ? " or Infinity" : ""}.`);
    }
    if (!allowInfinity && !Number.isFinite(value)) {
        throw new TypeError(`Expected \`${name}\` to be a finite number.`);
    }
    if (value < min) {
        throw new TypeError(`Expected \`${name}\` to be \u2265 ${min}.`);
    }
}
class AbortError extends Error {
    constructor(message) {
        super();
        if (message instanceof Error) {
            this.originalError = message;
            ({ message } = message);
        }
        else {
            this.originalError = new Error(message);
            this.originalError.stack = this.stack;
        }
        this.name = "AbortError";
        this.message = message;
    }
}
function calculateDelay(retriesConsumed, options) {
    const attempt = Math.max(1, retriesConsumed + 1);
    const random = options.randomize ? Math.random() + 1 : 1;
    let timeout = Math.round(random * options.minTimeout * options.factor ** (attempt - 1));
    timeout = Math.min(timeout, options.maxTimeout);
    return timeout;
}
function calculateRemainingTime(start, max) {
    if (!Number.isFinite(max)) {
        return max;
    }
    return max - (performance.now() - start);
}
async function onAttemptFailure({ error, attemptNumber, retriesConsumed, startTime, options, }) {
    const normalizedError = error instanceof Error
        ? error
        : new TypeError(`Non-error was thrown: "${error}". You should only throw errors.`);
    if (normalizedError instanceof AbortError) {
        throw normalizedError.originalError;
    }
    const retriesLeft = Number.isFinite(options.retries)
        ? Math.max(0, options.retries - retriesConsumed)
        : options.retries;
    const maxRetryTime = options.maxRetryTime ?? Number.POSITIVE_INFINITY;
    const context = Object.freeze({
        error: normalizedError,
        attemptNumber,
        retriesLeft,
        retriesConsumed,
    });
    await options.onFailedAttempt(context);
    if (calculateRemainingTime(startTime, maxRetryTime) <= 0) {
        throw normalizedError;
    }
    const consumeRetry = await options.shouldConsumeRetry(context);
    const remainingTime = calculateRemainingTime(startTime, maxRetryTime);
    if (remainingTime <= 0 || retriesLeft <= 0) {
        throw normalizedError;
    }
    if (normalizedError instanceof TypeError &&
        !isNetworkError(normalizedError)) {
        if (consumeRetry) {
            throw normalizedError;
        }
        options.signal?.throwIfAborted();
        return false;
    }
    if (!(await options.shouldRetry(context))) {
        throw normalizedError;
    }
    if (!consumeRetry) {
        options.signal?.throwIfAborted();
        return false;
    }
    const delayTime = calculateDelay(retriesConsumed, options);
    const finalDelay = Math.min(delayTime, remainingTime);
    if (finalDelay > 0) {
        await new Promise((resolve, reject) => {
            const onAbort = () => {
                clearTimeout(timeoutToken);
                options.signal?.removeEventListener("abort", onAbort);
                reject(options.signal.reason);
            };
            const timeoutToken = setTimeout(() => {
                options.signal?.removeEventListener("abort", onAbort);
                resolve();
            }, finalDelay);
            if (options.unref) {
                timeoutToken.unref?.();
            }
            options.signal?.addEventListener("abort", onAbort, { once: true });
        });
    }
    options.signal?.throwIfAborted();
    return true;
}
async function pRetry(input, options = {}) {
    options = { ...options };
    validateRetries(options.retries);
    if (Object.hasOwn(options, "forever")) {
        throw new Error("The `forever` option is no longer supported. For many use-cases, you can set `retries: Infinity` instead.");
    }
    options.retries ?? (options.retries = 10);
    options.factor ?? (options.factor = 2);
    options.minTimeout ?? (options.minTimeout = 1000);
    options.maxTimeout ?? (options.maxTimeout = Number.POSITIVE_INFINITY);
    options.maxRetryTime ?? (options.maxRetryTime = Number.POSITIVE_INFINITY);
    options.randomize ?? (options.randomize = false);
    options.onFailedAttempt ?? (options.onFailedAttempt = () => { });
    options.shouldRetry ?? (options.shouldRetry = () => true);
    options.shouldConsumeRetry ?? (options.shouldConsumeRetry = () => true);
    // Validate numeric options and normalize edge cases
    validateNumberOption("factor", options.factor, {
        min: 0,
        allowInfinity: false,
    });
    validateNumberOption("minTimeout", options.minTimeout, {
        min: 0,
        allowInfinity: false,
    });
    validateNumberOption("maxTimeout", options.maxTimeout, {
        min: 0,
        allowInfinity: true,
    });
    validateNumberOption("maxRetryTime", options.maxRetryTime, {
        min: 0,
        allowInfinity: true,
    });
    // Treat non-positive factor as 1 to avoid zero backoff or negative behavior
    if (!(options.factor > 0)) {
        options.factor = 1;
    }
    options.signal?.throwIfAborted();
    let attemptNumber = 0;
    let retriesConsumed = 0;
    const startTime = performance.now();
    while (Number.isFinite(options.retries) ? retriesConsumed <= options.retries : true) {
        attemptNumber++;
        try {
            options.signal?.throwIfAborted();
            const result = await input(attemptNumber);
            options.signal?.throwIfAborted();
            return result;
        }
        catch (error) {
            if (await onAttemptFailure({
                error,
                attemptNumber,
                retriesConsumed,
                startTime,
                options,
            })) {
                retriesConsumed++;
            }
        }
    }
    // Should not reach here, but in case it does, throw an error
    throw new Error("Retry attempts exhausted without throwing an error.");
}
function makeRetriable(function_, options) {
    return function (...arguments_) {
        return pRetry(() => function_.apply(this, arguments_), options);
    };
}

// EXTERNAL MODULE: ./node_modules/p-queue/dist/index.js
var dist = __webpack_require__(6459);
;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/p-queue.mjs

// Helper to handle both default and named exports of p-queue
const PQueue = ( true ? dist["default"] : dist);

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/async_caller.mjs


const STATUS_RETRYABLE = [
    408, // Request Timeout
    425, // Too Early
    429, // Too Many Requests
    500, // Internal Server Error
    502, // Bad Gateway
    503, // Service Unavailable
    504, // Gateway Timeout
];
/**
 * A class that can be used to make async calls with concurrency and retry logic.
 *
 * This is useful for making calls to any kind of "expensive" external resource,
 * be it because it's rate-limited, subject to network issues, etc.
 *
 * Concurrent calls are limited by the `maxConcurrency` parameter, which defaults
 * to `Infinity`. This means that by default, all calls will be made in parallel.
 *
 * Retries are limited by the `maxRetries` parameter, which defaults to 6. This
 * means that by default, each call will be retried up to 6 times, with an
 * exponential backoff between each attempt.
 */
class AsyncCaller {
    constructor(params) {
        Object.defineProperty(this, "maxConcurrency", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "maxRetries", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "maxQueueSizeBytes", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "queue", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "onFailedResponseHook", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "queueSizeBytes", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: 0
        });
        this.maxConcurrency = params.maxConcurrency ?? Infinity;
        this.maxRetries = params.maxRetries ?? 6;
        this.maxQueueSizeBytes = params.maxQueueSizeBytes;
        this.queue = new PQueue({ concurrency: this.maxConcurrency });
        this.onFailedResponseHook = params?.onFailedResponseHook;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    call(callable, ...args) {
        return this.callWithOptions({}, callable, ...args);
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    callWithOptions(options, callable, ...args) {
        const sizeBytes = options.sizeBytes ?? 0;
        // Check if adding this call would exceed the byte size limit
        if (this.maxQueueSizeBytes !== undefined &&
            sizeBytes > 0 &&
            this.queueSizeBytes + sizeBytes > this.maxQueueSizeBytes) {
            return Promise.reject(new Error(`Queue size limit (${this.maxQueueSizeBytes} bytes) exceeded. ` +
                `Current queue size: ${this.queueSizeBytes} bytes, attempted addition: ${sizeBytes} bytes.`));
        }
        // Add to queue size tracking
        if (sizeBytes > 0) {
            this.queueSizeBytes += sizeBytes;
        }
        const onFailedResponseHook = this.onFailedResponseHook;
        let promise = this.queue.add(() => pRetry(() => callable(...args).catch((error) => {
            if (error instanceof Error) {
                throw error;
            }
            else {
                throw new Error(error);
            }
        }), {
            async onFailedAttempt({ error }) {
                // Rethrow the value if it's not an object
                if (typeof error !== "object" || error == null)
                    throw error;
                const errorMessage = "message" in error && typeof error.message === "string"
                    ? error.message
                    : undefined;
                if (errorMessage?.startsWith("Cancel") ||
                    errorMessage?.startsWith("TimeoutError") ||
                    errorMessage?.startsWith("AbortError")) {
                    throw error;
                }
                if ("name" in error && error.name === "TimeoutError") {
                    throw error;
                }
                if ("code" in error && error.code === "ECONNABORTED") {
                    throw error;
                }
                const response = "response" in error
                    ? error.response
                    : undefined;
                if (onFailedResponseHook) {
                    const handled = await onFailedResponseHook(response);
                    if (handled)
                        return;
                }
                const status = response?.status ??
                    ("status" in error ? error.status : undefined);
                if (status != null &&
                    (typeof status === "number" || typeof status === "string") &&
                    !STATUS_RETRYABLE.includes(+status)) {
                    throw error;
                }
            },
            retries: this.maxRetries,
            randomize: true,
        }), { throwOnTimeout: true });
        // Decrement queue size when the call completes (success or failure)
        if (sizeBytes > 0) {
            promise = promise.finally(() => {
                this.queueSizeBytes -= sizeBytes;
            });
        }
        // Handle signal cancellation
        if (options.signal) {
            return Promise.race([
                promise,
                new Promise((_, reject) => {
                    options.signal?.addEventListener("abort", () => {
                        reject(new Error("AbortError"));
                    });
                }),
            ]);
        }
        return promise;
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/messages.mjs
function isLangChainMessage(
// eslint-disable-next-line @typescript-eslint/no-explicit-any
message) {
    return typeof message?._getType === "function";
}
function convertLangChainMessageToExample(message) {
    const converted = {
        type: message._getType(),
        data: { content: message.content },
    };
    // Check for presence of keys in additional_kwargs
    if (message?.additional_kwargs &&
        Object.keys(message.additional_kwargs).length > 0) {
        converted.data.additional_kwargs = { ...message.additional_kwargs };
    }
    return converted;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/tslib.mjs
function __classPrivateFieldSet(receiver, state, value, kind, f) {
    if (kind === "m")
        throw new TypeError("Private method is not writable");
    if (kind === "a" && !f)
        throw new TypeError("Private accessor was defined without a setter");
    if (typeof state === "function" ? receiver !== state || !f : !state.has(receiver))
        throw new TypeError("Cannot write private member to an object whose class did not declare it");
    return kind === "a" ? f.call(receiver, value) : f ? (f.value = value) : state.set(receiver, value), value;
}
function __classPrivateFieldGet(receiver, state, kind, f) {
    if (kind === "a" && !f)
        throw new TypeError("Private accessor was defined without a getter");
    if (typeof state === "function" ? receiver !== state || !f : !state.has(receiver))
        throw new TypeError("Cannot read private member from an object whose class did not declare it");
    return kind === "m" ? f : kind === "a" ? f.call(receiver) : f ? f.value : state.get(receiver);
}


;// CONCATENATED MODULE: ./node_modules/langsmith/internal/utils/uuid.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.
/**
 * https://stackoverflow.com/a/2117523
 */
let uuid4 = function () {
    const { crypto } = globalThis;
    if (crypto?.randomUUID) {
        uuid4 = crypto.randomUUID.bind(crypto);
        return crypto.randomUUID();
    }
    const u8 = new Uint8Array(1);
    const randomByte = crypto ? () => crypto.getRandomValues(u8)[0] : () => (Math.random() * 0xff) & 0xff;
    return '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) => (+c ^ (randomByte() & (15 >> (+c / 4)))).toString(16));
};

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/utils/values.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

// https://url.spec.whatwg.org/#url-scheme-string
const startsWithSchemeRegexp = /^[a-z][a-z0-9+.-]*:/i;
const isAbsoluteURL = (url) => {
    return startsWithSchemeRegexp.test(url);
};
let values_isArray = (val) => ((values_isArray = Array.isArray), values_isArray(val));
let isReadonlyArray = values_isArray;
/** Returns an object if the given value isn't an object, otherwise returns as-is */
function maybeObj(x) {
    if (typeof x !== 'object') {
        return {};
    }
    return x ?? {};
}
// https://stackoverflow.com/a/34491287
function isEmptyObj(obj) {
    if (!obj)
        return true;
    for (const _k in obj)
        return false;
    return true;
}
// https://eslint.org/docs/latest/rules/no-prototype-builtins
function hasOwn(obj, key) {
    return Object.prototype.hasOwnProperty.call(obj, key);
}
function isObj(obj) {
    return obj != null && typeof obj === 'object' && !Array.isArray(obj);
}
const ensurePresent = (value) => {
    if (value == null) {
        throw new LangsmithError(`Expected a value to be given but received ${value} instead.`);
    }
    return value;
};
const validatePositiveInteger = (name, n) => {
    if (typeof n !== 'number' || !Number.isInteger(n)) {
        throw new error_LangsmithError(`${name} must be an integer`);
    }
    if (n < 0) {
        throw new error_LangsmithError(`${name} must be a positive integer`);
    }
    return n;
};
const coerceInteger = (value) => {
    if (typeof value === 'number')
        return Math.round(value);
    if (typeof value === 'string')
        return parseInt(value, 10);
    throw new LangsmithError(`Could not coerce ${value} (type: ${typeof value}) into a number`);
};
const coerceFloat = (value) => {
    if (typeof value === 'number')
        return value;
    if (typeof value === 'string')
        return parseFloat(value);
    throw new LangsmithError(`Could not coerce ${value} (type: ${typeof value}) into a number`);
};
const coerceBoolean = (value) => {
    if (typeof value === 'boolean')
        return value;
    if (typeof value === 'string')
        return value === 'true';
    return Boolean(value);
};
const maybeCoerceInteger = (value) => {
    if (value == null) {
        return undefined;
    }
    return coerceInteger(value);
};
const maybeCoerceFloat = (value) => {
    if (value == null) {
        return undefined;
    }
    return coerceFloat(value);
};
const maybeCoerceBoolean = (value) => {
    if (value == null) {
        return undefined;
    }
    return coerceBoolean(value);
};
const safeJSON = (text) => {
    try {
        return JSON.parse(text);
    }
    catch (err) {
        return undefined;
    }
};

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/utils/sleep.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/detect-platform.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

const isRunningInBrowser = () => {
    return (
    // @ts-ignore
    typeof window !== 'undefined' &&
        // @ts-ignore
        typeof window.document !== 'undefined' &&
        // @ts-ignore
        typeof navigator !== 'undefined');
};
/**
 * Note this does not detect 'browser'; for that, use getBrowserInfo().
 */
function getDetectedPlatform() {
    if (typeof Deno !== 'undefined' && Deno.build != null) {
        return 'deno';
    }
    if (typeof EdgeRuntime !== 'undefined') {
        return 'edge';
    }
    if (Object.prototype.toString.call(typeof globalThis.process !== 'undefined' ? globalThis.process : 0) === '[object process]') {
        return 'node';
    }
    return 'unknown';
}
const getPlatformProperties = () => {
    const detectedPlatform = getDetectedPlatform();
    if (detectedPlatform === 'deno') {
        return {
            'X-Stainless-Lang': 'js',
            'X-Stainless-Package-Version': VERSION,
            'X-Stainless-OS': normalizePlatform(Deno.build.os),
            'X-Stainless-Arch': normalizeArch(Deno.build.arch),
            'X-Stainless-Runtime': 'deno',
            'X-Stainless-Runtime-Version': typeof Deno.version === 'string' ? Deno.version : Deno.version?.deno ?? 'unknown',
        };
    }
    if (typeof EdgeRuntime !== 'undefined') {
        return {
            'X-Stainless-Lang': 'js',
            'X-Stainless-Package-Version': VERSION,
            'X-Stainless-OS': 'Unknown',
            'X-Stainless-Arch': `other:${EdgeRuntime}`,
            'X-Stainless-Runtime': 'edge',
            'X-Stainless-Runtime-Version': globalThis.process.version,
        };
    }
    // Check if Node.js
    if (detectedPlatform === 'node') {
        return {
            'X-Stainless-Lang': 'js',
            'X-Stainless-Package-Version': VERSION,
            'X-Stainless-OS': normalizePlatform(globalThis.process.platform ?? 'unknown'),
            'X-Stainless-Arch': normalizeArch(globalThis.process.arch ?? 'unknown'),
            'X-Stainless-Runtime': 'node',
            'X-Stainless-Runtime-Version': globalThis.process.version ?? 'unknown',
        };
    }
    const browserInfo = getBrowserInfo();
    if (browserInfo) {
        return {
            'X-Stainless-Lang': 'js',
            'X-Stainless-Package-Version': VERSION,
            'X-Stainless-OS': 'Unknown',
            'X-Stainless-Arch': 'unknown',
            'X-Stainless-Runtime': `browser:${browserInfo.browser}`,
            'X-Stainless-Runtime-Version': browserInfo.version,
        };
    }
    // TODO add support for Cloudflare workers, etc.
    return {
        'X-Stainless-Lang': 'js',
        'X-Stainless-Package-Version': VERSION,
        'X-Stainless-OS': 'Unknown',
        'X-Stainless-Arch': 'unknown',
        'X-Stainless-Runtime': 'unknown',
        'X-Stainless-Runtime-Version': 'unknown',
    };
};
// Note: modified from https://github.com/JS-DevTools/host-environment/blob/b1ab79ecde37db5d6e163c050e54fe7d287d7c92/src/isomorphic.browser.ts
function getBrowserInfo() {
    if (typeof navigator === 'undefined' || !navigator) {
        return null;
    }
    // NOTE: The order matters here!
    const browserPatterns = [
        { key: 'edge', pattern: /Edge(?:\W+(\d+)\.(\d+)(?:\.(\d+))?)?/ },
        { key: 'ie', pattern: /MSIE(?:\W+(\d+)\.(\d+)(?:\.(\d+))?)?/ },
        { key: 'ie', pattern: /Trident(?:.*rv\:(\d+)\.(\d+)(?:\.(\d+))?)?/ },
        { key: 'chrome', pattern: /Chrome(?:\W+(\d+)\.(\d+)(?:\.(\d+))?)?/ },
        { key: 'firefox', pattern: /Firefox(?:\W+(\d+)\.(\d+)(?:\.(\d+))?)?/ },
        { key: 'safari', pattern: /(?:Version\W+(\d+)\.(\d+)(?:\.(\d+))?)?(?:\W+Mobile\S*)?\W+Safari/ },
    ];
    // Find the FIRST matching browser
    for (const { key, pattern } of browserPatterns) {
        const match = pattern.exec(navigator.userAgent);
        if (match) {
            const major = match[1] || 0;
            const minor = match[2] || 0;
            const patch = match[3] || 0;
            return { browser: key, version: `${major}.${minor}.${patch}` };
        }
    }
    return null;
}
const normalizeArch = (arch) => {
    // Node docs:
    // - https://nodejs.org/api/process.html#processarch
    // Deno docs:
    // - https://doc.deno.land/deno/stable/~/Deno.build
    if (arch === 'x32')
        return 'x32';
    if (arch === 'x86_64' || arch === 'x64')
        return 'x64';
    if (arch === 'arm')
        return 'arm';
    if (arch === 'aarch64' || arch === 'arm64')
        return 'arm64';
    if (arch)
        return `other:${arch}`;
    return 'unknown';
};
const normalizePlatform = (platform) => {
    // Node platforms:
    // - https://nodejs.org/api/process.html#processplatform
    // Deno platforms:
    // - https://doc.deno.land/deno/stable/~/Deno.build
    // - https://github.com/denoland/deno/issues/14799
    platform = platform.toLowerCase();
    // NOTE: this iOS check is untested and may not work
    // Node does not work natively on IOS, there is a fork at
    // https://github.com/nodejs-mobile/nodejs-mobile
    // however it is unknown at the time of writing how to detect if it is running
    if (platform.includes('ios'))
        return 'iOS';
    if (platform === 'android')
        return 'Android';
    if (platform === 'darwin')
        return 'MacOS';
    if (platform === 'win32')
        return 'Windows';
    if (platform === 'freebsd')
        return 'FreeBSD';
    if (platform === 'openbsd')
        return 'OpenBSD';
    if (platform === 'linux')
        return 'Linux';
    if (platform)
        return `Other:${platform}`;
    return 'Unknown';
};
let _platformHeaders;
const getPlatformHeaders = () => {
    return (_platformHeaders ?? (_platformHeaders = getPlatformProperties()));
};

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/shims.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.
function getDefaultFetch() {
    if (typeof fetch !== 'undefined') {
        return fetch;
    }
    throw new Error('`fetch` is not defined as a global; Either pass `fetch` to the client, `new Langsmith({ fetch })` or polyfill the global, `globalThis.fetch = fetch`');
}
function makeReadableStream(...args) {
    const ReadableStream = globalThis.ReadableStream;
    if (typeof ReadableStream === 'undefined') {
        // Note: All of the platforms / runtimes we officially support already define
        // `ReadableStream` as a global, so this should only ever be hit on unsupported runtimes.
        throw new Error('`ReadableStream` is not defined as a global; You will need to polyfill it, `globalThis.ReadableStream = ReadableStream`');
    }
    return new ReadableStream(...args);
}
function shims_ReadableStreamFrom(iterable) {
    let iter = Symbol.asyncIterator in iterable ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
    return makeReadableStream({
        start() { },
        async pull(controller) {
            const { done, value } = await iter.next();
            if (done) {
                controller.close();
            }
            else {
                controller.enqueue(value);
            }
        },
        async cancel() {
            await iter.return?.();
        },
    });
}
/**
 * Most browsers don't yet have async iterable support for ReadableStream,
 * and Node has a very different way of reading bytes from its "ReadableStream".
 *
 * This polyfill was pulled from https://github.com/MattiasBuelens/web-streams-polyfill/pull/122#issuecomment-1627354490
 */
function ReadableStreamToAsyncIterable(stream) {
    if (stream[Symbol.asyncIterator])
        return stream;
    const reader = stream.getReader();
    return {
        async next() {
            try {
                const result = await reader.read();
                if (result?.done)
                    reader.releaseLock(); // release lock when stream becomes closed
                return result;
            }
            catch (e) {
                reader.releaseLock(); // release lock when stream becomes errored
                throw e;
            }
        },
        async return() {
            const cancelPromise = reader.cancel();
            reader.releaseLock();
            await cancelPromise;
            return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
            return this;
        },
    };
}
/**
 * Cancels a ReadableStream we don't need to consume.
 * See https://undici.nodejs.org/#/?id=garbage-collection
 */
async function CancelReadableStream(stream) {
    if (stream === null || typeof stream !== 'object')
        return;
    if (stream[Symbol.asyncIterator]) {
        await stream[Symbol.asyncIterator]().return?.();
        return;
    }
    const reader = stream.getReader();
    const cancelPromise = reader.cancel();
    reader.releaseLock();
    await cancelPromise;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/request-options.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.
const FallbackEncoder = ({ headers, body }) => {
    return {
        bodyHeaders: {
            'content-type': 'application/json',
        },
        body: JSON.stringify(body),
    };
};

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/qs/formats.mjs
const default_format = 'RFC3986';
const default_formatter = (v) => String(v);
const formatters = {
    RFC1738: (v) => String(v).replace(/%20/g, '+'),
    RFC3986: default_formatter,
};
const RFC1738 = 'RFC1738';
const RFC3986 = 'RFC3986';

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/qs/utils.mjs


let has = (obj, key) => ((has = Object.hasOwn ?? Function.prototype.call.bind(Object.prototype.hasOwnProperty)),
    has(obj, key));
const hex_table = /* @__PURE__ */ (() => {
    const array = [];
    for (let i = 0; i < 256; ++i) {
        array.push('%' + ((i < 16 ? '0' : '') + i.toString(16)).toUpperCase());
    }
    return array;
})();
function compact_queue(queue) {
    while (queue.length > 1) {
        const item = queue.pop();
        if (!item)
            continue;
        const obj = item.obj[item.prop];
        if (isArray(obj)) {
            const compacted = [];
            for (let j = 0; j < obj.length; ++j) {
                if (typeof obj[j] !== 'undefined') {
                    compacted.push(obj[j]);
                }
            }
            // @ts-ignore
            item.obj[item.prop] = compacted;
        }
    }
}
function array_to_object(source, options) {
    const obj = options && options.plainObjects ? Object.create(null) : {};
    for (let i = 0; i < source.length; ++i) {
        if (typeof source[i] !== 'undefined') {
            obj[i] = source[i];
        }
    }
    return obj;
}
function merge(target, source, options = {}) {
    if (!source) {
        return target;
    }
    if (typeof source !== 'object') {
        if (isArray(target)) {
            target.push(source);
        }
        else if (target && typeof target === 'object') {
            if ((options && (options.plainObjects || options.allowPrototypes)) || !has(Object.prototype, source)) {
                target[source] = true;
            }
        }
        else {
            return [target, source];
        }
        return target;
    }
    if (!target || typeof target !== 'object') {
        return [target].concat(source);
    }
    let mergeTarget = target;
    if (isArray(target) && !isArray(source)) {
        // @ts-ignore
        mergeTarget = array_to_object(target, options);
    }
    if (isArray(target) && isArray(source)) {
        source.forEach(function (item, i) {
            if (has(target, i)) {
                const targetItem = target[i];
                if (targetItem && typeof targetItem === 'object' && item && typeof item === 'object') {
                    target[i] = merge(targetItem, item, options);
                }
                else {
                    target.push(item);
                }
            }
            else {
                target[i] = item;
            }
        });
        return target;
    }
    return Object.keys(source).reduce(function (acc, key) {
        const value = source[key];
        if (has(acc, key)) {
            acc[key] = merge(acc[key], value, options);
        }
        else {
            acc[key] = value;
        }
        return acc;
    }, mergeTarget);
}
function assign_single_source(target, source) {
    return Object.keys(source).reduce(function (acc, key) {
        acc[key] = source[key];
        return acc;
    }, target);
}
function decode(str, _, charset) {
    const strWithoutPlus = str.replace(/\+/g, ' ');
    if (charset === 'iso-8859-1') {
        // unescape never throws, no try...catch needed:
        return strWithoutPlus.replace(/%[0-9a-f]{2}/gi, unescape);
    }
    // utf-8
    try {
        return decodeURIComponent(strWithoutPlus);
    }
    catch (e) {
        return strWithoutPlus;
    }
}
const limit = 1024;
const encode = (str, _defaultEncoder, charset, _kind, format) => {
    // This code was originally written by Brian White for the io.js core querystring library.
    // It has been adapted here for stricter adherence to RFC 3986
    if (str.length === 0) {
        return str;
    }
    let string = str;
    if (typeof str === 'symbol') {
        string = Symbol.prototype.toString.call(str);
    }
    else if (typeof str !== 'string') {
        string = String(str);
    }
    if (charset === 'iso-8859-1') {
        return escape(string).replace(/%u[0-9a-f]{4}/gi, function ($0) {
            return '%26%23' + parseInt($0.slice(2), 16) + '%3B';
        });
    }
    let out = '';
    for (let j = 0; j < string.length; j += limit) {
        const segment = string.length >= limit ? string.slice(j, j + limit) : string;
        const arr = [];
        for (let i = 0; i < segment.length; ++i) {
            let c = segment.charCodeAt(i);
            if (c === 0x2d || // -
                c === 0x2e || // .
                c === 0x5f || // _
                c === 0x7e || // ~
                (c >= 0x30 && c <= 0x39) || // 0-9
                (c >= 0x41 && c <= 0x5a) || // a-z
                (c >= 0x61 && c <= 0x7a) || // A-Z
                (format === RFC1738 && (c === 0x28 || c === 0x29)) // ( )
            ) {
                arr[arr.length] = segment.charAt(i);
                continue;
            }
            if (c < 0x80) {
                arr[arr.length] = hex_table[c];
                continue;
            }
            if (c < 0x800) {
                arr[arr.length] = hex_table[0xc0 | (c >> 6)] + hex_table[0x80 | (c & 0x3f)];
                continue;
            }
            if (c < 0xd800 || c >= 0xe000) {
                arr[arr.length] =
                    hex_table[0xe0 | (c >> 12)] + hex_table[0x80 | ((c >> 6) & 0x3f)] + hex_table[0x80 | (c & 0x3f)];
                continue;
            }
            i += 1;
            c = 0x10000 + (((c & 0x3ff) << 10) | (segment.charCodeAt(i) & 0x3ff));
            arr[arr.length] =
                hex_table[0xf0 | (c >> 18)] +
                    hex_table[0x80 | ((c >> 12) & 0x3f)] +
                    hex_table[0x80 | ((c >> 6) & 0x3f)] +
                    hex_table[0x80 | (c & 0x3f)];
        }
        out += arr.join('');
    }
    return out;
};
function compact(value) {
    const queue = [{ obj: { o: value }, prop: 'o' }];
    const refs = [];
    for (let i = 0; i < queue.length; ++i) {
        const item = queue[i];
        // @ts-ignore
        const obj = item.obj[item.prop];
        const keys = Object.keys(obj);
        for (let j = 0; j < keys.length; ++j) {
            const key = keys[j];
            const val = obj[key];
            if (typeof val === 'object' && val !== null && refs.indexOf(val) === -1) {
                queue.push({ obj: obj, prop: key });
                refs.push(val);
            }
        }
    }
    compact_queue(queue);
    return value;
}
function is_regexp(obj) {
    return Object.prototype.toString.call(obj) === '[object RegExp]';
}
function is_buffer(obj) {
    if (!obj || typeof obj !== 'object') {
        return false;
    }
    return !!(obj.constructor && obj.constructor.isBuffer && obj.constructor.isBuffer(obj));
}
function combine(a, b) {
    return [].concat(a, b);
}
function maybe_map(val, fn) {
    if (values_isArray(val)) {
        const mapped = [];
        for (let i = 0; i < val.length; i += 1) {
            mapped.push(fn(val[i]));
        }
        return mapped;
    }
    return fn(val);
}

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/qs/stringify.mjs



const array_prefix_generators = {
    brackets(prefix) {
        return String(prefix) + '[]';
    },
    comma: 'comma',
    indices(prefix, key) {
        return String(prefix) + '[' + key + ']';
    },
    repeat(prefix) {
        return String(prefix);
    },
};
const push_to_array = function (arr, value_or_array) {
    Array.prototype.push.apply(arr, values_isArray(value_or_array) ? value_or_array : [value_or_array]);
};
let toISOString;
const defaults = {
    addQueryPrefix: false,
    allowDots: false,
    allowEmptyArrays: false,
    arrayFormat: 'indices',
    charset: 'utf-8',
    charsetSentinel: false,
    delimiter: '&',
    encode: true,
    encodeDotInKeys: false,
    encoder: encode,
    encodeValuesOnly: false,
    format: default_format,
    formatter: default_formatter,
    /** @deprecated */
    indices: false,
    serializeDate(date) {
        return (toISOString ?? (toISOString = Function.prototype.call.bind(Date.prototype.toISOString)))(date);
    },
    skipNulls: false,
    strictNullHandling: false,
};
function is_non_nullish_primitive(v) {
    return (typeof v === 'string' ||
        typeof v === 'number' ||
        typeof v === 'boolean' ||
        typeof v === 'symbol' ||
        typeof v === 'bigint');
}
const sentinel = {};
function inner_stringify(object, prefix, generateArrayPrefix, commaRoundTrip, allowEmptyArrays, strictNullHandling, skipNulls, encodeDotInKeys, encoder, filter, sort, allowDots, serializeDate, format, formatter, encodeValuesOnly, charset, sideChannel) {
    let obj = object;
    let tmp_sc = sideChannel;
    let step = 0;
    let find_flag = false;
    while ((tmp_sc = tmp_sc.get(sentinel)) !== void undefined && !find_flag) {
        // Where object last appeared in the ref tree
        const pos = tmp_sc.get(object);
        step += 1;
        if (typeof pos !== 'undefined') {
            if (pos === step) {
                throw new RangeError('Cyclic object value');
            }
            else {
                find_flag = true; // Break while
            }
        }
        if (typeof tmp_sc.get(sentinel) === 'undefined') {
            step = 0;
        }
    }
    if (typeof filter === 'function') {
        obj = filter(prefix, obj);
    }
    else if (obj instanceof Date) {
        obj = serializeDate?.(obj);
    }
    else if (generateArrayPrefix === 'comma' && values_isArray(obj)) {
        obj = maybe_map(obj, function (value) {
            if (value instanceof Date) {
                return serializeDate?.(value);
            }
            return value;
        });
    }
    if (obj === null) {
        if (strictNullHandling) {
            return encoder && !encodeValuesOnly ?
                // @ts-expect-error
                encoder(prefix, defaults.encoder, charset, 'key', format)
                : prefix;
        }
        obj = '';
    }
    if (is_non_nullish_primitive(obj) || is_buffer(obj)) {
        if (encoder) {
            const key_value = encodeValuesOnly ? prefix
                // @ts-expect-error
                : encoder(prefix, defaults.encoder, charset, 'key', format);
            return [
                formatter?.(key_value) +
                    '=' +
                    // @ts-expect-error
                    formatter?.(encoder(obj, defaults.encoder, charset, 'value', format)),
            ];
        }
        return [formatter?.(prefix) + '=' + formatter?.(String(obj))];
    }
    const values = [];
    if (typeof obj === 'undefined') {
        return values;
    }
    let obj_keys;
    if (generateArrayPrefix === 'comma' && values_isArray(obj)) {
        // we need to join elements in
        if (encodeValuesOnly && encoder) {
            // @ts-expect-error values only
            obj = maybe_map(obj, encoder);
        }
        obj_keys = [{ value: obj.length > 0 ? obj.join(',') || null : void undefined }];
    }
    else if (values_isArray(filter)) {
        obj_keys = filter;
    }
    else {
        const keys = Object.keys(obj);
        obj_keys = sort ? keys.sort(sort) : keys;
    }
    const encoded_prefix = encodeDotInKeys ? String(prefix).replace(/\./g, '%2E') : String(prefix);
    const adjusted_prefix = commaRoundTrip && values_isArray(obj) && obj.length === 1 ? encoded_prefix + '[]' : encoded_prefix;
    if (allowEmptyArrays && values_isArray(obj) && obj.length === 0) {
        return adjusted_prefix + '[]';
    }
    for (let j = 0; j < obj_keys.length; ++j) {
        const key = obj_keys[j];
        const value = 
        // @ts-ignore
        typeof key === 'object' && typeof key.value !== 'undefined' ? key.value : obj[key];
        if (skipNulls && value === null) {
            continue;
        }
        // @ts-ignore
        const encoded_key = allowDots && encodeDotInKeys ? key.replace(/\./g, '%2E') : key;
        const key_prefix = values_isArray(obj) ?
            typeof generateArrayPrefix === 'function' ?
                generateArrayPrefix(adjusted_prefix, encoded_key)
                : adjusted_prefix
            : adjusted_prefix + (allowDots ? '.' + encoded_key : '[' + encoded_key + ']');
        sideChannel.set(object, step);
        const valueSideChannel = new WeakMap();
        valueSideChannel.set(sentinel, sideChannel);
        push_to_array(values, inner_stringify(value, key_prefix, generateArrayPrefix, commaRoundTrip, allowEmptyArrays, strictNullHandling, skipNulls, encodeDotInKeys, 
        // @ts-ignore
        generateArrayPrefix === 'comma' && encodeValuesOnly && values_isArray(obj) ? null : encoder, filter, sort, allowDots, serializeDate, format, formatter, encodeValuesOnly, charset, valueSideChannel));
    }
    return values;
}
function normalize_stringify_options(opts = defaults) {
    if (typeof opts.allowEmptyArrays !== 'undefined' && typeof opts.allowEmptyArrays !== 'boolean') {
        throw new TypeError('`allowEmptyArrays` option can only be `true` or `false`, when provided');
    }
    if (typeof opts.encodeDotInKeys !== 'undefined' && typeof opts.encodeDotInKeys !== 'boolean') {
        throw new TypeError('`encodeDotInKeys` option can only be `true` or `false`, when provided');
    }
    if (opts.encoder !== null && typeof opts.encoder !== 'undefined' && typeof opts.encoder !== 'function') {
        throw new TypeError('Encoder has to be a function.');
    }
    const charset = opts.charset || defaults.charset;
    if (typeof opts.charset !== 'undefined' && opts.charset !== 'utf-8' && opts.charset !== 'iso-8859-1') {
        throw new TypeError('The charset option must be either utf-8, iso-8859-1, or undefined');
    }
    let format = default_format;
    if (typeof opts.format !== 'undefined') {
        if (!has(formatters, opts.format)) {
            throw new TypeError('Unknown format option provided.');
        }
        format = opts.format;
    }
    const formatter = formatters[format];
    let filter = defaults.filter;
    if (typeof opts.filter === 'function' || values_isArray(opts.filter)) {
        filter = opts.filter;
    }
    let arrayFormat;
    if (opts.arrayFormat && opts.arrayFormat in array_prefix_generators) {
        arrayFormat = opts.arrayFormat;
    }
    else if ('indices' in opts) {
        arrayFormat = opts.indices ? 'indices' : 'repeat';
    }
    else {
        arrayFormat = defaults.arrayFormat;
    }
    if ('commaRoundTrip' in opts && typeof opts.commaRoundTrip !== 'boolean') {
        throw new TypeError('`commaRoundTrip` must be a boolean, or absent');
    }
    const allowDots = typeof opts.allowDots === 'undefined' ?
        !!opts.encodeDotInKeys === true ?
            true
            : defaults.allowDots
        : !!opts.allowDots;
    return {
        addQueryPrefix: typeof opts.addQueryPrefix === 'boolean' ? opts.addQueryPrefix : defaults.addQueryPrefix,
        // @ts-ignore
        allowDots: allowDots,
        allowEmptyArrays: typeof opts.allowEmptyArrays === 'boolean' ? !!opts.allowEmptyArrays : defaults.allowEmptyArrays,
        arrayFormat: arrayFormat,
        charset: charset,
        charsetSentinel: typeof opts.charsetSentinel === 'boolean' ? opts.charsetSentinel : defaults.charsetSentinel,
        commaRoundTrip: !!opts.commaRoundTrip,
        delimiter: typeof opts.delimiter === 'undefined' ? defaults.delimiter : opts.delimiter,
        encode: typeof opts.encode === 'boolean' ? opts.encode : defaults.encode,
        encodeDotInKeys: typeof opts.encodeDotInKeys === 'boolean' ? opts.encodeDotInKeys : defaults.encodeDotInKeys,
        encoder: typeof opts.encoder === 'function' ? opts.encoder : defaults.encoder,
        encodeValuesOnly: typeof opts.encodeValuesOnly === 'boolean' ? opts.encodeValuesOnly : defaults.encodeValuesOnly,
        filter: filter,
        format: format,
        formatter: formatter,
        serializeDate: typeof opts.serializeDate === 'function' ? opts.serializeDate : defaults.serializeDate,
        skipNulls: typeof opts.skipNulls === 'boolean' ? opts.skipNulls : defaults.skipNulls,
        // @ts-ignore
        sort: typeof opts.sort === 'function' ? opts.sort : null,
        strictNullHandling: typeof opts.strictNullHandling === 'boolean' ? opts.strictNullHandling : defaults.strictNullHandling,
    };
}
function stringify_stringify(object, opts = {}) {
    let obj = object;
    const options = normalize_stringify_options(opts);
    let obj_keys;
    let filter;
    if (typeof options.filter === 'function') {
        filter = options.filter;
        obj = filter('', obj);
    }
    else if (values_isArray(options.filter)) {
        filter = options.filter;
        obj_keys = filter;
    }
    const keys = [];
    if (typeof obj !== 'object' || obj === null) {
        return '';
    }
    const generateArrayPrefix = array_prefix_generators[options.arrayFormat];
    const commaRoundTrip = generateArrayPrefix === 'comma' && options.commaRoundTrip;
    if (!obj_keys) {
        obj_keys = Object.keys(obj);
    }
    if (options.sort) {
        obj_keys.sort(options.sort);
    }
    const sideChannel = new WeakMap();
    for (let i = 0; i < obj_keys.length; ++i) {
        const key = obj_keys[i];
        if (options.skipNulls && obj[key] === null) {
            continue;
        }
        push_to_array(keys, inner_stringify(obj[key], key, 
        // @ts-expect-error
        generateArrayPrefix, commaRoundTrip, options.allowEmptyArrays, options.strictNullHandling, options.skipNulls, options.encodeDotInKeys, options.encode ? options.encoder : null, options.filter, options.sort, options.allowDots, options.serializeDate, options.format, options.formatter, options.encodeValuesOnly, options.charset, sideChannel));
    }
    const joined = keys.join(options.delimiter);
    let prefix = options.addQueryPrefix === true ? '?' : '';
    if (options.charsetSentinel) {
        if (options.charset === 'iso-8859-1') {
            // encodeURIComponent('&#10003;'), the "numeric entity" representation of a checkmark
            prefix += 'utf8=%26%2310003%3B&';
        }
        else {
            // encodeURIComponent('✓')
            prefix += 'utf8=%E2%9C%93&';
        }
    }
    return joined.length > 0 ? prefix + joined : '';
}

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/utils/query.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

function stringifyQuery(query) {
    return stringify_stringify(query, { arrayFormat: 'repeat' });
}

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/utils/bytes.mjs
function concatBytes(buffers) {
    let length = 0;
    for (const buffer of buffers) {
        length += buffer.length;
    }
    const output = new Uint8Array(length);
    let index = 0;
    for (const buffer of buffers) {
        output.set(buffer, index);
        index += buffer.length;
    }
    return output;
}
let encodeUTF8_;
function encodeUTF8(str) {
    let encoder;
    return (encodeUTF8_ ??
        ((encoder = new globalThis.TextEncoder()), (encodeUTF8_ = encoder.encode.bind(encoder))))(str);
}
let decodeUTF8_;
function decodeUTF8(bytes) {
    let decoder;
    return (decodeUTF8_ ??
        ((decoder = new globalThis.TextDecoder()), (decodeUTF8_ = decoder.decode.bind(decoder))))(bytes);
}

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/decoders/line.mjs
var _LineDecoder_buffer, _LineDecoder_carriageReturnIndex;


/**
 * A re-implementation of httpx's `LineDecoder` in Python that handles incrementally
 * reading lines from text.
 *
 * https://github.com/encode/httpx/blob/920333ea98118e9cf617f246905d7b202510941c/httpx/_decoders.py#L258
 */
class LineDecoder {
    constructor() {
        _LineDecoder_buffer.set(this, void 0);
        _LineDecoder_carriageReturnIndex.set(this, void 0);
        __classPrivateFieldSet(this, _LineDecoder_buffer, new Uint8Array(), "f");
        __classPrivateFieldSet(this, _LineDecoder_carriageReturnIndex, null, "f");
    }
    decode(chunk) {
        if (chunk == null) {
            return [];
        }
        const binaryChunk = chunk instanceof ArrayBuffer ? new Uint8Array(chunk)
            : typeof chunk === 'string' ? encodeUTF8(chunk)
                : chunk;
        __classPrivateFieldSet(this, _LineDecoder_buffer, concatBytes([__classPrivateFieldGet(this, _LineDecoder_buffer, "f"), binaryChunk]), "f");
        const lines = [];
        let patternIndex;
        while ((patternIndex = findNewlineIndex(__classPrivateFieldGet(this, _LineDecoder_buffer, "f"), __classPrivateFieldGet(this, _LineDecoder_carriageReturnIndex, "f"))) != null) {
            if (patternIndex.carriage && __classPrivateFieldGet(this, _LineDecoder_carriageReturnIndex, "f") == null) {
                // skip until we either get a corresponding `\n`, a new `\r` or nothing
                __classPrivateFieldSet(this, _LineDecoder_carriageReturnIndex, patternIndex.index, "f");
                continue;
            }
            // we got double \r or \rtext\n
            if (__classPrivateFieldGet(this, _LineDecoder_carriageReturnIndex, "f") != null &&
                (patternIndex.index !== __classPrivateFieldGet(this, _LineDecoder_carriageReturnIndex, "f") + 1 || patternIndex.carriage)) {
                lines.push(decodeUTF8(__classPrivateFieldGet(this, _LineDecoder_buffer, "f").subarray(0, __classPrivateFieldGet(this, _LineDecoder_carriageReturnIndex, "f") - 1)));
                __classPrivateFieldSet(this, _LineDecoder_buffer, __classPrivateFieldGet(this, _LineDecoder_buffer, "f").subarray(__classPrivateFieldGet(this, _LineDecoder_carriageReturnIndex, "f")), "f");
                __classPrivateFieldSet(this, _LineDecoder_carriageReturnIndex, null, "f");
                continue;
            }
            const endIndex = __classPrivateFieldGet(this, _LineDecoder_carriageReturnIndex, "f") !== null ? patternIndex.preceding - 1 : patternIndex.preceding;
            const line = decodeUTF8(__classPrivateFieldGet(this, _LineDecoder_buffer, "f").subarray(0, endIndex));
            lines.push(line);
            __classPrivateFieldSet(this, _LineDecoder_buffer, __classPrivateFieldGet(this, _LineDecoder_buffer, "f").subarray(patternIndex.index), "f");
            __classPrivateFieldSet(this, _LineDecoder_carriageReturnIndex, null, "f");
        }
        return lines;
    }
    flush() {
        if (!__classPrivateFieldGet(this, _LineDecoder_buffer, "f").length) {
            return [];
        }
        return this.decode('\n');
    }
}
_LineDecoder_buffer = new WeakMap(), _LineDecoder_carriageReturnIndex = new WeakMap();
// prettier-ignore
Object.defineProperty(LineDecoder, "NEWLINE_CHARS", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: new Set(['\n', '\r'])
});
Object.defineProperty(LineDecoder, "NEWLINE_REGEXP", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: /\r\n|[\n\r]/g
});
/**
 * This function searches the buffer for the end patterns, (\r or \n)
 * and returns an object with the index preceding the matched newline and the
 * index after the newline char. `null` is returned if no new line is found.
 *
 * ```ts
 * findNewLineIndex('abc\ndef') -> { preceding: 2, index: 3 }
 * ```
 */
function findNewlineIndex(buffer, startIndex) {
    const newline = 0x0a; // \n
    const carriage = 0x0d; // \r
    for (let i = startIndex ?? 0; i < buffer.length; i++) {
        if (buffer[i] === newline) {
            return { preceding: i, index: i + 1, carriage: false };
        }
        if (buffer[i] === carriage) {
            return { preceding: i, index: i + 1, carriage: true };
        }
    }
    return null;
}
function findDoubleNewlineIndex(buffer) {
    // This function searches the buffer for the end patterns (\r\r, \n\n, \r\n\r\n)
    // and returns the index right after the first occurrence of any pattern,
    // or -1 if none of the patterns are found.
    const newline = 0x0a; // \n
    const carriage = 0x0d; // \r
    for (let i = 0; i < buffer.length - 1; i++) {
        if (buffer[i] === newline && buffer[i + 1] === newline) {
            // \n\n
            return i + 2;
        }
        if (buffer[i] === carriage && buffer[i + 1] === carriage) {
            // \r\r
            return i + 2;
        }
        if (buffer[i] === carriage &&
            buffer[i + 1] === newline &&
            i + 3 < buffer.length &&
            buffer[i + 2] === carriage &&
            buffer[i + 3] === newline) {
            // \r\n\r\n
            return i + 4;
        }
    }
    return -1;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/utils/log.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

const levelNumbers = {
    off: 0,
    error: 200,
    warn: 300,
    info: 400,
    debug: 500,
};
const parseLogLevel = (maybeLevel, sourceName, client) => {
    if (!maybeLevel) {
        return undefined;
    }
    if (hasOwn(levelNumbers, maybeLevel)) {
        return maybeLevel;
    }
    loggerFor(client).warn(`${sourceName} was set to ${JSON.stringify(maybeLevel)}, expected one of ${JSON.stringify(Object.keys(levelNumbers))}`);
    return undefined;
};
function noop() { }
function makeLogFn(fnLevel, logger, logLevel) {
    if (!logger || levelNumbers[fnLevel] > levelNumbers[logLevel]) {
        return noop;
    }
    else {
        // Don't wrap logger functions, we want the stacktrace intact!
        return logger[fnLevel].bind(logger);
    }
}
const noopLogger = {
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
};
let cachedLoggers = /* @__PURE__ */ new WeakMap();
function loggerFor(client) {
    const logger = client.logger;
    const logLevel = client.logLevel ?? 'off';
    if (!logger) {
        return noopLogger;
    }
    const cachedLogger = cachedLoggers.get(logger);
    if (cachedLogger && cachedLogger[0] === logLevel) {
        return cachedLogger[1];
    }
    const levelLogger = {
        error: makeLogFn('error', logger, logLevel),
        warn: makeLogFn('warn', logger, logLevel),
        info: makeLogFn('info', logger, logLevel),
        debug: makeLogFn('debug', logger, logLevel),
    };
    cachedLoggers.set(logger, [logLevel, levelLogger]);
    return levelLogger;
}
const formatRequestDetails = (details) => {
    if (details.options) {
        details.options = { ...details.options };
        delete details.options['headers']; // redundant + leaks internals
    }
    if (details.headers) {
        details.headers = Object.fromEntries((details.headers instanceof Headers ? [...details.headers] : Object.entries(details.headers)).map(([name, value]) => [
            name,
            (name.toLowerCase() === 'authorization' ||
                name.toLowerCase() === 'api-key' ||
                name.toLowerCase() === 'x-api-key' ||
                name.toLowerCase() === 'cookie' ||
                name.toLowerCase() === 'set-cookie' ||
                name.toLowerCase() === 'x-tenant-id') ?
                '***'
                : value,
        ]));
    }
    if ('retryOfRequestLogID' in details) {
        if (details.retryOfRequestLogID) {
            details.retryOf = details.retryOfRequestLogID;
        }
        delete details.retryOfRequestLogID;
    }
    return details;
};

;// CONCATENATED MODULE: ./node_modules/langsmith/core/streaming.mjs
var _Stream_client;










class Stream {
    constructor(iterator, controller, client) {
        Object.defineProperty(this, "iterator", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: iterator
        });
        Object.defineProperty(this, "controller", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        _Stream_client.set(this, void 0);
        this.controller = controller;
        __classPrivateFieldSet(this, _Stream_client, client, "f");
    }
    static fromSSEResponse(response, controller, client) {
        let consumed = false;
        const logger = client ? loggerFor(client) : console;
        async function* iterator() {
            if (consumed) {
                throw new error_LangsmithError('Cannot iterate over a consumed stream, use `.tee()` to split the stream.');
            }
            consumed = true;
            let done = false;
            try {
                for await (const sse of _iterSSEMessages(response, controller)) {
                    if (sse.event === 'end') {
                        break;
                    }
                    if (sse.event === 'error') {
                        throw new APIError(undefined, safeJSON(sse.data) ?? sse.data, undefined, response.headers);
                    }
                    if (sse.event === 'data') {
                        try {
                            yield JSON.parse(sse.data);
                        }
                        catch (e) {
                            logger.error(`Could not parse message into JSON:`, sse.data);
                            logger.error(`From chunk:`, sse.raw);
                            throw e;
                        }
                    }
                    else {
                        try {
                            yield JSON.parse(sse.data);
                        }
                        catch (e) {
                            logger.error(`Could not parse message into JSON:`, sse.data);
                            logger.error(`From chunk:`, sse.raw);
                            throw e;
                        }
                    }
                }
                done = true;
            }
            catch (e) {
                // If the user calls `stream.controller.abort()`, we should exit without throwing.
                if (isAbortError(e))
                    return;
                throw e;
            }
            finally {
                // If the user `break`s, abort the ongoing request.
                if (!done)
                    controller.abort();
            }
        }
        return new Stream(iterator, controller, client);
    }
    /**
     * Generates a Stream from a newline-separated ReadableStream
     * where each item is a JSON value.
     */
    static fromReadableStream(readableStream, controller, client) {
        let consumed = false;
        async function* iterLines() {
            const lineDecoder = new LineDecoder();
            const iter = ReadableStreamToAsyncIterable(readableStream);
            for await (const chunk of iter) {
                for (const line of lineDecoder.decode(chunk)) {
                    yield line;
                }
            }
            for (const line of lineDecoder.flush()) {
                yield line;
            }
        }
        async function* iterator() {
            if (consumed) {
                throw new error_LangsmithError('Cannot iterate over a consumed stream, use `.tee()` to split the stream.');
            }
            consumed = true;
            let done = false;
            try {
                for await (const line of iterLines()) {
                    if (done)
                        continue;
                    if (line)
                        yield JSON.parse(line);
                }
                done = true;
            }
            catch (e) {
                // If the user calls `stream.controller.abort()`, we should exit without throwing.
                if (isAbortError(e))
                    return;
                throw e;
            }
            finally {
                // If the user `break`s, abort the ongoing request.
                if (!done)
                    controller.abort();
            }
        }
        return new Stream(iterator, controller, client);
    }
    [(_Stream_client = new WeakMap(), Symbol.asyncIterator)]() {
        return this.iterator();
    }
    /**
     * Splits the stream into two streams which can be
     * independently read from at different speeds.
     */
    tee() {
        const left = [];
        const right = [];
        const iterator = this.iterator();
        const teeIterator = (queue) => {
            return {
                next: () => {
                    if (queue.length === 0) {
                        const result = iterator.next();
                        left.push(result);
                        right.push(result);
                    }
                    return queue.shift();
                },
            };
        };
        return [
            new Stream(() => teeIterator(left), this.controller, __classPrivateFieldGet(this, _Stream_client, "f")),
            new Stream(() => teeIterator(right), this.controller, __classPrivateFieldGet(this, _Stream_client, "f")),
        ];
    }
    /**
     * Converts this stream to a newline-separated ReadableStream of
     * JSON stringified values in the stream
     * which can be turned back into a Stream with `Stream.fromReadableStream()`.
     */
    toReadableStream() {
        const self = this;
        let iter;
        return makeReadableStream({
            async start() {
                iter = self[Symbol.asyncIterator]();
            },
            async pull(ctrl) {
                try {
                    const { value, done } = await iter.next();
                    if (done)
                        return ctrl.close();
                    const bytes = encodeUTF8(JSON.stringify(value) + '\n');
                    ctrl.enqueue(bytes);
                }
                catch (err) {
                    ctrl.error(err);
                }
            },
            async cancel() {
                await iter.return?.();
            },
        });
    }
}
async function* _iterSSEMessages(response, controller) {
    if (!response.body) {
        controller.abort();
        if (typeof globalThis.navigator !== 'undefined' &&
            globalThis.navigator.product === 'ReactNative') {
            throw new error_LangsmithError(`The default react-native fetch implementation does not support streaming. Please use expo/fetch: https://docs.expo.dev/versions/latest/sdk/expo/#expofetch-api`);
        }
        throw new error_LangsmithError(`Attempted to iterate over a response with no body`);
    }
    const sseDecoder = new SSEDecoder();
    const lineDecoder = new LineDecoder();
    const iter = ReadableStreamToAsyncIterable(response.body);
    for await (const sseChunk of iterSSEChunks(iter)) {
        for (const line of lineDecoder.decode(sseChunk)) {
            const sse = sseDecoder.decode(line);
            if (sse)
                yield sse;
        }
    }
    for (const line of lineDecoder.flush()) {
        const sse = sseDecoder.decode(line);
        if (sse)
            yield sse;
    }
}
/**
 * Given an async iterable iterator, iterates over it and yields full
 * SSE chunks, i.e. yields when a double new-line is encountered.
 */
async function* iterSSEChunks(iterator) {
    let data = new Uint8Array();
    for await (const chunk of iterator) {
        if (chunk == null) {
            continue;
        }
        const binaryChunk = chunk instanceof ArrayBuffer ? new Uint8Array(chunk)
            : typeof chunk === 'string' ? encodeUTF8(chunk)
                : chunk;
        let newData = new Uint8Array(data.length + binaryChunk.length);
        newData.set(data);
        newData.set(binaryChunk, data.length);
        data = newData;
        let patternIndex;
        while ((patternIndex = findDoubleNewlineIndex(data)) !== -1) {
            yield data.slice(0, patternIndex);
            data = data.slice(patternIndex);
        }
    }
    if (data.length > 0) {
        yield data;
    }
}
class SSEDecoder {
    constructor() {
        Object.defineProperty(this, "data", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "event", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "chunks", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.event = null;
        this.data = [];
        this.chunks = [];
    }
    decode(line) {
        if (line.endsWith('\r')) {
            line = line.substring(0, line.length - 1);
        }
        if (!line) {
            // empty line and we didn't previously encounter any messages
            if (!this.event && !this.data.length)
                return null;
            const sse = {
                event: this.event,
                data: this.data.join('\n'),
                raw: this.chunks,
            };
            this.event = null;
            this.data = [];
            this.chunks = [];
            return sse;
        }
        this.chunks.push(line);
        if (line.startsWith(':')) {
            return null;
        }
        let [fieldname, _, value] = partition(line, ':');
        if (value.startsWith(' ')) {
            value = value.substring(1);
        }
        if (fieldname === 'event') {
            this.event = value;
        }
        else if (fieldname === 'data') {
            this.data.push(value);
        }
        return null;
    }
}
function partition(str, delimiter) {
    const index = str.indexOf(delimiter);
    if (index !== -1) {
        return [str.substring(0, index), delimiter, str.substring(index + delimiter.length)];
    }
    return [str, '', ''];
}

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/parse.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.


async function defaultParseResponse(client, props) {
    const { response, requestLogID, retryOfRequestLogID, startTime } = props;
    const body = await (async () => {
        if (props.options.stream) {
            loggerFor(client).debug('response', response.status, response.url, response.headers, response.body);
            // Note: there is an invariant here that isn't represented in the type system
            // that if you set `stream: true` the response type must also be `Stream<T>`
            if (props.options.__streamClass) {
                return props.options.__streamClass.fromSSEResponse(response, props.controller, client);
            }
            return Stream.fromSSEResponse(response, props.controller, client);
        }
        // fetch refuses to read the body when the status code is 204.
        if (response.status === 204) {
            return null;
        }
        if (props.options.__binaryResponse) {
            return response;
        }
        const contentType = response.headers.get('content-type');
        const mediaType = contentType?.split(';')[0]?.trim();
        const isJSON = mediaType?.includes('application/json') || mediaType?.endsWith('+json');
        if (isJSON) {
            const contentLength = response.headers.get('content-length');
            if (contentLength === '0') {
                // if there is no content we can't do anything
                return undefined;
            }
            const json = await response.json();
            return json;
        }
        const text = await response.text();
        return text;
    })();
    loggerFor(client).debug(`[${requestLogID}] response parsed`, formatRequestDetails({
        retryOfRequestLogID,
        url: response.url,
        status: response.status,
        body,
        durationMs: Date.now() - startTime,
    }));
    return body;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/core/api-promise.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.
var _APIPromise_client;


/**
 * A subclass of `Promise` providing additional helper methods
 * for interacting with the SDK.
 */
class APIPromise extends Promise {
    constructor(client, responsePromise, parseResponse = defaultParseResponse) {
        super((resolve) => {
            // this is maybe a bit weird but this has to be a no-op to not implicitly
            // parse the response body; instead .then, .catch, .finally are overridden
            // to parse the response
            resolve(null);
        });
        Object.defineProperty(this, "responsePromise", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: responsePromise
        });
        Object.defineProperty(this, "parseResponse", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: parseResponse
        });
        Object.defineProperty(this, "parsedPromise", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        _APIPromise_client.set(this, void 0);
        __classPrivateFieldSet(this, _APIPromise_client, client, "f");
    }
    _thenUnwrap(transform) {
        return new APIPromise(__classPrivateFieldGet(this, _APIPromise_client, "f"), this.responsePromise, async (client, props) => transform(await this.parseResponse(client, props), props));
    }
    /**
     * Gets the raw `Response` instance instead of parsing the response
     * data.
     *
     * If you want to parse the response body but still get the `Response`
     * instance, you can use {@link withResponse()}.
     *
     * 👋 Getting the wrong TypeScript type for `Response`?
     * Try setting `"moduleResolution": "NodeNext"` or add `"lib": ["DOM"]`
     * to your `tsconfig.json`.
     */
    asResponse() {
        return this.responsePromise.then((p) => p.response);
    }
    /**
     * Gets the parsed response data and the raw `Response` instance.
     *
     * If you just want to get the raw `Response` instance without parsing it,
     * you can use {@link asResponse()}.
     *
     * 👋 Getting the wrong TypeScript type for `Response`?
     * Try setting `"moduleResolution": "NodeNext"` or add `"lib": ["DOM"]`
     * to your `tsconfig.json`.
     */
    async withResponse() {
        const [data, response] = await Promise.all([this.parse(), this.asResponse()]);
        return { data, response };
    }
    parse() {
        if (!this.parsedPromise) {
            this.parsedPromise = this.responsePromise.then((data) => this.parseResponse(__classPrivateFieldGet(this, _APIPromise_client, "f"), data));
        }
        return this.parsedPromise;
    }
    then(onfulfilled, onrejected) {
        return this.parse().then(onfulfilled, onrejected);
    }
    catch(onrejected) {
        return this.parse().catch(onrejected);
    }
    finally(onfinally) {
        return this.parse().finally(onfinally);
    }
}
_APIPromise_client = new WeakMap();

;// CONCATENATED MODULE: ./node_modules/langsmith/core/pagination.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.
var _AbstractPage_client;





class AbstractPage {
    constructor(client, response, body, options) {
        _AbstractPage_client.set(this, void 0);
        Object.defineProperty(this, "options", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "response", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "body", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        __classPrivateFieldSet(this, _AbstractPage_client, client, "f");
        this.options = options;
        this.response = response;
        this.body = body;
    }
    hasNextPage() {
        const items = this.getPaginatedItems();
        if (!items.length)
            return false;
        return this.nextPageRequestOptions() != null;
    }
    async getNextPage() {
        const nextOptions = this.nextPageRequestOptions();
        if (!nextOptions) {
            throw new error_LangsmithError('No next page expected; please check `.hasNextPage()` before calling `.getNextPage()`.');
        }
        return await __classPrivateFieldGet(this, _AbstractPage_client, "f").requestAPIList(this.constructor, nextOptions);
    }
    async *iterPages() {
        let page = this;
        yield page;
        while (page.hasNextPage()) {
            page = await page.getNextPage();
            yield page;
        }
    }
    async *[(_AbstractPage_client = new WeakMap(), Symbol.asyncIterator)]() {
        for await (const page of this.iterPages()) {
            for (const item of page.getPaginatedItems()) {
                yield item;
            }
        }
    }
}
/**
 * This subclass of Promise will resolve to an instantiated Page once the request completes.
 *
 * It also implements AsyncIterable to allow auto-paginating iteration on an unawaited list call, eg:
 *
 *    for await (const item of client.items.list()) {
 *      console.log(item)
 *    }
 */
class PagePromise extends APIPromise {
    constructor(client, request, Page) {
        super(client, request, async (client, props) => new Page(client, props.response, await defaultParseResponse(client, props), props.options));
    }
    /**
     * Allow auto-paginating iteration on an unawaited list call, eg:
     *
     *    for await (const item of client.items.list()) {
     *      console.log(item)
     *    }
     */
    async *[Symbol.asyncIterator]() {
        const page = await this;
        for await (const item of page) {
            yield item;
        }
    }
}
class OffsetPaginationTopLevelArray extends AbstractPage {
    constructor(client, response, body, options) {
        super(client, response, body, options);
        Object.defineProperty(this, "items", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.items = body || [];
    }
    getPaginatedItems() {
        return this.items ?? [];
    }
    nextPageRequestOptions() {
        const offset = this.options.query.offset ?? 0;
        const length = this.getPaginatedItems().length;
        const currentCount = offset + length;
        return {
            ...this.options,
            query: {
                ...maybeObj(this.options.query),
                offset: currentCount,
            },
        };
    }
}
class OffsetPaginationIssues extends AbstractPage {
    constructor(client, response, body, options) {
        super(client, response, body, options);
        Object.defineProperty(this, "items", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.items = body || [];
    }
    getPaginatedItems() {
        return this.items ?? [];
    }
    nextPageRequestOptions() {
        const offset = this.options.query.offset ?? 0;
        const length = this.getPaginatedItems().length;
        const currentCount = offset + length;
        return {
            ...this.options,
            query: {
                ...maybeObj(this.options.query),
                offset: currentCount,
            },
        };
    }
}
class OffsetPaginationRepos extends AbstractPage {
    constructor(client, response, body, options) {
        super(client, response, body, options);
        Object.defineProperty(this, "repos", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "total", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.repos = body.repos || [];
        this.total = body.total || 0;
    }
    getPaginatedItems() {
        return this.repos ?? [];
    }
    nextPageRequestOptions() {
        const offset = this.options.query.offset ?? 0;
        const length = this.getPaginatedItems().length;
        const currentCount = offset + length;
        return {
            ...this.options,
            query: {
                ...maybeObj(this.options.query),
                offset: currentCount,
            },
        };
    }
}
class OffsetPaginationCommits extends AbstractPage {
    constructor(client, response, body, options) {
        super(client, response, body, options);
        Object.defineProperty(this, "commits", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "total", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.commits = body.commits || [];
        this.total = body.total || 0;
    }
    getPaginatedItems() {
        return this.commits ?? [];
    }
    nextPageRequestOptions() {
        const offset = this.options.query.offset ?? 0;
        const length = this.getPaginatedItems().length;
        const currentCount = offset + length;
        return {
            ...this.options,
            query: {
                ...maybeObj(this.options.query),
                offset: currentCount,
            },
        };
    }
}
class OffsetPaginationOnlineEvaluators extends AbstractPage {
    constructor(client, response, body, options) {
        super(client, response, body, options);
        Object.defineProperty(this, "evaluators", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "total", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.evaluators = body.evaluators || [];
        this.total = body.total || 0;
    }
    getPaginatedItems() {
        return this.evaluators ?? [];
    }
    nextPageRequestOptions() {
        const offset = this.options.query.offset ?? 0;
        const length = this.getPaginatedItems().length;
        const currentCount = offset + length;
        return {
            ...this.options,
            query: {
                ...maybeObj(this.options.query),
                offset: currentCount,
            },
        };
    }
}
class OffsetPaginationInsightsClusteringJobs extends AbstractPage {
    constructor(client, response, body, options) {
        super(client, response, body, options);
        Object.defineProperty(this, "clustering_jobs", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.clustering_jobs = body.clustering_jobs || [];
    }
    getPaginatedItems() {
        return this.clustering_jobs ?? [];
    }
    nextPageRequestOptions() {
        const offset = this.options.query.offset ?? 0;
        const length = this.getPaginatedItems().length;
        const currentCount = offset + length;
        return {
            ...this.options,
            query: {
                ...maybeObj(this.options.query),
                offset: currentCount,
            },
        };
    }
}
class CursorPagination extends AbstractPage {
    constructor(client, response, body, options) {
        super(client, response, body, options);
        Object.defineProperty(this, "runs", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "cursors", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.runs = body.runs || [];
        this.cursors = body.cursors || {};
    }
    getPaginatedItems() {
        return this.runs ?? [];
    }
    nextPageRequestOptions() {
        const cursor = this.cursors?.next;
        if (!cursor) {
            return null;
        }
        return {
            ...this.options,
            body: {
                ...maybeObj(this.options.body),
                cursor,
            },
        };
    }
}
class ItemsCursorPostPagination extends AbstractPage {
    constructor(client, response, body, options) {
        super(client, response, body, options);
        Object.defineProperty(this, "items", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "next_cursor", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.items = body.items || [];
        this.next_cursor = body.next_cursor || '';
    }
    getPaginatedItems() {
        return this.items ?? [];
    }
    nextPageRequestOptions() {
        const cursor = this.next_cursor;
        if (!cursor) {
            return null;
        }
        return {
            ...this.options,
            body: {
                ...maybeObj(this.options.body),
                cursor,
            },
        };
    }
}
class ItemsCursorGetPagination extends AbstractPage {
    constructor(client, response, body, options) {
        super(client, response, body, options);
        Object.defineProperty(this, "items", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "next_cursor", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.items = body.items || [];
        this.next_cursor = body.next_cursor || '';
    }
    getPaginatedItems() {
        return this.items ?? [];
    }
    nextPageRequestOptions() {
        const cursor = this.next_cursor;
        if (!cursor) {
            return null;
        }
        return {
            ...this.options,
            query: {
                ...maybeObj(this.options.query),
                cursor,
            },
        };
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/uploads.mjs

const checkFileSupport = () => {
    if (typeof File === 'undefined') {
        const { process } = globalThis;
        const isOldNode = typeof process?.versions?.node === 'string' && parseInt(process.versions.node.split('.')) < 20;
        throw new Error('`File` is not defined as a global, which is required for file uploads.' +
            (isOldNode ?
                " Update to Node 20 LTS or newer, or set `globalThis.File` to `import('node:buffer').File`."
                : ''));
    }
};
/**
 * Construct a `File` instance. This is used to ensure a helpful error is thrown
 * for environments that don't define a global `File` yet.
 */
function makeFile(fileBits, fileName, options) {
    checkFileSupport();
    return new File(fileBits, fileName ?? 'unknown_file', options);
}
function getName(value) {
    return (((typeof value === 'object' &&
        value !== null &&
        (('name' in value && value.name && String(value.name)) ||
            ('url' in value && value.url && String(value.url)) ||
            ('filename' in value && value.filename && String(value.filename)) ||
            ('path' in value && value.path && String(value.path)))) ||
        '')
        .split(/[\\/]/)
        .pop() || undefined);
}
const isAsyncIterable = (value) => value != null && typeof value === 'object' && typeof value[Symbol.asyncIterator] === 'function';
/**
 * Returns a multipart/form-data request if any part of the given request body contains a File / Blob value.
 * Otherwise returns the request as is.
 */
const maybeMultipartFormRequestOptions = async (opts, fetch) => {
    if (!hasUploadableValue(opts.body))
        return opts;
    return { ...opts, body: await createForm(opts.body, fetch) };
};
const multipartFormRequestOptions = async (opts, fetch) => {
    return { ...opts, body: await createForm(opts.body, fetch) };
};
const supportsFormDataMap = /* @__PURE__ */ new WeakMap();
/**
 * node-fetch doesn't support the global FormData object in recent node versions. Instead of sending
 * properly-encoded form data, it just stringifies the object, resulting in a request body of "[object FormData]".
 * This function detects if the fetch function provided supports the global FormData object to avoid
 * confusing error messages later on.
 */
function supportsFormData(fetchObject) {
    const fetch = typeof fetchObject === 'function' ? fetchObject : fetchObject.fetch;
    const cached = supportsFormDataMap.get(fetch);
    if (cached)
        return cached;
    const promise = (async () => {
        try {
            const FetchResponse = ('Response' in fetch ?
                fetch.Response
                : (await fetch('data:,')).constructor);
            const data = new FormData();
            if (data.toString() === (await new FetchResponse(data).text())) {
                return false;
            }
            return true;
        }
        catch {
            // avoid false negatives
            return true;
        }
    })();
    supportsFormDataMap.set(fetch, promise);
    return promise;
}
const createForm = async (body, fetch) => {
    if (!(await supportsFormData(fetch))) {
        throw new TypeError('The provided fetch function does not support file uploads with the current global FormData class.');
    }
    const form = new FormData();
    await Promise.all(Object.entries(body || {}).map(([key, value]) => addFormValue(form, key, value)));
    return form;
};
// We check for Blob not File because Bun.File doesn't inherit from File,
// but they both inherit from Blob and have a `name` property at runtime.
const isNamedBlob = (value) => value instanceof Blob && 'name' in value;
const isUploadable = (value) => typeof value === 'object' &&
    value !== null &&
    (value instanceof Response || isAsyncIterable(value) || isNamedBlob(value));
const hasUploadableValue = (value) => {
    if (isUploadable(value))
        return true;
    if (Array.isArray(value))
        return value.some(hasUploadableValue);
    if (value && typeof value === 'object') {
        for (const k in value) {
            if (hasUploadableValue(value[k]))
                return true;
        }
    }
    return false;
};
const addFormValue = async (form, key, value) => {
    if (value === undefined)
        return;
    if (value == null) {
        throw new TypeError(`Received null for "${key}"; to pass null in FormData, you must use the string 'null'`);
    }
    // TODO: make nested formats configurable
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        form.append(key, String(value));
    }
    else if (value instanceof Response) {
        form.append(key, makeFile([await value.blob()], getName(value)));
    }
    else if (isAsyncIterable(value)) {
        form.append(key, makeFile([await new Response(ReadableStreamFrom(value)).blob()], getName(value)));
    }
    else if (isNamedBlob(value)) {
        form.append(key, value, getName(value));
    }
    else if (Array.isArray(value)) {
        await Promise.all(value.map((entry) => addFormValue(form, key + '[]', entry)));
    }
    else if (typeof value === 'object') {
        await Promise.all(Object.entries(value).map(([name, prop]) => addFormValue(form, `${key}[${name}]`, prop)));
    }
    else {
        throw new TypeError(`Invalid value given to form, expected a string, number, boolean, object, Array, File or Blob but got ${value} instead`);
    }
};

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/to-file.mjs


/**
 * This check adds the arrayBuffer() method type because it is available and used at runtime
 */
const isBlobLike = (value) => value != null &&
    typeof value === 'object' &&
    typeof value.size === 'number' &&
    typeof value.type === 'string' &&
    typeof value.text === 'function' &&
    typeof value.slice === 'function' &&
    typeof value.arrayBuffer === 'function';
/**
 * This check adds the arrayBuffer() method type because it is available and used at runtime
 */
const isFileLike = (value) => value != null &&
    typeof value === 'object' &&
    typeof value.name === 'string' &&
    typeof value.lastModified === 'number' &&
    isBlobLike(value);
const isResponseLike = (value) => value != null &&
    typeof value === 'object' &&
    typeof value.url === 'string' &&
    typeof value.blob === 'function';
/**
 * Helper for creating a {@link File} to pass to an SDK upload method from a variety of different data formats
 * @param value the raw content of the file. Can be an {@link Uploadable}, BlobLikePart, or AsyncIterable of BlobLikeParts
 * @param {string=} name the name of the file. If omitted, toFile will try to determine a file name from bits if possible
 * @param {Object=} options additional properties
 * @param {string=} options.type the MIME type of the content
 * @param {number=} options.lastModified the last modified timestamp
 * @returns a {@link File} with the given properties
 */
async function toFile(value, name, options) {
    checkFileSupport();
    // If it's a promise, resolve it.
    value = await value;
    // If we've been given a `File` we don't need to do anything
    if (isFileLike(value)) {
        if (value instanceof File) {
            return value;
        }
        return makeFile([await value.arrayBuffer()], value.name);
    }
    if (isResponseLike(value)) {
        const blob = await value.blob();
        name || (name = new URL(value.url).pathname.split(/[\\/]/).pop());
        return makeFile(await getBytes(blob), name, options);
    }
    const parts = await getBytes(value);
    name || (name = getName(value));
    if (!options?.type) {
        const type = parts.find((part) => typeof part === 'object' && 'type' in part && part.type);
        if (typeof type === 'string') {
            options = { ...options, type };
        }
    }
    return makeFile(parts, name, options);
}
async function getBytes(value) {
    let parts = [];
    if (typeof value === 'string' ||
        ArrayBuffer.isView(value) || // includes Uint8Array, Buffer, etc.
        value instanceof ArrayBuffer) {
        parts.push(value);
    }
    else if (isBlobLike(value)) {
        parts.push(value instanceof Blob ? value : await value.arrayBuffer());
    }
    else if (isAsyncIterable(value) // includes Readable, ReadableStream, etc.
    ) {
        for await (const chunk of value) {
            parts.push(...(await getBytes(chunk))); // TODO, consider validating?
        }
    }
    else {
        const constructor = value?.constructor?.name;
        throw new Error(`Unexpected data type: ${typeof value}${constructor ? `; constructor: ${constructor}` : ''}${propsForError(value)}`);
    }
    return parts;
}
function propsForError(value) {
    if (typeof value !== 'object' || value === null)
        return '';
    const props = Object.getOwnPropertyNames(value);
    return `; props: [${props.map((p) => `"${p}"`).join(', ')}]`;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/core/uploads.mjs


;// CONCATENATED MODULE: ./node_modules/langsmith/core/resource.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.
class APIResource {
    constructor(client) {
        Object.defineProperty(this, "_client", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this._client = client;
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/headers.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

const brand_privateNullableHeaders = /* @__PURE__ */ Symbol('brand.privateNullableHeaders');
function* iterateHeaders(headers) {
    if (!headers)
        return;
    if (brand_privateNullableHeaders in headers) {
        const { values, nulls } = headers;
        yield* values.entries();
        for (const name of nulls) {
            yield [name, null];
        }
        return;
    }
    let shouldClear = false;
    let iter;
    if (headers instanceof Headers) {
        iter = headers.entries();
    }
    else if (isReadonlyArray(headers)) {
        iter = headers;
    }
    else {
        shouldClear = true;
        iter = Object.entries(headers ?? {});
    }
    for (let row of iter) {
        const name = row[0];
        if (typeof name !== 'string')
            throw new TypeError('expected header name to be a string');
        const values = isReadonlyArray(row[1]) ? row[1] : [row[1]];
        let didClear = false;
        for (const value of values) {
            if (value === undefined)
                continue;
            // Objects keys always overwrite older headers, they never append.
            // Yield a null to clear the header before adding the new values.
            if (shouldClear && !didClear) {
                didClear = true;
                yield [name, null];
            }
            yield [name, value];
        }
    }
}
const buildHeaders = (newHeaders) => {
    const targetHeaders = new Headers();
    const nullHeaders = new Set();
    for (const headers of newHeaders) {
        const seenHeaders = new Set();
        for (const [name, value] of iterateHeaders(headers)) {
            const lowerName = name.toLowerCase();
            if (!seenHeaders.has(lowerName)) {
                targetHeaders.delete(name);
                seenHeaders.add(lowerName);
            }
            if (value === null) {
                targetHeaders.delete(name);
                nullHeaders.add(lowerName);
            }
            else {
                targetHeaders.append(name, value);
                nullHeaders.delete(lowerName);
            }
        }
    }
    return { [brand_privateNullableHeaders]: true, values: targetHeaders, nulls: nullHeaders };
};
const isEmptyHeaders = (headers) => {
    for (const _ of iterateHeaders(headers))
        return false;
    return true;
};

;// CONCATENATED MODULE: ./node_modules/langsmith/internal/utils/path.mjs

/**
 * Percent-encode everything that isn't safe to have in a path without encoding safe chars.
 *
 * Taken from https://datatracker.ietf.org/doc/html/rfc3986#section-3.3:
 * > unreserved  = ALPHA / DIGIT / "-" / "." / "_" / "~"
 * > sub-delims  = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
 * > pchar       = unreserved / pct-encoded / sub-delims / ":" / "@"
 */
function encodeURIPath(str) {
    return str.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@]+/g, encodeURIComponent);
}
const EMPTY = /* @__PURE__ */ Object.freeze(/* @__PURE__ */ Object.create(null));
const createPathTagFunction = (pathEncoder = encodeURIPath) => function path(statics, ...params) {
    // If there are no params, no processing is needed.
    if (statics.length === 1)
        return statics[0];
    let postPath = false;
    const invalidSegments = [];
    const path = statics.reduce((previousValue, currentValue, index) => {
        if (/[?#]/.test(currentValue)) {
            postPath = true;
        }
        const value = params[index];
        let encoded = (postPath ? encodeURIComponent : pathEncoder)('' + value);
        if (index !== params.length &&
            (value == null ||
                (typeof value === 'object' &&
                    // handle values from other realms
                    value.toString ===
                        Object.getPrototypeOf(Object.getPrototypeOf(value.hasOwnProperty ?? EMPTY) ?? EMPTY)
                            ?.toString))) {
            encoded = value + '';
            invalidSegments.push({
                start: previousValue.length + currentValue.length,
                length: encoded.length,
                error: `Value of type ${Object.prototype.toString
                    .call(value)
                    .slice(8, -1)} is not a valid path parameter`,
            });
        }
        return previousValue + currentValue + (index === params.length ? '' : encoded);
    }, '');
    const pathOnly = path.split(/[?#]/, 1)[0];
    const invalidSegmentPattern = /(?<=^|\/)(?:\.|%2e){1,2}(?=\/|$)/gi;
    let match;
    // Find all invalid segments
    while ((match = invalidSegmentPattern.exec(pathOnly)) !== null) {
        invalidSegments.push({
            start: match.index,
            length: match[0].length,
            error: `Value "${match[0]}" can\'t be safely passed as a path parameter`,
        });
    }
    invalidSegments.sort((a, b) => a.start - b.start);
    if (invalidSegments.length > 0) {
        let lastEnd = 0;
        const underline = invalidSegments.reduce((acc, segment) => {
            const spaces = ' '.repeat(segment.start - lastEnd);
            const arrows = '^'.repeat(segment.length);
            lastEnd = segment.start + segment.length;
            return acc + spaces + arrows;
        }, '');
        throw new error_LangsmithError(`Path parameters result in path with invalid segments:\n${invalidSegments
            .map((e) => e.error)
            .join('\n')}\n${path}\n${underline}`);
    }
    return path;
};
/**
 * URI-encodes path params and ensures no unsafe /./ or /../ path segments are introduced.
 */
const path_path = /* @__PURE__ */ createPathTagFunction(encodeURIPath);

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/agents.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.




class Agents extends APIResource {
    /**
     * Creates an Agent with a caller-assigned ID. Returns 409 if the ID already
     * exists. Creates all four environments unless production_only is set for a FLEET
     * agent. source_type defaults to EXTERNAL in this SDK. agent_type defaults to
     * CUSTOM. The authenticated user becomes the owner
     * when available. Requires permission to create projects. The response does not
     * include runtime bindings.
     */
    create(body, options) {
        return this._client.post('/api/v1/agents', {
            body: { ...body, source_type: body.source_type === undefined ? 'EXTERNAL' : body.source_type },
            ...options,
        });
    }
    /**
     * Returns an Agent with the environments visible to the caller. The path value is
     * the user-assigned Agent ID. Pass include=runtime_bindings to embed each
     * environment's runtime bindings.
     */
    retrieve(agentID, query = {}, options) {
        return this._client.get(path_path `/api/v1/agents/${agentID}`, { query, ...options });
    }
    /**
     * Updates an Agent's name, source_type, agent_type, or owner_id. Omitted fields
     * keep their values. Changing or clearing owner_id additionally requires
     * workspaces:manage; assigning an owner also requires workspaces:read and active
     * workspace membership. Owner changes update the Agent registry only; Fleet
     * runtime ownership, access, and connected accounts are unchanged. Changing
     * agent_type requires workspaces:manage in addition to project update access;
     * repeating the current type is a no-op. Source type can change only for an
     * EXTERNAL Agent without runtime bindings. The id is immutable and is rejected
     * when present. Requires update permission on every environment project.
     */
    update(agentID, body, options) {
        return this._client.patch(path_path `/api/v1/agents/${agentID}`, { body, ...options });
    }
    /**
     * Returns Agents visible to the caller. Each item is the same Agent shape as GET
     * /api/v1/agents/{agent_id}, including the environments the caller may read. The
     * list never embeds runtime bindings. An unknown query parameter, including limit,
     * returns 400; use page_size to set the page size.
     */
    list(query = {}, options) {
        return this._client.getAPIList('/api/v1/agents', (ItemsCursorGetPagination), { query, ...options });
    }
    /**
     * Permanently deletes an Agent, along with its environments, runtime bindings,
     * runtimes, and tracing projects. This cannot be undone. Deleting an Agent that
     * does not exist returns 204.
     */
    delete(agentID, options) {
        return this._client.delete(path_path `/api/v1/agents/${agentID}`, {
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/annotation-queues/items.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class Items extends APIResource {
    /**
     * Add RUN or THREAD items to a single annotation queue. RUN items require run_id
     * unless they are created from a suggested example. THREAD items require thread_id
     * and project_id.
     */
    create(queueID, params, options) {
        const { extend_trace_retention, ...body } = params;
        return this._client.post(path_path `/api/v1/platform/annotation-queues/${queueID}/items`, {
            query: { extend_trace_retention },
            body,
            ...options,
        });
    }
    /**
     * Partially update mutable timestamps (added_at, last_reviewed_time) for a RUN or
     * THREAD annotation queue item. Omit a field, or pass JSON null, to leave it
     * unchanged.
     */
    update(itemID, params, options) {
        const { queue_id, ...body } = params;
        return this._client.patch(path_path `/api/v1/platform/annotation-queues/${queue_id}/items/${itemID}`, {
            body,
            ...options,
        });
    }
    /**
     * List RUN and THREAD items in a single annotation queue for one review status
     * section, with opaque cursor pagination. Optional item_type=RUN|THREAD filters
     * the page. Optional min_start_time/max_start_time bound the item's trace start
     * time; items with no start time are excluded when either bound is set.
     * direction=backward returns items before the supplied cursor. The response
     * contains item metadata only, not expanded run or thread payloads.
     * status=archived returns items whose queue review requirements have been
     * satisfied, not merely items the caller personally marked completed.
     */
    list(queueID, query, options) {
        return this._client.getAPIList(path_path `/api/v1/platform/annotation-queues/${queueID}/items`, (ItemsCursorGetPagination), { query, ...options });
    }
    /**
     * Log the caller's reviewer status for a RUN or THREAD annotation queue item. A
     * null status re-shows the item for this reviewer.
     */
    createStatus(queueItemID, body, options) {
        return this._client.post(path_path `/api/v1/platform/annotation-queues/items/${queueItemID}/status`, {
            body,
            ...options,
        });
    }
    /**
     * Remove RUN or THREAD items from a single annotation queue by item ID. Both
     * active and completed items can be removed.
     */
    deleteAll(queueID, body, options) {
        return this._client.post(path_path `/api/v1/platform/annotation-queues/${queueID}/items/delete`, {
            body,
            ...options,
        });
    }
    /**
     * Returns the number of annotation queue items in one status bucket. The two time
     * windows are independent: start_time/end_time bound when an item was archived,
     * min_start_time/max_start_time bound when its trace ran. Items with no trace
     * start time are excluded when either of the latter is set.
     */
    retrieveCount(queueID, query, options) {
        return this._client.get(path_path `/api/v1/platform/annotation-queues/${queueID}/items/count`, {
            query,
            ...options,
        });
    }
    /**
     * Resolve a RUN or THREAD item to its current review section and zero-based
     * position for deep linking. The returned cursor counts RUN and THREAD items
     * together, so it is only valid for a list request with no item_type or start-time
     * filter.
     */
    retrievePlacement(itemID, params, options) {
        const { queue_id } = params;
        return this._client.get(path_path `/api/v1/platform/annotation-queues/${queue_id}/items/${itemID}/placement`, options);
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/annotation-queues/runs.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.


class Runs extends APIResource {
    /**
     * Add Runs To Annotation Queue
     *
     * @deprecated Deprecated: use the annotation queue items create endpoint (POST /api/v1/platform/annotation-queues/{queue_id}/items) instead. Will be removed after Jan 31, 2027.
     */
    create(queueID, params, options) {
        const { body, extend_trace_retention } = params;
        return this._client.post(path_path `/api/v1/annotation-queues/${queueID}/runs`, {
            query: { extend_trace_retention },
            body: body,
            ...options,
        });
    }
    /**
     * Update Run In Annotation Queue
     *
     * @deprecated Deprecated: use the annotation queue items update method (PATCH /api/v1/platform/annotation-queues/{queue_id}/items/{item_id}) instead. Will be removed after Jan 31, 2027.
     */
    update(queueRunID, params, options) {
        const { queue_id, ...body } = params;
        return this._client.patch(path_path `/api/v1/annotation-queues/${queue_id}/runs/${queueRunID}`, {
            body,
            ...options,
        });
    }
    /**
     * Get Runs From Annotation Queue
     *
     * @deprecated Deprecated: use the annotation queue items list method (GET /api/v1/platform/annotation-queues/{queue_id}/items) instead. Will be removed after Jan 31, 2027.
     */
    list(queueID, query = {}, options) {
        return this._client.get(path_path `/api/v1/annotation-queues/${queueID}/runs`, { query, ...options });
    }
    /**
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @deprecated Deprecated: use the annotation queue items create endpoint (POST /api/v1/platform/annotation-queues/{queue_id}/items) instead. Will be removed after Jan 31, 2027.
     */
    createByKey(queueID, params, options) {
        const { body, extend_trace_retention } = params;
        return this._client.post(path_path `/api/v1/annotation-queues/${queueID}/runs/by-key`, {
            query: { extend_trace_retention },
            body: body,
            ...options,
        });
    }
    /**
     * Delete Runs From Annotation Queue
     *
     * @deprecated Deprecated: use the annotation queue items delete_all method (POST /api/v1/platform/annotation-queues/{queue_id}/items/delete) instead. Will be removed after Jan 31, 2027.
     */
    deleteAll(queueID, body, options) {
        return this._client.post(path_path `/api/v1/annotation-queues/${queueID}/runs/delete`, { body, ...options });
    }
    /**
     * Delete Run From Annotation Queue
     *
     * @deprecated Deprecated: use the annotation queue items delete_all method (POST /api/v1/platform/annotation-queues/{queue_id}/items/delete) with the item ID instead. Will be removed after Jan 31, 2027.
     */
    deleteQueue(queueRunID, params, options) {
        const { queue_id } = params;
        return this._client.delete(path_path `/api/v1/annotation-queues/${queue_id}/runs/${queueRunID}`, options);
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/annotation-queues/annotation-queues.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.







class AnnotationQueues extends APIResource {
    constructor() {
        super(...arguments);
        Object.defineProperty(this, "runs", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Runs(this._client)
        });
        Object.defineProperty(this, "items", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Items(this._client)
        });
    }
    /**
     * Get Annotation Queue
     */
    retrieve(queueID, options) {
        return this._client.get(path_path `/api/v1/annotation-queues/${queueID}`, options);
    }
    /**
     * Update Annotation Queue
     */
    update(queueID, body, options) {
        return this._client.patch(path_path `/api/v1/annotation-queues/${queueID}`, { body, ...options });
    }
    /**
     * Delete Annotation Queue
     */
    delete(queueID, options) {
        return this._client.delete(path_path `/api/v1/annotation-queues/${queueID}`, options);
    }
    /**
     * Create Annotation Queue
     */
    annotationQueues(body, options) {
        return this._client.post('/api/v1/annotation-queues', { body, ...options });
    }
    /**
     * Create Identity Annotation Queue Run Status
     *
     * @deprecated Deprecated: use the annotation queue items create_status method (POST /api/v1/platform/annotation-queues/items/{queue_item_id}/status) instead. Will be removed after Jan 31, 2027.
     */
    createRunStatus(annotationQueueRunID, body, options) {
        return this._client.post(path_path `/api/v1/annotation-queues/status/${annotationQueueRunID}`, {
            body,
            ...options,
        });
    }
    /**
     * Export Annotation Queue Archived Runs
     */
    export(queueID, body, options) {
        return this._client.post(path_path `/api/v1/annotation-queues/${queueID}/export`, { body, ...options });
    }
    /**
     * Populate annotation queue with runs from an experiment.
     */
    populate(body, options) {
        return this._client.post('/api/v1/annotation-queues/populate', { body, ...options });
    }
    /**
     * Get Annotation Queues
     */
    retrieveAnnotationQueues(query = {}, options) {
        return this._client.getAPIList('/api/v1/annotation-queues', (OffsetPaginationTopLevelArray), { query, ...options });
    }
    /**
     * Get Annotation Queues For Run
     */
    retrieveQueues(runID, options) {
        return this._client.get(path_path `/api/v1/annotation-queues/${runID}/queues`, options);
    }
    /**
     * Get a run from an annotation queue
     *
     * @deprecated Deprecated: use the annotation queue items list and retrieve_placement methods instead, which call GET /api/v1/platform/annotation-queues/{queue_id}/items and GET /api/v1/platform/annotation-queues/{queue_id}/items/{item_id}/placement. Will be removed after Jan 31, 2027.
     */
    retrieveRun(index, params, options) {
        const { queue_id, ...query } = params;
        return this._client.get(path_path `/api/v1/annotation-queues/${queue_id}/run/${index}`, { query, ...options });
    }
    /**
     * Get Size From Annotation Queue
     *
     * @deprecated Deprecated: use the annotation queue items retrieve_count method (GET /api/v1/platform/annotation-queues/{queue_id}/items/count) with the desired status instead. Will be removed after Jan 31, 2027.
     */
    retrieveSize(queueID, query = {}, options) {
        return this._client.get(path_path `/api/v1/annotation-queues/${queueID}/size`, { query, ...options });
    }
    /**
     * Get Total Archived From Annotation Queue
     *
     * @deprecated Deprecated: use the annotation queue items retrieve_count method (GET /api/v1/platform/annotation-queues/{queue_id}/items/count?status=archived) instead. Will be removed after Jan 31, 2027.
     */
    retrieveTotalArchived(queueID, query = {}, options) {
        return this._client.get(path_path `/api/v1/annotation-queues/${queueID}/total_archived`, { query, ...options });
    }
    /**
     * Get Total Size From Annotation Queue
     *
     * @deprecated Deprecated: use the annotation queue items retrieve_count method (GET /api/v1/platform/annotation-queues/{queue_id}/items/count?status=all) instead. Will be removed after Jan 31, 2027.
     */
    retrieveTotalSize(queueID, options) {
        return this._client.get(path_path `/api/v1/annotation-queues/${queueID}/total_size`, options);
    }
}
AnnotationQueues.Runs = Runs;
AnnotationQueues.Items = Items;

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/datasets/examples.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class Examples extends APIResource {
    /**
     * Soft-delete an example, preserving prior versions and their attachments. If the
     * latest version is already deleted, the request succeeds without creating another
     * version. Deletion is recorded at the current time or just after the latest
     * version, whichever is later. For future-dated versions, latest reads reflect
     * deletion immediately; timestamp reads reflect deletion only at or after the
     * recorded deletion timestamp.
     */
    delete(exampleID, params, options) {
        const { dataset_id } = params;
        return this._client.delete(path_path `/api/v1/platform/datasets/${dataset_id}/examples/${exampleID}`, {
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
    /**
     * Applies the same metadata changes, in order, to every listed example in a
     * dataset. Examples that are not in the dataset or were deleted are skipped; the
     * rest are updated together, so if the update fails none of them change. Answers
     * 207 with one status per submitted example ID: UPDATED, or NOT_FOUND for a
     * skipped example. Metadata keys the operations do not name keep their values. To
     * add examples to a split or remove them from one, use ARRAY_ADD or ARRAY_REMOVE
     * on the dataset_split key. Requires permission to update datasets.
     */
    updateMetadata(datasetID, body, options) {
        return this._client.patch(path_path `/api/v1/platform/datasets/${datasetID}/examples/metadata`, {
            body,
            ...options,
        });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/datasets/experiment-runs.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class ExperimentRuns extends APIResource {
    /**
     * Returns a paginated page of dataset examples with runs from the requested
     * experiments. Response uses the canonical `{items, next_cursor}` envelope.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     */
    query(datasetID, body, options) {
        return this._client.getAPIList(path_path `/api/v2/datasets/${datasetID}/experiment-runs`, (ItemsCursorPostPagination), { body, method: 'post', ...options });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/datasets/datasets.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.






class Datasets extends APIResource {
    constructor() {
        super(...arguments);
        Object.defineProperty(this, "examples", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Examples(this._client)
        });
        Object.defineProperty(this, "experimentRuns", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new ExperimentRuns(this._client)
        });
    }
    /**
     * Returns one page of the datasets in the workspace, filtered and sorted by the
     * query parameters. Pass the next_cursor of a response as cursor, with the same
     * filters and sort, to get the next page. next_cursor is null on the last page.
     */
    listV2(query = {}, options) {
        return this._client.getAPIList('/api/v2/datasets', (ItemsCursorGetPagination), {
            query,
            ...options,
        });
    }
}
Datasets.Examples = Examples;
Datasets.ExperimentRuns = ExperimentRuns;

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/evaluators.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

class Evaluators extends APIResource {
    /**
     * List all run rules.
     */
    list(query = {}, options) {
        return this._client.get('/api/v1/runs/rules', { query, ...options });
    }
    /**
     * Create a decision-model evaluator (Jev, SemIf or OpenAI Decisions) from its
     * prompt and questions, and attach it to a project or dataset. Each question's key
     * becomes a feedback key.
     */
    createDecisionModel(body, options) {
        return this._client.post('/api/v1/runs/rules/decision-models', { body, ...options });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/fleet/threads.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.


class Threads extends APIResource {
    /**
     * Starts or resumes the sandbox referenced by the thread and returns when it is
     * ready. The operation is idempotent. The thread must include
     * sandbox.sandbox_slug.
     */
    activateSandbox(threadID, options) {
        return this._client.post(path_path `/v1/fleet/threads/${threadID}/sandbox-activation`, options);
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/fleet/fleet.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class Fleet extends APIResource {
    constructor() {
        super(...arguments);
        Object.defineProperty(this, "threads", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Threads(this._client)
        });
    }
}
Fleet.Threads = Threads;

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/info.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

class Info extends APIResource {
    /**
     * Returns information about the current LangSmith deployment: version, instance
     * feature flags, batch-ingest limits, and max SDK versions. Unauthenticated by
     * default; set FF_INFO_ENDPOINT_AUTH_REQUIRED=true to require auth.
     */
    list(options) {
        return this._client.get('/api/v1/info', options);
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/issues.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class Issues extends APIResource {
    /**
     * **Beta:** This endpoint is in active development and may change without notice.
     *
     * Returns one issue for the authenticated tenant.
     */
    retrieve(id, query = {}, options) {
        return this._client.get(path_path `/api/v1/platform/issues/${id}`, { query, ...options });
    }
    /**
     * **Beta:** This endpoint is in active development and may change without notice.
     *
     * Returns issues for the authenticated tenant, optionally filtered by session,
     * status, severity, tag, linked trace, or last modified time.
     */
    list(query = {}, options) {
        return this._client.getAPIList('/api/v1/platform/issues', (OffsetPaginationIssues), {
            query,
            ...options,
        });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/online-evaluators.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.




class OnlineEvaluators extends APIResource {
    /**
     * Create a new LLM or code evaluator for the current workspace.
     */
    create(body, options) {
        return this._client.post('/api/v1/platform/evaluators', { body, ...options });
    }
    /**
     * Retrieve a single evaluator by its ID.
     */
    retrieve(evaluatorID, options) {
        return this._client.get(path_path `/api/v1/platform/evaluators/${evaluatorID}`, options);
    }
    /**
     * Update an existing evaluator's name, LLM configuration, or code configuration.
     * Returns 409 when a code evaluator build is ENQUEUED or BUILDING.
     */
    update(evaluatorID, body, options) {
        return this._client.patch(path_path `/api/v1/platform/evaluators/${evaluatorID}`, { body, ...options });
    }
    /**
     * List evaluators for the current workspace, with optional filtering by type,
     * name, tag, feedback key, or resource ID.
     */
    list(query = {}, options) {
        return this._client.getAPIList('/api/v1/platform/evaluators', (OffsetPaginationOnlineEvaluators), { query, ...options });
    }
    /**
     * Delete an evaluator. Returns 409 when a code evaluator build is ENQUEUED or
     * BUILDING, or when run rules still reference the evaluator and delete_run_rules
     * is false. When delete_run_rules is true, all run rules referencing this
     * evaluator are deleted first (same tenant) if the build is not in flight.
     * Associated llm_evaluators and code_evaluators rows are removed by foreign-key
     * cascade when the evaluator row is deleted.
     */
    delete(evaluatorID, params = {}, options) {
        const { delete_run_rules } = params ?? {};
        return this._client.delete(path_path `/api/v1/platform/evaluators/${evaluatorID}`, {
            query: { delete_run_rules },
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
    /**
     * Delete multiple evaluators by their IDs. Returns per-item success/failure.
     */
    bulkDelete(params, options) {
        const { evaluator_ids, delete_run_rules } = params;
        return this._client.delete('/api/v1/platform/evaluators', {
            query: { evaluator_ids, delete_run_rules },
            ...options,
        });
    }
    /**
     * Returns per-day LLM evaluator spend for the requested 7-day period, grouped by
     * evaluator, resource, or run rule. Exactly one of group_by, evaluator_id,
     * session_id, or dataset_id is required. resource_id, type, feedback_key,
     * tag_value_id, and agent_id may be supplied with group_by to narrow listing
     * aggregations.
     */
    spend(query, options) {
        return this._client.get('/api/v1/platform/evaluators/spend', { query, ...options });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/product-feedback.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class ProductFeedback extends APIResource {
    /**
     * **Alpha:** This endpoint is in active development and may change without notice.
     *
     * Submits concise product feedback with optional non-sensitive client details.
     */
    create(params, options) {
        const { 'Idempotency-Key': idempotencyKey, ...body } = params;
        return this._client.post('/api/v1/platform/product-feedbacks', {
            body,
            ...options,
            headers: buildHeaders([
                { ...(idempotencyKey != null ? { 'Idempotency-Key': idempotencyKey } : undefined) },
                options?.headers,
            ]),
        });
    }
    /**
     * **Alpha:** This endpoint is in active development and may change without notice.
     */
    retrieve(id, options) {
        return this._client.get(path_path `/api/v1/platform/product-feedbacks/${id}`, options);
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/prompt-webhooks.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class PromptWebhooks extends APIResource {
    /**
     * Create a new prompt webhook.
     *
     * LangSmith sends a POST request to the webhook URL for each event listed in
     * triggers on the prompts it matches. A workspace can have one prompt webhook
     * unless its limit was raised; creating one past the limit returns 400.
     */
    create(body, options) {
        return this._client.post('/api/v1/prompt-webhooks', { body, ...options });
    }
    /**
     * Get a specific prompt webhook.
     */
    retrieve(webhookID, options) {
        return this._client.get(path_path `/api/v1/prompt-webhooks/${webhookID}`, options);
    }
    /**
     * Update a specific prompt webhook.
     *
     * Omitted fields keep their current values; list fields and headers that are set
     * replace the stored values.
     */
    update(webhookID, body, options) {
        return this._client.patch(path_path `/api/v1/prompt-webhooks/${webhookID}`, { body, ...options });
    }
    /**
     * List all prompt webhooks for the current tenant.
     */
    list(options) {
        return this._client.get('/api/v1/prompt-webhooks', options);
    }
    /**
     * Delete a specific prompt webhook.
     */
    delete(webhookID, options) {
        return this._client.delete(path_path `/api/v1/prompt-webhooks/${webhookID}`, {
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
    /**
     * Test a specific prompt webhook.
     *
     * Sends the sample payload to the webhook configuration in the request body
     * without saving it, but only if the webhook's triggers include the payload's
     * event and its prompt filters match the payload's prompt. Otherwise nothing is
     * sent. Fails if the destination does not accept the payload.
     */
    test(body, options) {
        return this._client.post('/api/v1/prompt-webhooks/test', { body, ...options });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/public/runs.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class runs_Runs extends APIResource {
    /**
     * Returns one run within the trace identified by the share token. The request
     * supplies only the run ID and that run's exact start_time coordinate.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * const run = await client.public.runs.retrieve(
     *   '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e',
     *   {
     *     share_token: '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e',
     *     selects: ['string'],
     *     start_time: '2019-12-27T18:11:19.117Z',
     *   },
     * );
     * ```
     */
    retrieve(runID, params, options) {
        const { share_token, Accept, ...query } = params;
        return this._client.get(path_path `/api/v2/public/${share_token}/run/${runID}`, {
            query,
            ...options,
            headers: buildHeaders([{ ...(Accept != null ? { Accept: Accept } : undefined) }, options?.headers]),
        });
    }
    /**
     * Returns all runs within the trace identified by the share token. The share token
     * supplies the tenant, project, and trace scope.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * const response = await client.public.runs.query(
     *   '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e',
     * );
     * ```
     */
    query(shareToken, params, options) {
        const { Accept, ...body } = params;
        return this._client.post(path_path `/api/v2/public/${shareToken}/runs/query`, {
            body,
            ...options,
            headers: buildHeaders([{ ...(Accept != null ? { Accept: Accept } : undefined) }, options?.headers]),
        });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/public/public.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class Public extends APIResource {
    constructor() {
        super(...arguments);
        Object.defineProperty(this, "runs", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new runs_Runs(this._client)
        });
    }
}
Public.Runs = runs_Runs;

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/runs/share.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class Share extends APIResource {
    /**
     * Creates or returns a share token for a run. Child runs share their trace root.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * const share = await client.runs.share.create(
     *   '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e',
     *   {
     *     session_id: '018e4c7e-a9fb-7ef0-a5b6-6ea3a82e9327',
     *     trace_id: '018e4c7e-a9fb-7ef0-a5b6-6ea3a82e9327',
     *   },
     * );
     * ```
     */
    create(runID, body, options) {
        return this._client.post(path_path `/api/v2/runs/${runID}/share`, { body, ...options });
    }
    /**
     * Deletes the share token for the trace identified by trace_id and session_id.
     * Idempotent: returns 204 whether or not a share token existed.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * await client.runs.share.delete(
     *   '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e',
     *   { session_id: '018e4c7e-a9fb-7ef0-a5b6-6ea3a82e9327' },
     * );
     * ```
     */
    delete(traceID, body, options) {
        return this._client.delete(path_path `/api/v2/runs/${traceID}/share`, {
            body,
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/core/query-streaming.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.
/**
 * Yields the items of a streamed query one at a time and follows the next page cursor across pages.
 *
 * The stream is a sequence of JSON Patch operations on the page document. While a page only appends items
 * (the root document, `<items>/-`) each item is yielded as soon as it arrives. As soon as the page inserts
 * at an index (`add <items>/<n>`) or replaces or removes an item, the position of an item is only known once
 * the page's stream ends: from then on items are held back and yielded in their final order at the end of
 * the page. Items yielded before that cannot be reordered. Patches deeper than one item are ignored: the
 * item was already yielded.
 */
async function* iterQueryStream(fetch, paths) {
    const itemPath = new RegExp(`^${escapeRegExp(paths.items)}/(-|\\d+)$`);
    let cursor;
    do {
        let next = null;
        // The page's items in their current order, of which the first `yielded` were already yielded.
        const doc = [];
        let yielded = 0;
        let buffered = false;
        for await (const event of await fetch(cursor)) {
            for (const op of event) {
                if (op.path === '') {
                    const root = op.value;
                    next = getPointer(root, paths.nextCursor) ?? null;
                    const items = getPointer(root, paths.items) ?? [];
                    doc.splice(yielded, doc.length - yielded, ...items.slice(yielded));
                }
                else if (op.path === paths.nextCursor) {
                    next = op.value ?? null;
                }
                else {
                    const match = itemPath.exec(op.path);
                    if (!match)
                        continue;
                    const index = match[1] === '-' ? doc.length : Number(match[1]);
                    if (match[1] !== '-')
                        buffered = true;
                    if (op.op === 'remove') {
                        if (index >= yielded && index < doc.length)
                            doc.splice(index, 1);
                    }
                    else if (op.op === 'replace') {
                        if (index >= yielded && index < doc.length)
                            doc[index] = op.value;
                    }
                    else {
                        doc.splice(Math.min(index, doc.length), 0, op.value);
                    }
                }
                // Append-only pages keep their streaming latency.
                while (!buffered && yielded < doc.length)
                    yield doc[yielded++];
            }
        }
        while (yielded < doc.length)
            yield doc[yielded++];
        cursor = next || undefined;
    } while (cursor);
}
function getPointer(doc, pointer) {
    let value = doc;
    for (const segment of pointer.split('/').slice(1)) {
        if (value == null || typeof value !== 'object')
            return undefined;
        value = value[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return value;
}
function escapeRegExp(value) {
    return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/runs/streaming.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class Streaming extends APIResource {
    /**
     * Returns a paginated list of runs for the given projects within min/max
     * start_time. Supports filters, cursor pagination, and `selects` to select fields
     * to return.
     *
     * When `ai_search` is set, `Accept: text/event-stream` is required; requests
     * without it return 406. AI search is unavailable on deployments that route
     * queries to the v1 backend and returns 501 there.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * const response = await client.runs.streaming.queryV2();
     * ```
     */
    queryV2(params, options) {
        const { Accept, ...body } = params;
        return this._client.post('/api/v2/runs/query', {
            body,
            ...options,
            headers: buildHeaders([{ Accept: Accept != null ? Accept : 'text/event-stream' }, options?.headers]),
            stream: true,
        });
    }
    /**
     * Yields the items of `queryV2` one at a time across pages, following the next page cursor.
     *
     * @example
     * ```ts
     * // Automatically fetches more pages as needed.
     * for await (const run of client.runs.streaming.queryV2Items(
     *   {},
     * )) {
     *   // ...
     * }
     * ```
     */
    queryV2Items(params, options) {
        return iterQueryStream((cursor) => this.queryV2(cursor ? { ...params, cursor } : params, options), { items: '/items', nextCursor: '/next_cursor' });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/runs/runs.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.








class runs_runs_Runs extends APIResource {
    constructor() {
        super(...arguments);
        Object.defineProperty(this, "streaming", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Streaming(this._client)
        });
        Object.defineProperty(this, "share", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Share(this._client)
        });
        Object.defineProperty(this, "retrieve", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: this.retrieveV2
        });
        Object.defineProperty(this, "query", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: this.queryV2
        });
    }
    /**
     * Returns the URL to view a specific run in the LangSmith UI. The caller must
     * supply the run's project_id and trace_id as query parameters; start_time is
     * optional.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * const response = await client.runs.getURL(
     *   '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e',
     *   { project_id: 'project_id', trace_id: 'trace_id' },
     * );
     * ```
     */
    getURL(runID, query, options) {
        return this._client.get(path_path `/api/v2/runs/${runID}/url`, { query, ...options });
    }
    /**
     * Returns a paginated list of runs for the given projects within min/max
     * start_time. Supports filters, cursor pagination, and `selects` to select fields
     * to return.
     *
     * When `ai_search` is set, `Accept: text/event-stream` is required; requests
     * without it return 406. AI search is unavailable on deployments that route
     * queries to the v1 backend and returns 501 there.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * // Automatically fetches more pages as needed.
     * for await (const run of client.runs.queryV2()) {
     *   // ...
     * }
     * ```
     */
    queryV2(params, options) {
        const { Accept, ...body } = params;
        return this._client.getAPIList('/api/v2/runs/query', (ItemsCursorPostPagination), {
            body,
            method: 'post',
            ...options,
            headers: buildHeaders([{ ...(Accept != null ? { Accept: Accept } : undefined) }, options?.headers]),
        });
    }
    /**
     * Returns one run by ID for the given session. Use the `selects` query parameter
     * (repeatable) to select fields to return.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * const run = await client.runs.retrieveV2(
     *   '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e',
     *   { project_id: '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e' },
     * );
     * ```
     */
    retrieveV2(runID, params, options) {
        const { Accept, ...query } = params;
        return this._client.get(path_path `/api/v2/runs/${runID}`, {
            query,
            ...options,
            headers: buildHeaders([{ ...(Accept != null ? { Accept: Accept } : undefined) }, options?.headers]),
        });
    }
}
runs_runs_Runs.Streaming = Streaming;
runs_runs_Runs.Share = Share;

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/sandboxes/boxes.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.




class Boxes extends APIResource {
    /**
     * Create a new sandbox from a snapshot. Provide at most one of `snapshot_id` or
     * `snapshot_name`; if neither is provided, the server uses the default snapshot.
     * `snapshot_name` accepts a Docker-style `name` or `name:tag` reference (a bare
     * name resolves to `name:latest`).
     */
    create(body, options) {
        return this._client.post('/api/v2/sandboxes/boxes', { body, ...options });
    }
    /**
     * Retrieve a sandbox by name. Stale provisioning sandboxes are auto-failed.
     */
    retrieve(name, options) {
        return this._client.get(path_path `/api/v2/sandboxes/boxes/${name}`, options);
    }
    /**
     * Update a sandbox's display name, retention, resources, tags, or proxy
     * configuration. The name must be unique within the tenant. Proxy configuration
     * sent to a sandbox that is not running is stored and applied when it next starts.
     */
    update(name, body, options) {
        return this._client.patch(path_path `/api/v2/sandboxes/boxes/${name}`, { body, ...options });
    }
    /**
     * List sandboxes for the authenticated tenant, with optional filtering, sorting,
     * and pagination. Page with page_size and cursor: replay the response's
     * next_cursor until it comes back null, which is the only signal that no pages
     * remain. Cursors are opaque and only valid on this endpoint; do not parse or
     * construct one.
     */
    list(query = {}, options) {
        return this._client.getAPIList('/api/v2/sandboxes/boxes', (ItemsCursorGetPagination), { query, ...options });
    }
    /**
     * Delete a sandbox by name or UUID. Tears down the sandbox runtime and removes the
     * DB record.
     */
    delete(name, options) {
        return this._client.delete(path_path `/api/v2/sandboxes/boxes/${name}`, {
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
    /**
     * Create a snapshot by capturing the current state of a sandbox or promoting an
     * existing checkpoint.
     */
    createSnapshot(name, body, options) {
        return this._client.post(path_path `/api/v2/sandboxes/boxes/${name}/snapshot`, { body, ...options });
    }
    /**
     * Removes the sharing grant for one port, or for every port when port is omitted.
     * A LangSmith login URL stops working immediately. A previously minted service
     * token is not revoked and stays valid until it expires, but no new one can be
     * issued from the removed grant.
     */
    deleteServiceURL(name, params = {}, options) {
        const { port } = params ?? {};
        return this._client.delete(path_path `/api/v2/sandboxes/boxes/${name}/service-urls`, {
            query: { port },
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
    /**
     * Generate a tokenized link that downloads a single file from a sandbox with no
     * further authentication. This mints a token rather than creating an addressable
     * resource, so it returns 200 with no Location header. The token pins the sandbox,
     * the file path, the response content type and disposition, and the sandbox flags,
     * so a link cannot be repointed at another file or served under a weaker policy.
     * The file is always served with a Content-Security-Policy: a sandbox directive,
     * plus a default-src holding every fetch to the file's own download host and a set
     * of pre-approved third-party origins. csp_sandbox_flags may loosen the sandbox
     * with allow-downloads, allow-forms, allow-modals, allow-orientation-lock,
     * allow-pointer-lock, allow-popups, allow-presentation, allow-same-origin,
     * allow-scripts, or allow-top-navigation-by-user-activation. Every file is served
     * from its own host, derived from the sandbox and the path, so allow-same-origin
     * gives a page localStorage and IndexedDB that no other file can read, and
     * re-minting a link for the same file keeps them. csp_sandbox set to false drops
     * the sandbox directive altogether, and csp_sandbox_flags must then be omitted.
     * csp_source_bundles selects the third-party origins: cdnjs, google-fonts,
     * jsdelivr, and unpkg are all allowed when the field is omitted, 'none' holds the
     * file to its own host, and 'any' sends no default-src at all. Links never expire
     * unless expires_in_seconds is set. The link is served from the sandbox service
     * domain, not the API host.
     */
    generateDownloadURL(name, body, options) {
        return this._client.post(path_path `/api/v2/sandboxes/boxes/${name}/download-url`, { body, ...options });
    }
    /**
     * Create a short-lived JWT for accessing an HTTP service running on a specific
     * port inside a sandbox. Returns a browser_url (sets auth cookie via redirect), an
     * embed_url (for an iframe; carries the token in the URL fragment, so no server or
     * Referer sees it), a service_url (for use with the
     * X-Langsmith-Sandbox-Service-Token header), the raw token, and its expiry. Set
     * access=restricted|workspace to instead enable durable LangSmith login (no token;
     * users authenticate with their normal LangSmith session), or access=off to
     * disable it. embed_origins names the pages that may show the URL in an iframe. In
     * token mode they are bound into the minted token; with LangSmith login they are
     * stored on the grant and a viewer signs in from inside the frame through a
     * LangSmith popup. LangSmith login and token access are mutually exclusive per
     * service URL.
     */
    generateServiceURL(name, body, options) {
        return this._client.post(path_path `/api/v2/sandboxes/boxes/${name}/service-url`, { body, ...options });
    }
    /**
     * Retrieve the lightweight status of a sandbox for polling.
     */
    getStatus(name, options) {
        return this._client.get(path_path `/api/v2/sandboxes/boxes/${name}/status`, options);
    }
    /**
     * Returns one entry per port the sandbox is currently reachable on, so a caller
     * can see what is shared before turning it off. Expired token grants are omitted.
     * Cursors are opaque and only valid on this endpoint; do not parse or construct
     * one.
     */
    listServiceURLs(name, query = {}, options) {
        return this._client.getAPIList(path_path `/api/v2/sandboxes/boxes/${name}/service-urls`, (ItemsCursorGetPagination), { query, ...options });
    }
    /**
     * Start a stopped or failed sandbox. This endpoint is not idempotent.
     */
    start(name, options) {
        return this._client.post(path_path `/api/v2/sandboxes/boxes/${name}/start`, options);
    }
    /**
     * Stop a ready sandbox. This endpoint is not idempotent; the filesystem is
     * preserved for later restart.
     */
    stop(name, options) {
        return this._client.post(path_path `/api/v2/sandboxes/boxes/${name}/stop`, {
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/sandboxes/registries.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class Registries extends APIResource {
    /**
     * Create a sandbox registry for pulling private images.
     */
    create(body, options) {
        return this._client.post('/api/v2/sandboxes/registries', { body, ...options });
    }
    /**
     * Get a sandbox registry by name.
     */
    retrieve(name, options) {
        return this._client.get(path_path `/api/v2/sandboxes/registries/${name}`, options);
    }
    /**
     * Update a sandbox registry's name and/or credentials.
     */
    update(name, body, options) {
        return this._client.patch(path_path `/api/v2/sandboxes/registries/${name}`, { body, ...options });
    }
    /**
     * List sandbox registries for pulling private images. Page with page_size and
     * cursor, replaying next_cursor until it is null. Results are ordered newest
     * first, with stable ordering for equal creation times. Keep filters unchanged
     * between pages. Requests without page_size or cursor retain the legacy default of
     * 50 results. Cursor requests default to 20 results, with a maximum of 100.
     */
    list(query = {}, options) {
        return this._client.get('/api/v2/sandboxes/registries', { query, ...options });
    }
    /**
     * Delete a sandbox registry by name.
     */
    delete(name, options) {
        return this._client.delete(path_path `/api/v2/sandboxes/registries/${name}`, {
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/sandboxes/snapshots.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.




class Snapshots extends APIResource {
    /**
     * Create a snapshot from a Docker image (async build). Names use lowercase
     * registry-style components separated by slashes, up to 255 characters. The
     * system/ namespace is read-only.
     */
    create(body, options) {
        return this._client.post('/api/v2/sandboxes/snapshots', { body, ...options });
    }
    /**
     * Get a sandbox snapshot by ID or a registry-style reference, including
     * system/default:latest. URL-encode references containing slashes. A bare name
     * means name:latest, falling back to the newest ready untagged snapshot of that
     * name. To list the tags under a name, use
     * /api/v2/sandboxes/snapshots-by-name/{name}.
     */
    retrieve(snapshotID, options) {
        return this._client.get(path_path `/api/v2/sandboxes/snapshots/${snapshotID}`, options);
    }
    /**
     * List workspace and published system snapshots, with optional filtering, sorting,
     * and pagination. Page with page_size and cursor: replay the response's
     * next_cursor until it comes back null, which is the only signal that no pages
     * remain. Cursors are opaque and only valid on this endpoint; do not parse or
     * construct one.
     */
    list(query = {}, options) {
        return this._client.getAPIList('/api/v2/sandboxes/snapshots', (ItemsCursorGetPagination), { query, ...options });
    }
    /**
     * Delete a snapshot by ID or by a Docker-style name[:tag] reference. The
     * underlying storage is reclaimed asynchronously.
     */
    delete(snapshotID, options) {
        return this._client.delete(path_path `/api/v2/sandboxes/snapshots/${snapshotID}`, {
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
    /**
     * Get a snapshot name and every tag under it, with the snapshot each tag resolves
     * to. To fetch one snapshot, use /api/v2/sandboxes/snapshots/{snapshot_id}.
     */
    retrieveByName(name, options) {
        return this._client.get(path_path `/api/v2/sandboxes/snapshots-by-name/${name}`, options);
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/sandboxes/sandboxes.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.








class Sandboxes extends APIResource {
    constructor() {
        super(...arguments);
        Object.defineProperty(this, "boxes", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Boxes(this._client)
        });
        Object.defineProperty(this, "registries", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Registries(this._client)
        });
        Object.defineProperty(this, "snapshots", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Snapshots(this._client)
        });
    }
    /**
     * Returns priced usage per sandbox or snapshot and UTC hour in the half-open
     * requested interval. LCU uses the recorded compute amount for sandboxes;
     * snapshots have zero LCU. LSU allocates the recorded workspace storage amount
     * proportionally to attributed bytes, including checkpoints on their sandbox and
     * snapshots as separate resources. Resource filters preserve each resource's
     * share. Rate changes do not reprice recorded amounts. An access-filtered page can
     * have no items and a non-null next_cursor; continue until next_cursor is null.
     */
    listUsageCosts(query, options) {
        return this._client.getAPIList('/api/v2/sandboxes/usage/costs', (ItemsCursorGetPagination), { query, ...options });
    }
}
Sandboxes.Boxes = Boxes;
Sandboxes.Registries = Registries;
Sandboxes.Snapshots = Snapshots;

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/sessions.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.




class Sessions extends APIResource {
    /**
     * Create a new project.
     */
    create(params, options) {
        const { upsert, ...body } = params;
        return this._client.post('/api/v1/sessions', { query: { upsert }, body, ...options });
    }
    /**
     * Get a specific project.
     */
    retrieve(project_id, params = {}, options) {
        const { accept, ...query } = params ?? {};
        return this._client.get(path_path `/api/v1/sessions/${project_id}`, {
            query,
            ...options,
            headers: buildHeaders([{ ...(accept != null ? { accept: accept } : undefined) }, options?.headers]),
        });
    }
    /**
     * Update a project.
     */
    update(project_id, body, options) {
        return this._client.patch(path_path `/api/v1/sessions/${project_id}`, { body, ...options });
    }
    /**
     * Delete a specific project.
     *
     * Returns 202 when deletion is accepted. Cleanup runs asynchronously. Location
     * identifies the affected project, not a cleanup-status endpoint. For a caller
     * with read access, GET at that URL returns 200 with the project while it is still
     * available, or 404 after the project is removed. A 404 does not confirm that
     * background trace cleanup has finished. Polling for cleanup completion is not
     * supported.
     */
    delete(project_id, options) {
        return this._client.delete(path_path `/api/v1/sessions/${project_id}`, {
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
    /**
     * GET with body payload — no resources created. Returns the prebuilt dashboard for
     * the tracing project matching the query passed as the request payload.
     */
    dashboard(sessionID, params, options) {
        const { accept, ...body } = params;
        return this._client.post(path_path `/api/v1/sessions/${sessionID}/dashboard`, {
            body,
            ...options,
            headers: buildHeaders([{ ...(accept != null ? { accept: accept } : undefined) }, options?.headers]),
        });
    }
    /**
     * Returns a page of the workspace's tracing projects and experiments. Pass the
     * response's next_cursor as cursor to fetch the next page; next_cursor is null on
     * the last page. A cursor is valid only with the same query parameters as the
     * request that returned it.
     */
    listV2(query = {}, options) {
        return this._client.getAPIList('/api/v2/sessions', (ItemsCursorGetPagination), {
            query,
            ...options,
        });
    }
    /**
     * Returns the tracing project (session) an address names. An address is an AGENT
     * (`id` and `environment`), an EXPERIMENT (`id`), or an EVALUATOR (no `id`:
     * evaluator traces share one project per workspace). Send `kind` and `environment`
     * in upper case, as listed; they are matched case-insensitively, while the Agent
     * `id` is case-sensitive. An address that does not exist, or whose project you
     * cannot read, is a 404. Pass the returned `session_id` to any endpoint that takes
     * a project (session) ID. This is not supported on a BYOC data plane yet, and is a
     * 501 there. Self-hosted deployments need LangSmith v0.18 or later.
     */
    resolve(query, options) {
        return this._client.get('/api/v1/sessions/resolutions', { query, ...options });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/sql.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

class Sql extends APIResource {
    /**
     * **Beta:** This endpoint is in active development and may change without notice.
     *
     * GET with body payload — no resources created. Returns the rows matching the
     * read-only SQL query passed as the request payload, limited to the given tracing
     * projects. Results are limited to a configured number of rows, 1000 by default.
     */
    query(body, options) {
        return this._client.post('/v2/sql/query', { body, ...options });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/threads/share.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class share_Share extends APIResource {
    /**
     * Mints a public share token for a thread. Idempotent: sharing an already-shared
     * thread returns the existing token.
     *
     * @example
     * ```ts
     * const share = await client.threads.share.create(
     *   'thread_id',
     *   { project_id: '018e4c7e-a9fb-7ef0-a5b6-6ea3a82e9327' },
     * );
     * ```
     */
    create(threadID, body, options) {
        return this._client.post(path_path `/api/v2/threads/${threadID}/share`, { body, ...options });
    }
    /**
     * Returns the share token for a thread. The token is omitted when the thread is
     * not shared. Gated on runs:share so the control's state matches the control's
     * permission.
     *
     * @example
     * ```ts
     * const share = await client.threads.share.retrieve(
     *   'thread_id',
     *   { project_id: '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e' },
     * );
     * ```
     */
    retrieve(threadID, query, options) {
        return this._client.get(path_path `/api/v2/threads/${threadID}/share`, { query, ...options });
    }
    /**
     * Deletes the share token for a thread. Idempotent: returns 204 whether or not a
     * share token existed. Deliberately does not verify the thread still exists.
     *
     * @example
     * ```ts
     * await client.threads.share.delete('thread_id', {
     *   project_id: '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e',
     * });
     * ```
     */
    delete(threadID, params, options) {
        const { project_id } = params;
        return this._client.delete(path_path `/api/v2/threads/${threadID}/share`, {
            query: { project_id },
            ...options,
            headers: buildHeaders([{ Accept: '*/*' }, options?.headers]),
        });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/threads/streaming.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class streaming_Streaming extends APIResource {
    /**
     * GET with body payload — no resources created. Returns the threads in a tracing
     * project matching the query passed as the request payload. Results are filtered
     * by the given time range and optional filters, with cursor-based pagination.
     *
     * When `ai_search` is set, `Accept: text/event-stream` is required; requests
     * without it return 406. AI search is unavailable on deployments that route
     * queries to the v1 backend and returns 501 there.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * const response = await client.threads.streaming.query();
     * ```
     */
    query(params, options) {
        const { Accept, ...body } = params;
        return this._client.post('/api/v2/threads/query', {
            body,
            ...options,
            headers: buildHeaders([{ Accept: Accept != null ? Accept : 'text/event-stream' }, options?.headers]),
            stream: true,
        });
    }
    /**
     * Yields the items of `query` one at a time across pages, following the next page cursor.
     *
     * @example
     * ```ts
     * // Automatically fetches more pages as needed.
     * for await (const thread of client.threads.streaming.queryItems(
     *   {},
     * )) {
     *   // ...
     * }
     * ```
     */
    queryItems(params, options) {
        return iterQueryStream((cursor) => this.query(cursor ? { ...params, cursor } : params, options), { items: '/items', nextCursor: '/next_cursor' });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/threads/threads.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.








class threads_Threads extends APIResource {
    constructor() {
        super(...arguments);
        Object.defineProperty(this, "streaming", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new streaming_Streaming(this._client)
        });
        Object.defineProperty(this, "share", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new share_Share(this._client)
        });
    }
    /**
     * GET with body payload — no resources created. Returns aggregate statistics for
     * threads in a tracing project. The response includes the thread counts, run
     * counts, latency percentiles, rates, token totals, and cost totals requested in
     * `select`.
     *
     * Self-hosted deployments require LangSmith `v0.17` or later.
     *
     * @example
     * ```ts
     * const response = await client.threads.aggregateStats({
     *   project_id: '0190a1b2-c3d4-7ef0-a5b6-6ea3a82e9328',
     *   select: [
     *     'THREAD_COUNT',
     *     'TRACE_COUNT',
     *     'TOTAL_TOKENS',
     *     'TOTAL_COST',
     *   ],
     * });
     * ```
     */
    aggregateStats(body, options) {
        return this._client.post('/api/v2/threads/stats', { body, ...options });
    }
    /**
     * Retrieve all traces belonging to a specific thread within a project.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * // Automatically fetches more pages as needed.
     * for await (const threadTrace of client.threads.listTraces(
     *   'thread_id',
     *   { project_id: '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e' },
     * )) {
     *   // ...
     * }
     * ```
     */
    listTraces(threadID, query, options) {
        return this._client.getAPIList(path_path `/api/v2/threads/${threadID}/traces`, (ItemsCursorGetPagination), { query, ...options });
    }
    /**
     * GET with body payload — no resources created. Returns the threads in a tracing
     * project matching the query passed as the request payload. Results are filtered
     * by the given time range and optional filters, with cursor-based pagination.
     *
     * When `ai_search` is set, `Accept: text/event-stream` is required; requests
     * without it return 406. AI search is unavailable on deployments that route
     * queries to the v1 backend and returns 501 there.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * // Automatically fetches more pages as needed.
     * for await (const thread of client.threads.query()) {
     *   // ...
     * }
     * ```
     */
    query(params, options) {
        const { Accept, ...body } = params;
        return this._client.getAPIList('/api/v2/threads/query', (ItemsCursorPostPagination), {
            body,
            method: 'post',
            ...options,
            headers: buildHeaders([{ ...(Accept != null ? { Accept: Accept } : undefined) }, options?.headers]),
        });
    }
    /**
     * Compute aggregate stats for a single thread (turn count, latency percentiles,
     * token/cost sums, and detail breakdowns) within a project.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * const threadStats = await client.threads.stats(
     *   'thread_id',
     *   {
     *     selects: ['TURNS'],
     *     session_id: '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e',
     *   },
     * );
     * ```
     */
    stats(threadID, query, options) {
        return this._client.get(path_path `/api/v2/threads/${threadID}/stats`, { query, ...options });
    }
}
threads_Threads.Streaming = streaming_Streaming;
threads_Threads.Share = share_Share;

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/traces/streaming.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



class traces_streaming_Streaming extends APIResource {
    /**
     * Returns a paginated list of traces (root runs) for a single tracing project.
     * Each item carries the trace's root run plus optional trace-wide aggregates
     * (`total_tokens`, `total_cost`, `first_token_time`) under `trace_aggregates`, so
     * clients never have to merge by `trace_id`.
     *
     * Traces are scanned within a `start_time` window: `min_start_time` defaults to 24
     * hours before the request, `max_start_time` defaults to the request time. Set
     * either explicitly to widen or narrow the window.
     *
     * Supports filters (`trace_filter`, `tree_filter`), cursor pagination (`cursor`),
     * and field projection (`selects`).
     *
     * When `ai_search` is set, `Accept: text/event-stream` is required; requests
     * without it return 406. AI search is unavailable on deployments that route
     * queries to the v1 backend and returns 501 there.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * const response = await client.traces.streaming.query();
     * ```
     */
    query(params, options) {
        const { Accept, ...body } = params;
        return this._client.post('/api/v2/traces/query', {
            body,
            ...options,
            headers: buildHeaders([{ Accept: Accept != null ? Accept : 'text/event-stream' }, options?.headers]),
            stream: true,
        });
    }
    /**
     * Yields the items of `query` one at a time across pages, following the next page cursor.
     *
     * @example
     * ```ts
     * // Automatically fetches more pages as needed.
     * for await (const trace of client.traces.streaming.queryItems(
     *   {},
     * )) {
     *   // ...
     * }
     * ```
     */
    queryItems(params, options) {
        return iterQueryStream((cursor) => this.query(cursor ? { ...params, cursor } : params, options), { items: '/items', nextCursor: '/next_cursor' });
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/traces/traces.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.






class Traces extends APIResource {
    constructor() {
        super(...arguments);
        Object.defineProperty(this, "streaming", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new traces_streaming_Streaming(this._client)
        });
    }
    /**
     * Returns runs for a trace ID within min/max start time. Optional `filter`;
     * repeatable `selects` to select fields to return.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * const response = await client.traces.listRuns(
     *   '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e',
     *   { project_id: '182bd5e5-6e1a-4fe4-a799-aa6d9a6ab26e' },
     * );
     * ```
     */
    listRuns(traceID, params, options) {
        const { Accept, ...query } = params;
        return this._client.get(path_path `/api/v2/traces/${traceID}/runs`, {
            query,
            ...options,
            headers: buildHeaders([{ ...(Accept != null ? { Accept: Accept } : undefined) }, options?.headers]),
        });
    }
    /**
     * Returns a paginated list of traces (root runs) for a single tracing project.
     * Each item carries the trace's root run plus optional trace-wide aggregates
     * (`total_tokens`, `total_cost`, `first_token_time`) under `trace_aggregates`, so
     * clients never have to merge by `trace_id`.
     *
     * Traces are scanned within a `start_time` window: `min_start_time` defaults to 24
     * hours before the request, `max_start_time` defaults to the request time. Set
     * either explicitly to widen or narrow the window.
     *
     * Supports filters (`trace_filter`, `tree_filter`), cursor pagination (`cursor`),
     * and field projection (`selects`).
     *
     * When `ai_search` is set, `Accept: text/event-stream` is required; requests
     * without it return 406. AI search is unavailable on deployments that route
     * queries to the v1 backend and returns 501 there.
     *
     * Self-hosted deployments require LangSmith `v0.16` or later.
     *
     * @example
     * ```ts
     * // Automatically fetches more pages as needed.
     * for await (const trace of client.traces.query()) {
     *   // ...
     * }
     * ```
     */
    query(params, options) {
        const { Accept, ...body } = params;
        return this._client.getAPIList('/api/v2/traces/query', (ItemsCursorPostPagination), {
            body,
            method: 'post',
            ...options,
            headers: buildHeaders([{ ...(Accept != null ? { Accept: Accept } : undefined) }, options?.headers]),
        });
    }
}
Traces.Streaming = traces_streaming_Streaming;

;// CONCATENATED MODULE: ./node_modules/langsmith/resources/index.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.



















;// CONCATENATED MODULE: ./node_modules/langsmith/internal/utils/env.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.
/**
 * Read an environment variable.
 *
 * Trims beginning and trailing whitespace.
 *
 * Will return undefined if the environment variable doesn't exist or cannot be accessed.
 */
const readEnv = (env) => {
    if (typeof globalThis.process !== 'undefined') {
        return globalThis.process.env?.[env]?.trim() || undefined;
    }
    if (typeof globalThis.Deno !== 'undefined') {
        return globalThis.Deno.env?.get?.(env)?.trim() || undefined;
    }
    return undefined;
};

;// CONCATENATED MODULE: ./node_modules/langsmith/client.mjs
// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.
var _Langsmith_instances, _a, _Langsmith_encoder, _Langsmith_baseURLOverridden;




































/**
 * API Client for interfacing with the LangChain API.
 */
class Langsmith {
    /**
     * API Client for interfacing with the LangChain API.
     *
     * @param {string | null | undefined} [opts.apiKey=process.env['LANGSMITH_API_KEY'] ?? null]
     * @param {string | null | undefined} [opts.tenantID=process.env['LANGSMITH_TENANT_ID'] ?? null]
     * @param {string} [opts.baseURL=process.env['LANGCHAIN_BASE_URL'] ?? https://api.smith.langchain.com/] - Override the default base URL for the API.
     * @param {number} [opts.timeout=1.5 minutes] - The maximum amount of time (in milliseconds) the client will wait for a response before timing out.
     * @param {MergedRequestInit} [opts.fetchOptions] - Additional `RequestInit` options to be passed to `fetch` calls.
     * @param {Fetch} [opts.fetch] - Specify a custom `fetch` function implementation.
     * @param {number} [opts.maxRetries=2] - The maximum number of times the client will retry a request.
     * @param {HeadersLike} opts.defaultHeaders - Default headers to include with every request to the API.
     * @param {Record<string, string | undefined>} opts.defaultQuery - Default query parameters to include with every request to the API.
     */
    constructor({ baseURL = readEnv('LANGCHAIN_BASE_URL'), apiKey = readEnv('LANGSMITH_API_KEY') ?? null, tenantID = readEnv('LANGSMITH_TENANT_ID') ?? null, ...opts } = {}) {
        _Langsmith_instances.add(this);
        Object.defineProperty(this, "apiKey", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "tenantID", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "baseURL", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "maxRetries", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "timeout", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "logger", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "logLevel", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "fetchOptions", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "fetch", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        _Langsmith_encoder.set(this, void 0);
        Object.defineProperty(this, "idempotencyHeader", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "_options", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "sql", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Sql(this)
        });
        Object.defineProperty(this, "productFeedback", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new ProductFeedback(this)
        });
        Object.defineProperty(this, "agents", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Agents(this)
        });
        Object.defineProperty(this, "fleet", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Fleet(this)
        });
        Object.defineProperty(this, "sessions", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Sessions(this)
        });
        Object.defineProperty(this, "datasets", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Datasets(this)
        });
        Object.defineProperty(this, "runs", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new runs_runs_Runs(this)
        });
        Object.defineProperty(this, "threads", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new threads_Threads(this)
        });
        Object.defineProperty(this, "traces", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Traces(this)
        });
        Object.defineProperty(this, "evaluators", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Evaluators(this)
        });
        Object.defineProperty(this, "onlineEvaluators", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new OnlineEvaluators(this)
        });
        Object.defineProperty(this, "public", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Public(this)
        });
        Object.defineProperty(this, "annotationQueues", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new AnnotationQueues(this)
        });
        Object.defineProperty(this, "promptWebhooks", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new PromptWebhooks(this)
        });
        Object.defineProperty(this, "info", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Info(this)
        });
        Object.defineProperty(this, "issues", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Issues(this)
        });
        Object.defineProperty(this, "sandboxes", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Sandboxes(this)
        });
        const options = {
            apiKey,
            tenantID,
            ...opts,
            baseURL: baseURL || `https://api.smith.langchain.com/`,
        };
        this.baseURL = options.baseURL;
        this.timeout = options.timeout ?? _a.DEFAULT_TIMEOUT /* 1.5 minutes */;
        this.logger = options.logger ?? console;
        const defaultLogLevel = 'warn';
        // Set default logLevel early so that we can log a warning in parseLogLevel.
        this.logLevel = defaultLogLevel;
        this.logLevel =
            parseLogLevel(options.logLevel, 'ClientOptions.logLevel', this) ??
                parseLogLevel(readEnv('LANGCHAIN_LOG'), "process.env['LANGCHAIN_LOG']", this) ??
                defaultLogLevel;
        this.fetchOptions = options.fetchOptions;
        this.maxRetries = options.maxRetries ?? 2;
        this.fetch = options.fetch ?? getDefaultFetch();
        __classPrivateFieldSet(this, _Langsmith_encoder, FallbackEncoder, "f");
        const customHeadersEnv = readEnv('LANGCHAIN_CUSTOM_HEADERS');
        if (customHeadersEnv) {
            const parsed = {};
            for (const line of customHeadersEnv.split('\n')) {
                const colon = line.indexOf(':');
                if (colon >= 0) {
                    parsed[line.substring(0, colon).trim()] = line.substring(colon + 1).trim();
                }
            }
            options.defaultHeaders = { ...parsed, ...options.defaultHeaders };
        }
        this._options = options;
        this.apiKey = apiKey;
        this.tenantID = tenantID;
    }
    /**
     * Create a new client instance re-using the same options given to the current client with optional overriding.
     */
    withOptions(options) {
        const client = new this.constructor({
            ...this._options,
            baseURL: this.baseURL,
            maxRetries: this.maxRetries,
            timeout: this.timeout,
            logger: this.logger,
            logLevel: this.logLevel,
            fetch: this.fetch,
            fetchOptions: this.fetchOptions,
            apiKey: this.apiKey,
            tenantID: this.tenantID,
            ...options,
        });
        return client;
    }
    defaultQuery() {
        return this._options.defaultQuery;
    }
    validateHeaders({ values, nulls }) {
        if (this.apiKey && values.get('x-api-key')) {
            return;
        }
        if (nulls.has('x-api-key')) {
            return;
        }
        if (this.tenantID && values.get('x-tenant-id')) {
            return;
        }
        if (nulls.has('x-tenant-id')) {
            return;
        }
        throw new Error('Could not resolve authentication method. Expected either apiKey or tenantID to be set. Or for one of the "X-API-Key" or "X-Tenant-Id" headers to be explicitly omitted');
    }
    async authHeaders(opts) {
        return buildHeaders([await this.apiKeyAuth(opts), await this.tenantIDAuth(opts)]);
    }
    async apiKeyAuth(opts) {
        if (this.apiKey == null) {
            return undefined;
        }
        return buildHeaders([{ 'X-API-Key': this.apiKey }]);
    }
    async tenantIDAuth(opts) {
        if (this.tenantID == null) {
            return undefined;
        }
        return buildHeaders([{ 'X-Tenant-Id': this.tenantID }]);
    }
    stringifyQuery(query) {
        return stringifyQuery(query);
    }
    getUserAgent() {
        return `${this.constructor.name}/JS ${VERSION}`;
    }
    defaultIdempotencyKey() {
        return `stainless-node-retry-${uuid4()}`;
    }
    makeStatusError(status, error, message, headers) {
        return APIError.generate(status, error, message, headers);
    }
    buildURL(path, query, defaultBaseURL) {
        const baseURL = (!__classPrivateFieldGet(this, _Langsmith_instances, "m", _Langsmith_baseURLOverridden).call(this) && defaultBaseURL) || this.baseURL;
        const url = isAbsoluteURL(path) ?
            new URL(path)
            : new URL(baseURL + (baseURL.endsWith('/') && path.startsWith('/') ? path.slice(1) : path));
        const defaultQuery = this.defaultQuery();
        const pathQuery = Object.fromEntries(url.searchParams);
        if (!isEmptyObj(defaultQuery) || !isEmptyObj(pathQuery)) {
            query = { ...pathQuery, ...defaultQuery, ...query };
        }
        if (typeof query === 'object' && query && !Array.isArray(query)) {
            url.search = this.stringifyQuery(query);
        }
        return url.toString();
    }
    /**
     * Used as a callback for mutating the given `FinalRequestOptions` object.
     */
    async prepareOptions(options) { }
    /**
     * Used as a callback for mutating the given `RequestInit` object.
     *
     * This is useful for cases where you want to add certain headers based off of
     * the request properties, e.g. `method` or `url`.
     */
    async prepareRequest(request, { url, options }) { }
    get(path, opts) {
        return this.methodRequest('get', path, opts);
    }
    post(path, opts) {
        return this.methodRequest('post', path, opts);
    }
    patch(path, opts) {
        return this.methodRequest('patch', path, opts);
    }
    put(path, opts) {
        return this.methodRequest('put', path, opts);
    }
    delete(path, opts) {
        return this.methodRequest('delete', path, opts);
    }
    methodRequest(method, path, opts) {
        return this.request(Promise.resolve(opts).then((opts) => {
            return { method, path, ...opts };
        }));
    }
    request(options, remainingRetries = null) {
        return new APIPromise(this, this.makeRequest(options, remainingRetries, undefined));
    }
    async makeRequest(optionsInput, retriesRemaining, retryOfRequestLogID) {
        const options = await optionsInput;
        const maxRetries = options.maxRetries ?? this.maxRetries;
        if (retriesRemaining == null) {
            retriesRemaining = maxRetries;
        }
        await this.prepareOptions(options);
        const { req, url, timeout } = await this.buildRequest(options, {
            retryCount: maxRetries - retriesRemaining,
        });
        await this.prepareRequest(req, { url, options });
        /** Not an API request ID, just for correlating local log entries. */
        const requestLogID = 'log_' + ((Math.random() * (1 << 24)) | 0).toString(16).padStart(6, '0');
        const retryLogStr = retryOfRequestLogID === undefined ? '' : `, retryOf: ${retryOfRequestLogID}`;
        const startTime = Date.now();
        loggerFor(this).debug(`[${requestLogID}] sending request`, formatRequestDetails({
            retryOfRequestLogID,
            method: options.method,
            url,
            options,
            headers: req.headers,
        }));
        if (options.signal?.aborted) {
            throw new APIUserAbortError();
        }
        const controller = new AbortController();
        const response = await this.fetchWithTimeout(url, req, timeout, controller).catch(castToError);
        const headersTime = Date.now();
        if (response instanceof globalThis.Error) {
            const retryMessage = `retrying, ${retriesRemaining} attempts remaining`;
            if (options.signal?.aborted) {
                throw new APIUserAbortError();
            }
            // detect native connection timeout errors
            // deno throws "TypeError: error sending request for url (https://example/): client error (Connect): tcp connect error: Operation timed out (os error 60): Operation timed out (os error 60)"
            // undici throws "TypeError: fetch failed" with cause "ConnectTimeoutError: Connect Timeout Error (attempted address: example:443, timeout: 1ms)"
            // others do not provide enough information to distinguish timeouts from other connection errors
            const isTimeout = isAbortError(response) ||
                /timed? ?out/i.test(String(response) + ('cause' in response ? String(response.cause) : ''));
            if (retriesRemaining) {
                loggerFor(this).info(`[${requestLogID}] connection ${isTimeout ? 'timed out' : 'failed'} - ${retryMessage}`);
                loggerFor(this).debug(`[${requestLogID}] connection ${isTimeout ? 'timed out' : 'failed'} (${retryMessage})`, formatRequestDetails({
                    retryOfRequestLogID,
                    url,
                    durationMs: headersTime - startTime,
                    message: response.message,
                }));
                return this.retryRequest(options, retriesRemaining, retryOfRequestLogID ?? requestLogID);
            }
            loggerFor(this).info(`[${requestLogID}] connection ${isTimeout ? 'timed out' : 'failed'} - error; no more retries left`);
            loggerFor(this).debug(`[${requestLogID}] connection ${isTimeout ? 'timed out' : 'failed'} (error; no more retries left)`, formatRequestDetails({
                retryOfRequestLogID,
                url,
                durationMs: headersTime - startTime,
                message: response.message,
            }));
            if (isTimeout) {
                throw new APIConnectionTimeoutError();
            }
            throw new APIConnectionError({ cause: response });
        }
        const responseInfo = `[${requestLogID}${retryLogStr}] ${req.method} ${url} ${response.ok ? 'succeeded' : 'failed'} with status ${response.status} in ${headersTime - startTime}ms`;
        if (!response.ok) {
            const shouldRetry = await this.shouldRetry(response);
            if (retriesRemaining && shouldRetry) {
                const retryMessage = `retrying, ${retriesRemaining} attempts remaining`;
                // We don't need the body of this response.
                await CancelReadableStream(response.body);
                loggerFor(this).info(`${responseInfo} - ${retryMessage}`);
                loggerFor(this).debug(`[${requestLogID}] response error (${retryMessage})`, formatRequestDetails({
                    retryOfRequestLogID,
                    url: response.url,
                    status: response.status,
                    headers: response.headers,
                    durationMs: headersTime - startTime,
                }));
                return this.retryRequest(options, retriesRemaining, retryOfRequestLogID ?? requestLogID, response.headers);
            }
            const retryMessage = shouldRetry ? `error; no more retries left` : `error; not retryable`;
            loggerFor(this).info(`${responseInfo} - ${retryMessage}`);
            const errText = await response.text().catch((err) => castToError(err).message);
            const errJSON = safeJSON(errText);
            const errMessage = errJSON ? undefined : errText;
            loggerFor(this).debug(`[${requestLogID}] response error (${retryMessage})`, formatRequestDetails({
                retryOfRequestLogID,
                url: response.url,
                status: response.status,
                headers: response.headers,
                message: errMessage,
                durationMs: Date.now() - startTime,
            }));
            const err = this.makeStatusError(response.status, errJSON, errMessage, response.headers);
            throw err;
        }
        loggerFor(this).info(responseInfo);
        loggerFor(this).debug(`[${requestLogID}] response start`, formatRequestDetails({
            retryOfRequestLogID,
            url: response.url,
            status: response.status,
            headers: response.headers,
            durationMs: headersTime - startTime,
        }));
        return { response, options, controller, requestLogID, retryOfRequestLogID, startTime };
    }
    getAPIList(path, Page, opts) {
        return this.requestAPIList(Page, opts && 'then' in opts ?
            opts.then((opts) => ({ method: 'get', path, ...opts }))
            : { method: 'get', path, ...opts });
    }
    requestAPIList(Page, options) {
        const request = this.makeRequest(options, null, undefined);
        return new PagePromise(this, request, Page);
    }
    async fetchWithTimeout(url, init, ms, controller) {
        const { signal, method, ...options } = init || {};
        const abort = this._makeAbort(controller);
        if (signal)
            signal.addEventListener('abort', abort, { once: true });
        const timeout = setTimeout(abort, ms);
        const isReadableBody = (globalThis.ReadableStream && options.body instanceof globalThis.ReadableStream) ||
            (typeof options.body === 'object' && options.body !== null && Symbol.asyncIterator in options.body);
        const fetchOptions = {
            signal: controller.signal,
            ...(isReadableBody ? { duplex: 'half' } : {}),
            method: 'GET',
            ...options,
        };
        if (method) {
            // Custom methods like 'patch' need to be uppercased
            // See https://github.com/nodejs/undici/issues/2294
            fetchOptions.method = method.toUpperCase();
        }
        try {
            // use undefined this binding; fetch errors if bound to something else in browser/cloudflare
            return await this.fetch.call(undefined, url, fetchOptions);
        }
        finally {
            clearTimeout(timeout);
        }
    }
    async shouldRetry(response) {
        // Note this is not a standard header.
        const shouldRetryHeader = response.headers.get('x-should-retry');
        // If the server explicitly says whether or not to retry, obey.
        if (shouldRetryHeader === 'true')
            return true;
        if (shouldRetryHeader === 'false')
            return false;
        // Retry on request timeouts.
        if (response.status === 408)
            return true;
        // Retry on lock timeouts.
        if (response.status === 409)
            return true;
        // Retry on rate limits.
        if (response.status === 429)
            return true;
        // Retry internal errors.
        if (response.status >= 500)
            return true;
        return false;
    }
    async retryRequest(options, retriesRemaining, requestLogID, responseHeaders) {
        let timeoutMillis;
        // Note the `retry-after-ms` header may not be standard, but is a good idea and we'd like proactive support for it.
        const retryAfterMillisHeader = responseHeaders?.get('retry-after-ms');
        if (retryAfterMillisHeader) {
            const timeoutMs = parseFloat(retryAfterMillisHeader);
            if (!Number.isNaN(timeoutMs)) {
                timeoutMillis = timeoutMs;
            }
        }
        // About the Retry-After header: https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Retry-After
        const retryAfterHeader = responseHeaders?.get('retry-after');
        if (retryAfterHeader && !timeoutMillis) {
            const timeoutSeconds = parseFloat(retryAfterHeader);
            if (!Number.isNaN(timeoutSeconds)) {
                timeoutMillis = timeoutSeconds * 1000;
            }
            else {
                timeoutMillis = Date.parse(retryAfterHeader) - Date.now();
            }
        }
        // If the API asks us to wait a certain amount of time, just do what it
        // says, but otherwise calculate a default
        if (timeoutMillis === undefined) {
            const maxRetries = options.maxRetries ?? this.maxRetries;
            timeoutMillis = this.calculateDefaultRetryTimeoutMillis(retriesRemaining, maxRetries);
        }
        await sleep(timeoutMillis);
        return this.makeRequest(options, retriesRemaining - 1, requestLogID);
    }
    calculateDefaultRetryTimeoutMillis(retriesRemaining, maxRetries) {
        const initialRetryDelay = 0.5;
        const maxRetryDelay = 16.0;
        const numRetries = maxRetries - retriesRemaining;
        // Apply exponential backoff, but not more than the max.
        const sleepSeconds = Math.min(initialRetryDelay * Math.pow(2, numRetries), maxRetryDelay);
        // Apply some jitter, take up to at most 25 percent of the retry time.
        const jitter = 1 - Math.random() * 0.25;
        return sleepSeconds * jitter * 1000;
    }
    async buildRequest(inputOptions, { retryCount = 0 } = {}) {
        const options = { ...inputOptions };
        const { method, path, query, defaultBaseURL } = options;
        const url = this.buildURL(path, query, defaultBaseURL);
        if ('timeout' in options)
            validatePositiveInteger('timeout', options.timeout);
        options.timeout = options.timeout ?? this.timeout;
        const { bodyHeaders, body } = this.buildBody({ options });
        const reqHeaders = await this.buildHeaders({ options: inputOptions, method, bodyHeaders, retryCount });
        const req = {
            method,
            headers: reqHeaders,
            ...(options.signal && { signal: options.signal }),
            ...(globalThis.ReadableStream &&
                body instanceof globalThis.ReadableStream && { duplex: 'half' }),
            ...(body && { body }),
            ...(this.fetchOptions ?? {}),
            ...(options.fetchOptions ?? {}),
        };
        return { req, url, timeout: options.timeout };
    }
    async buildHeaders({ options, method, bodyHeaders, retryCount, }) {
        let idempotencyHeaders = {};
        if (this.idempotencyHeader && method !== 'get') {
            if (!options.idempotencyKey)
                options.idempotencyKey = this.defaultIdempotencyKey();
            idempotencyHeaders[this.idempotencyHeader] = options.idempotencyKey;
        }
        const headers = buildHeaders([
            idempotencyHeaders,
            {
                Accept: 'application/json',
                'User-Agent': this.getUserAgent(),
                'X-Stainless-Retry-Count': String(retryCount),
                ...(options.timeout ? { 'X-Stainless-Timeout': String(Math.trunc(options.timeout / 1000)) } : {}),
                ...getPlatformHeaders(),
            },
            await this.authHeaders(options),
            this._options.defaultHeaders,
            bodyHeaders,
            options.headers,
        ]);
        this.validateHeaders(headers);
        return headers.values;
    }
    _makeAbort(controller) {
        // note: we can't just inline this method inside `fetchWithTimeout()` because then the closure
        //       would capture all request options, and cause a memory leak.
        return () => controller.abort();
    }
    buildBody({ options: { body, headers: rawHeaders } }) {
        if (!body) {
            return { bodyHeaders: undefined, body: undefined };
        }
        const headers = buildHeaders([rawHeaders]);
        if (
        // Pass raw type verbatim
        ArrayBuffer.isView(body) ||
            body instanceof ArrayBuffer ||
            body instanceof DataView ||
            (typeof body === 'string' &&
                // Preserve legacy string encoding behavior for now
                headers.values.has('content-type')) ||
            // `Blob` is superset of `File`
            (globalThis.Blob && body instanceof globalThis.Blob) ||
            // `FormData` -> `multipart/form-data`
            body instanceof FormData ||
            // `URLSearchParams` -> `application/x-www-form-urlencoded`
            body instanceof URLSearchParams ||
            // Send chunked stream (each chunk has own `length`)
            (globalThis.ReadableStream && body instanceof globalThis.ReadableStream)) {
            return { bodyHeaders: undefined, body: body };
        }
        else if (typeof body === 'object' &&
            (Symbol.asyncIterator in body ||
                (Symbol.iterator in body && 'next' in body && typeof body.next === 'function'))) {
            return { bodyHeaders: undefined, body: shims_ReadableStreamFrom(body) };
        }
        else if (typeof body === 'object' &&
            headers.values.get('content-type') === 'application/x-www-form-urlencoded') {
            return {
                bodyHeaders: { 'content-type': 'application/x-www-form-urlencoded' },
                body: this.stringifyQuery(body),
            };
        }
        else {
            return __classPrivateFieldGet(this, _Langsmith_encoder, "f").call(this, { body, headers });
        }
    }
}
_a = Langsmith, _Langsmith_encoder = new WeakMap(), _Langsmith_instances = new WeakSet(), _Langsmith_baseURLOverridden = function _Langsmith_baseURLOverridden() {
    return this.baseURL !== 'https://api.smith.langchain.com/';
};
Object.defineProperty(Langsmith, "Langsmith", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: _a
});
Object.defineProperty(Langsmith, "DEFAULT_TIMEOUT", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: 90000
}); // 1.5 minutes
Object.defineProperty(Langsmith, "LangsmithError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: error_LangsmithError
});
Object.defineProperty(Langsmith, "APIError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: APIError
});
Object.defineProperty(Langsmith, "APIConnectionError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: APIConnectionError
});
Object.defineProperty(Langsmith, "APIConnectionTimeoutError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: APIConnectionTimeoutError
});
Object.defineProperty(Langsmith, "APIUserAbortError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: APIUserAbortError
});
Object.defineProperty(Langsmith, "NotFoundError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: NotFoundError
});
Object.defineProperty(Langsmith, "ConflictError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: ConflictError
});
Object.defineProperty(Langsmith, "RateLimitError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: RateLimitError
});
Object.defineProperty(Langsmith, "BadRequestError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: BadRequestError
});
Object.defineProperty(Langsmith, "AuthenticationError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: AuthenticationError
});
Object.defineProperty(Langsmith, "InternalServerError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: InternalServerError
});
Object.defineProperty(Langsmith, "PermissionDeniedError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: PermissionDeniedError
});
Object.defineProperty(Langsmith, "UnprocessableEntityError", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: UnprocessableEntityError
});
Object.defineProperty(Langsmith, "toFile", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: toFile
});
Langsmith.Sql = Sql;
Langsmith.ProductFeedback = ProductFeedback;
Langsmith.Agents = Agents;
Langsmith.Fleet = Fleet;
Langsmith.Sessions = Sessions;
Langsmith.Datasets = Datasets;
Langsmith.Runs = runs_runs_Runs;
Langsmith.Threads = threads_Threads;
Langsmith.Traces = Traces;
Langsmith.Evaluators = Evaluators;
Langsmith.OnlineEvaluators = OnlineEvaluators;
Langsmith.Public = Public;
Langsmith.AnnotationQueues = AnnotationQueues;
Langsmith.PromptWebhooks = PromptWebhooks;
Langsmith.Info = Info;
Langsmith.Issues = Issues;
Langsmith.Sandboxes = Sandboxes;

// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(8522);
// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(7075);
;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/zstd.mjs
/**
 * zstd abstraction (Node.js version).
 *
 * This file is swapped with zstd.browser.ts for browser builds via the
 * package.json browser field.
 */




/** zlib has zstd from Node 22.15 / 23.8. */
const ZSTD_AVAILABLE = typeof external_node_zlib_.createZstdCompress === "function";
const DEFAULT_LEVEL = 1;
// zstd's windowLog range; zlib throws outside it. 0 keeps zstd's default.
const MIN_WINDOW_LOG = 10;
const MAX_WINDOW_LOG = 27;
function windowLogFromEnv() {
    const raw = env_getLangSmithEnvironmentVariable("RUN_COMPRESSION_WINDOW_LOG");
    if (!raw)
        return 0;
    const value = Math.round(Number(raw));
    if (!Number.isFinite(value)) {
        warn_warnOnce(`LANGSMITH_RUN_COMPRESSION_WINDOW_LOG="${raw}" is not a number, using zstd's default window.`);
        return 0;
    }
    if (value === 0)
        return 0;
    const clamped = Math.min(Math.max(value, MIN_WINDOW_LOG), MAX_WINDOW_LOG);
    if (clamped !== value) {
        warn_warnOnce(`LANGSMITH_RUN_COMPRESSION_WINDOW_LOG=${raw} is outside ${MIN_WINDOW_LOG}-${MAX_WINDOW_LOG}, using ${clamped}.`);
    }
    return clamped;
}
/**
 * Level 1 and the default window by default, like the Python SDK.
 * LANGSMITH_RUN_COMPRESSION_LEVEL overrides the level.
 * LANGSMITH_RUN_COMPRESSION_WINDOW_LOG (10-27) sets the window to 2^n bytes:
 * 23 (8 MB) catches message history repeated across runs, but the server
 * holds about that much per upload while decoding.
 */
function createZstdStream() {
    // zstd clamps the level itself; only the window needs checking.
    const level = Number(env_getLangSmithEnvironmentVariable("RUN_COMPRESSION_LEVEL")) ||
        DEFAULT_LEVEL;
    const compressor = external_node_zlib_.createZstdCompress({
        params: {
            [external_node_zlib_.constants.ZSTD_c_compressionLevel]: level,
            [external_node_zlib_.constants.ZSTD_c_windowLog]: windowLogFromEnv(),
        },
    });
    return external_node_stream_.Duplex.toWeb(compressor);
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/compressed_runs.mjs

const encoder = new TextEncoder();
const concat = (chunks) => {
    const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.byteLength, 0));
    let offset = 0;
    for (const chunk of chunks) {
        out.set(chunk, offset);
        offset += chunk.byteLength;
    }
    return out;
};
/**
 * A multipart body compressed as runs are written, so a batch waiting to
 * upload holds compressed bytes, not run objects.
 */
class CompressedRunBuffer {
    constructor(encoding = "gzip") {
        Object.defineProperty(this, "encoding", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: encoding
        });
        Object.defineProperty(this, "boundary", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: "----LangSmithFormBoundary" + Math.random().toString(36).slice(2)
        });
        /** Uncompressed bytes written, for batch size limits. */
        Object.defineProperty(this, "uncompressedSize", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: 0
        });
        /** Number of operations written. */
        Object.defineProperty(this, "count", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: 0
        });
        Object.defineProperty(this, "context", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: []
        });
        /** Called once this batch is sent. */
        Object.defineProperty(this, "onSent", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: []
        });
        Object.defineProperty(this, "writer", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "chunks", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: []
        });
        Object.defineProperty(this, "readDone", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        const stream = encoding === "zstd" ? createZstdStream() : new CompressionStream("gzip");
        this.writer = stream.writable.getWriter();
        const reader = stream.readable.getReader();
        this.readDone = (async () => {
            for (;;) {
                const { done, value } = await reader.read();
                if (done)
                    return;
                this.chunks.push(value);
            }
        })();
    }
    /** zstd if the server takes it and this runtime has it, else gzip. */
    static pickEncoding(serverAllowsZstd) {
        if (serverAllowsZstd && ZSTD_AVAILABLE)
            return "zstd";
        return typeof CompressionStream !== "undefined" ? "gzip" : undefined;
    }
    /** Resolves once the compressor has taken the bytes, so the caller can drop them. */
    async writeParts(parts, context, onSent) {
        this.count += 1;
        this.context.push(context);
        this.onSent.push(onSent);
        // One write per run: each write waits for a busy event loop.
        await this._write(concat(parts.flatMap((part) => [
            encoder.encode(`--${this.boundary}\r\n` +
                `Content-Disposition: form-data; name="${part.name}"\r\n` +
                `Content-Type: ${part.contentType}\r\n\r\n`),
            part.data,
            encoder.encode("\r\n"),
        ])));
    }
    /** Close the multipart body and return the compressed bytes. */
    async close() {
        await this._write(encoder.encode(`--${this.boundary}--\r\n`));
        await this.writer.close();
        await this.readDone;
        const body = concat(this.chunks);
        this.chunks = [];
        return body;
    }
    async _write(chunk) {
        this.uncompressedSize += chunk.byteLength;
        await this.writer.write(chunk);
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/sampling.mjs
/**
 * Deterministic trace sampling, kept consistent across LangSmith SDKs.
 */

const SAMPLING_HASH_MODULUS = 1000000n;
// Reused across calls: constructing a TextEncoder per hash costs more than the
// hash itself.
const sampling_encoder = new TextEncoder();
/**
 * Decide whether `identifier` is sampled in at `samplingRate`.
 *
 * The decision is a pure function of the identifier, so every process and
 * every SDK agrees on it, and a run's create and patch never disagree.
 */
const isSampledById = (identifier, samplingRate) => {
    if (samplingRate === undefined || samplingRate >= 1) {
        return true;
    }
    if (samplingRate <= 0) {
        return false;
    }
    if (identifier == null) {
        return true;
    }
    // XXH3-128 over the UTF-8 bytes, matching the Python SDK's `xxhash.xxh3_128`.
    // The identifier is sampled in when its fraction of the modulus falls below
    // the rate, which is also expressed in [0, 1).
    const bucket = XXH3_128(sampling_encoder.encode(identifier.toLowerCase())) % SAMPLING_HASH_MODULUS;
    return Number(bucket) / Number(SAMPLING_HASH_MODULUS) < samplingRate;
};

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/v2_migration.mjs
const QueryBackend = {
    CLICKHOUSE_ONLY: "clickhouse_only",
    SMITHDB_ONLY: "smithdb_only",
    DUAL: "dual",
};
/** Which backend(s) `/info`'s `instance_flags` indicate for run/trace queries. */
function getQueryBackend(instanceFlags) {
    const flags = instanceFlags ?? {};
    const chEnabled = Boolean(flags.ch_query_enabled ?? true);
    const sdbEnabled = Boolean(flags.sdb_query_enabled ?? false);
    if (!chEnabled && sdbEnabled)
        return QueryBackend.SMITHDB_ONLY;
    if (chEnabled && sdbEnabled)
        return QueryBackend.DUAL;
    return QueryBackend.CLICKHOUSE_ONLY;
}
// Omitting selects from `/v2/runs/query` returns only the run ID.
const V2_RUN_SELECTS = (/* unused pure expression or super */ null && ([
    "ID",
    "NAME",
    "RUN_TYPE",
    "STATUS",
    "START_TIME",
    "END_TIME",
    "INPUTS",
    "OUTPUTS",
    "PARENT_RUN_IDS",
    "PROJECT_ID",
    "TRACE_ID",
    "DOTTED_ORDER",
    "REFERENCE_EXAMPLE_ID",
    "ERROR",
]));
function v2RunToRun(run) {
    if (run.id == null || run.name == null || run.run_type == null) {
        throw new Error("V2 run response is missing required fields.");
    }
    return {
        id: run.id,
        name: run.name,
        run_type: run.run_type.toLowerCase(),
        start_time: run.start_time,
        end_time: run.end_time,
        trace_id: run.trace_id,
        session_id: run.project_id,
        parent_run_id: run.parent_run_ids?.at(-1),
        dotted_order: run.dotted_order,
        reference_example_id: run.reference_example_id,
        inputs: run.inputs ?? {},
        outputs: run.outputs,
        error: run.error ?? undefined,
        status: run.status?.toLowerCase(),
    };
}
async function loadTracesV2(client, project, options) {
    const runs = [];
    const pager = client.runs.queryV2({
        project_ids: [project.id],
        min_start_time: new Date(project.start_time).toISOString(),
        max_start_time: new Date(project.end_time ?? Date.now()).toISOString(),
        is_root: options.isRoot,
        selects: V2_RUN_SELECTS,
    });
    for await (const run of pager) {
        runs.push(v2RunToRun(run));
    }
    return runs;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/prompts.mjs

/**
 * Parse a hub repo identifier (owner/name:hash, name, etc.).
 *
 * Prompts, agents, and skills share the same identifier grammar on Hub.
 */
function parseHubIdentifier(identifier) {
    if (!identifier ||
        identifier.split("/").length > 2 ||
        identifier.startsWith("/") ||
        identifier.endsWith("/") ||
        identifier.split(":").length > 2) {
        throw new Error(getInvalidPromptIdentifierMsg(identifier));
    }
    const [ownerNamePart, commitPart] = identifier.split(":");
    const commit = commitPart || "latest";
    if (ownerNamePart.includes("/")) {
        const [owner, name] = ownerNamePart.split("/", 2);
        if (!owner || !name) {
            throw new Error(getInvalidPromptIdentifierMsg(identifier));
        }
        return [owner, name, commit];
    }
    else {
        if (!ownerNamePart) {
            throw new Error(getInvalidPromptIdentifierMsg(identifier));
        }
        return ["-", ownerNamePart, commit];
    }
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/profile-lock.mjs

const LOCK_POLL_INTERVAL_MS = 10;
// A lock older than this is treated as abandoned (its holder crashed) and taken
// over. Holders bound their whole refresh to the 10s refresh timeout, so a live
// holder is never evicted. Shared with the Python, Go and Java SDKs.
const OAUTH_REFRESH_LOCK_STALE_AFTER_MS = 15000;
const LOCK_STALE_AFTER_MS = OAUTH_REFRESH_LOCK_STALE_AFTER_MS;
const LOCK_METADATA_FILE = "created_at";
function profile_lock_sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
function isEEXIST(err) {
    return (typeof err === "object" &&
        err !== null &&
        err.code === "EEXIST");
}
function lockMetadataLines(lockDir) {
    try {
        return readFileSync(path.join(lockDir, LOCK_METADATA_FILE))
            .split("\n");
    }
    catch {
        return undefined;
    }
}
// Falls back to the directory's mtime when the metadata is missing or
// malformed (e.g. the holder crashed between mkdir and writing it).
function lockCreatedAtMs(lockDir) {
    const lines = lockMetadataLines(lockDir);
    if (lines && lines[0] && lines[0].trim()) {
        const parsed = Date.parse(lines[0].trim());
        if (!Number.isNaN(parsed)) {
            return parsed;
        }
    }
    return statMtimeMs(lockDir);
}
async function removeStaleLock(lockDir) {
    const createdAt = lockCreatedAtMs(lockDir);
    if (createdAt === undefined ||
        Date.now() - createdAt <= LOCK_STALE_AFTER_MS) {
        return false;
    }
    await rmRecursive(lockDir);
    return true;
}
function lockOwner(lockDir) {
    const lines = lockMetadataLines(lockDir);
    if (lines && lines.length >= 2 && lines[1].trim()) {
        return lines[1].trim();
    }
    return undefined;
}
/**
 * Acquire the cross-process lock for refreshing OAuth tokens, shared with the
 * Python, Go and Java SDKs: an atomic-`mkdir` directory at
 * `<resolved config>.oauth.lock.lock` with owner-checked release. A lock older
 * than LOCK_STALE_AFTER_MS is taken over. `deadline` is a `Date.now()`-based
 * timestamp; acquisition rejects once it passes.
 */
async function acquireOAuthRefreshLock(configPath, deadline) {
    const lockDir = `${resolveConfigPath(configPath)}.oauth.lock.lock`;
    const waitUntil = performance.now() + Math.max(0, deadline - Date.now());
    const parent = path.dirname(lockDir);
    if (parent) {
        await mkdir(parent);
    }
    const owner = globalThis.crypto.randomUUID();
    for (;;) {
        if (performance.now() >= waitUntil) {
            throw new Error("timed out acquiring OAuth refresh lock");
        }
        try {
            await mkdirExclusive(lockDir);
        }
        catch (err) {
            if (!isEEXIST(err)) {
                throw err;
            }
            if (!(await removeStaleLock(lockDir))) {
                await profile_lock_sleep(Math.min(LOCK_POLL_INTERVAL_MS, Math.max(0, waitUntil - performance.now())));
            }
            continue;
        }
        try {
            await writeFileAtomic(path.join(lockDir, LOCK_METADATA_FILE), `${new Date().toISOString()}\n${owner}\n`);
        }
        catch (err) {
            await rmRecursive(lockDir);
            throw err;
        }
        break;
    }
    return {
        async release() {
            if (lockOwner(lockDir) === owner) {
                await rmRecursive(lockDir);
            }
        },
    };
}
// Exposed for tests only.
const _internal = {
    LOCK_METADATA_FILE,
    LOCK_STALE_AFTER_MS,
    lockOwner,
};

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/profiles.mjs



const DEFAULT_API_URL = "https://api.smith.langchain.com";
const OAUTH_CLIENT_ID = "langsmith-cli";
const TOKEN_REFRESH_LEEWAY_MS = 60000;
const TOKEN_REFRESH_TIMEOUT_MS = 10000;
const OAUTH_DISCOVERY_TIMEOUT_MS = 5000;
const WELL_KNOWN_OAUTH_PATH = "/.well-known/oauth-authorization-server";
function isBrowserLikeRuntime() {
    const env = getEnv();
    return env === "browser" || env === "webworker";
}
function getProfileConfigPath(selected) {
    const explicitPath = selected || env_getEnvironmentVariable("LANGSMITH_CONFIG_FILE");
    const configuredPath = explicitPath ||
        path.join(homeDirectory(), ".langsmith", "config.json");
    try {
        return resolveConfigPath(configuredPath);
    }
    catch {
        return undefined;
    }
}
function resolveProfileName(config, selected) {
    const chosen = selected || env_getEnvironmentVariable("LANGSMITH_PROFILE");
    if (chosen) {
        return chosen;
    }
    if (config.current_profile) {
        return config.current_profile;
    }
    if (config.profiles?.default) {
        return "default";
    }
    return undefined;
}
function loadProfileState(selection = {}) {
    if (isBrowserLikeRuntime()) {
        return undefined;
    }
    const configPath = getProfileConfigPath(selection.configPath);
    if (!configPath || !existsSync(configPath)) {
        return undefined;
    }
    try {
        const config = JSON.parse(readFileSync(configPath));
        const profileName = resolveProfileName(config, selection.profile);
        const profile = profileName ? config.profiles?.[profileName] : undefined;
        if (!profileName || !profile) {
            return undefined;
        }
        return { configPath, config, profileName, profile };
    }
    catch {
        return undefined;
    }
}
function hasValue(value) {
    return value !== undefined && value !== null && value.trim() !== "";
}
function trimConfigValue(value) {
    return value?.trim().replace(/^["']|["']$/g, "");
}
function shouldRefreshProfileToken(profile) {
    const oauth = profile.oauth;
    if (!oauth?.refresh_token) {
        return false;
    }
    if (!oauth.access_token) {
        return true;
    }
    if (!oauth.expires_at) {
        return false;
    }
    const expiresAt = Date.parse(oauth.expires_at);
    if (Number.isNaN(expiresAt)) {
        return false;
    }
    return expiresAt <= Date.now() + TOKEN_REFRESH_LEEWAY_MS;
}
/** Whether the cached access token can still authenticate a request. */
function accessTokenUsable(profile) {
    if (!trimConfigValue(profile.oauth?.access_token)) {
        return false;
    }
    const expiresAt = profile.oauth?.expires_at
        ? Date.parse(profile.oauth.expires_at)
        : Number.NaN;
    return Number.isNaN(expiresAt) || expiresAt > Date.now();
}
function normalizeConfigUrl(apiUrl) {
    let normalized = apiUrl;
    while (normalized.endsWith("/")) {
        normalized = normalized.slice(0, -1);
    }
    const apiV1Suffix = "/api/v1";
    return normalized.endsWith(apiV1Suffix)
        ? normalized.slice(0, -apiV1Suffix.length)
        : normalized;
}
/**
 * Metadata base URLs to probe, most specific first: the configured mount point,
 * then the self-hosted and SaaS locations, so both a bare origin and an
 * explicit `/api` resolve.
 */
function oauthDiscoveryCandidates(apiUrl) {
    const given = normalizeConfigUrl(apiUrl);
    const origin = given.endsWith("/api")
        ? given.slice(0, -"/api".length)
        : given;
    const candidates = [];
    for (const candidate of [given, `${origin}/api`, origin]) {
        if (candidate && candidate !== "/api" && !candidates.includes(candidate)) {
            candidates.push(candidate);
        }
    }
    return candidates;
}
/**
 * Check the document describes the deployment we probed. RFC 8414 requires the
 * issuer to match the URL the well-known path was built from, and every
 * endpoint must share the issuer's origin. Refresh tokens are posted to these
 * endpoints, so an unvalidated document could redirect credentials elsewhere.
 */
function isTrustedOAuthMetadata(doc, base) {
    const { issuer } = doc;
    if (typeof issuer !== "string" ||
        issuer.replace(/\/+$/, "") !== base.replace(/\/+$/, "")) {
        return false;
    }
    let issuerUrl;
    try {
        issuerUrl = new URL(issuer);
    }
    catch {
        return false;
    }
    for (const endpoint of [
        doc.device_authorization_endpoint,
        doc.token_endpoint,
    ]) {
        if (typeof endpoint !== "string" || !endpoint) {
            return false;
        }
        try {
            const url = new URL(endpoint);
            if (url.protocol !== issuerUrl.protocol || url.host !== issuerUrl.host) {
                return false;
            }
        }
        catch {
            return false;
        }
    }
    return true;
}
/**
 * Metadata URLs for an issuer, RFC 8414 form first. RFC 8414 inserts the
 * well-known segment between the origin and the issuer path, so
 * `https://host/api` is described at
 * `https://host/.well-known/oauth-authorization-server/api`. Deployments
 * commonly also serve the appended form, and for a path-less issuer the two are
 * identical.
 */
function oauthMetadataUrls(base) {
    const appended = `${base}${WELL_KNOWN_OAUTH_PATH}`;
    let inserted;
    try {
        const url = new URL(base);
        inserted = `${url.origin}${WELL_KNOWN_OAUTH_PATH}${url.pathname === "/" ? "" : url.pathname}`;
    }
    catch {
        return [appended];
    }
    return inserted === appended ? [inserted] : [inserted, appended];
}
async function fetchOAuthMetadata(url, base, fetchImplementation, deadline) {
    const timeoutMs = Math.min(OAUTH_DISCOVERY_TIMEOUT_MS, deadline - Date.now());
    if (timeoutMs <= 0) {
        return undefined;
    }
    let response;
    try {
        response = await fetchImplementation(url, {
            method: "GET",
            headers: { Accept: "application/json" },
            signal: AbortSignal.timeout(timeoutMs),
        });
    }
    catch {
        return undefined;
    }
    if (!response.ok) {
        return undefined;
    }
    let doc;
    try {
        // Self-hosted answers unknown paths with an HTML 200 from the SPA.
        doc = (await response.json());
    }
    catch {
        return undefined;
    }
    if (!doc || typeof doc !== "object" || !isTrustedOAuthMetadata(doc, base)) {
        return undefined;
    }
    return doc;
}
/**
 * Resolve the token endpoint, preferring the deployment's metadata document.
 * Falls back to `<mount>/oauth/token`, keeping a trailing `/api` because
 * self-hosted mounts the authorization server under it.
 */
async function resolveTokenEndpoint(apiUrl, fetchImplementation, deadline = Number.POSITIVE_INFINITY) {
    for (const base of oauthDiscoveryCandidates(apiUrl)) {
        for (const url of oauthMetadataUrls(base)) {
            const doc = await fetchOAuthMetadata(url, base, fetchImplementation, deadline);
            if (doc) {
                return doc.token_endpoint;
            }
        }
    }
    return `${normalizeConfigUrl(apiUrl)}/oauth/token`;
}
function applyTokenResponse(profile, token) {
    profile.oauth ?? (profile.oauth = {});
    if (token.access_token) {
        profile.oauth.access_token = token.access_token;
    }
    if (token.refresh_token) {
        profile.oauth.refresh_token = token.refresh_token;
    }
    if (typeof token.expires_in === "number" && token.expires_in > 0) {
        profile.oauth.expires_at = new Date(Date.now() + token.expires_in * 1000).toISOString();
    }
}
function getAbortReason(signal) {
    return (signal.reason ??
        new Error("The operation was aborted."));
}
async function waitForAbortSignal(promise, signal) {
    if (!signal) {
        return promise;
    }
    if (signal.aborted) {
        throw getAbortReason(signal);
    }
    let cleanup;
    const abortPromise = new Promise((_, reject) => {
        const onAbort = () => {
            reject(getAbortReason(signal));
        };
        signal.addEventListener("abort", onAbort, { once: true });
        cleanup = () => {
            signal.removeEventListener("abort", onAbort);
        };
    });
    try {
        return await Promise.race([promise, abortPromise]);
    }
    finally {
        cleanup?.();
    }
}
function loadProfileClientConfig(selection = {}) {
    const state = loadProfileState(selection);
    const profile = state?.profile;
    if (!state || !profile) {
        return {};
    }
    const apiKey = trimConfigValue(profile.api_key);
    const oauthAccessToken = trimConfigValue(profile.oauth?.access_token);
    const oauthRefreshToken = trimConfigValue(profile.oauth?.refresh_token);
    const apiKeyRef = trimConfigValue(profile.api_key_env) ||
        trimConfigValue(profile.api_key_cmd);
    return {
        apiUrl: profile.api_url,
        apiKey,
        workspaceId: profile.workspace_id,
        oauthAccessToken,
        oauthRefreshToken,
        profileAuth: apiKey || oauthAccessToken || oauthRefreshToken || apiKeyRef
            ? new ProfileAuth(state)
            : undefined,
    };
}
// A profile API key reference that cannot be resolved.
class ProfileApiKeyError extends Error {
    constructor(message) {
        super(message);
        this.name = "ProfileApiKeyError";
    }
}
// The shared OAuth refresh lock could not be acquired and the cached access
// token has expired.
class ProfileRefreshLockError extends Error {
    constructor(message, options) {
        super(message);
        this.name = "ProfileRefreshLockError";
        if (options && "cause" in options) {
            this.cause = options.cause;
        }
    }
}
class ProfileAuth {
    constructor(state) {
        Object.defineProperty(this, "state", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: state
        });
        Object.defineProperty(this, "refreshPromise", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "managedAuthorizationValue", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.rememberProfileAuthHeader(this.currentAuthHeader());
    }
    /**
     * The auth header to snapshot into default headers. A profile API key that
     * cannot be resolved yields none here; `getAuthHeader` reports it when a
     * request needs it.
     */
    currentAuthHeader() {
        let header;
        try {
            header = currentAuthHeaderFromProfile(this.state);
        }
        catch (error) {
            if (!(error instanceof ProfileApiKeyError)) {
                throw error;
            }
            header = undefined;
        }
        this.rememberProfileAuthHeader(header);
        return header;
    }
    async getAuthHeader(fetchImplementation, signal) {
        if (shouldRefreshProfileToken(this.state.profile)) {
            if (!this.refreshPromise) {
                this.refreshPromise = this.refreshOAuthToken(fetchImplementation).finally(() => {
                    this.refreshPromise = undefined;
                });
            }
            await waitForAbortSignal(this.refreshPromise, signal);
        }
        const header = authHeaderFromProfile(this.state);
        this.rememberProfileAuthHeader(header);
        return header;
    }
    isProfileAuthorizationHeader(value) {
        return value === this.managedAuthorizationValue;
    }
    reloadProfile() {
        try {
            const config = JSON.parse(readFileSync(this.state.configPath));
            const profile = config.profiles?.[this.state.profileName];
            if (!profile) {
                return undefined;
            }
            this.state.config = config;
            this.state.profile = profile;
            return profile;
        }
        catch {
            return undefined;
        }
    }
    async refreshOAuthToken(fetchImplementation) {
        var _a;
        const refreshToken = this.state.profile.oauth?.refresh_token;
        if (!refreshToken) {
            return;
        }
        const deadline = Date.now() + TOKEN_REFRESH_TIMEOUT_MS;
        let lock;
        try {
            try {
                lock = await acquireOAuthRefreshLock(this.state.configPath, deadline);
            }
            catch (error) {
                // Without the lock the cached refresh token must not be used. An
                // unexpired access token still works; an expired one would only
                // produce opaque 401s, so report why the refresh could not run.
                if (!accessTokenUsable(this.state.profile)) {
                    throw new ProfileRefreshLockError(`Could not refresh the expired OAuth token for LangSmith profile "${this.state.profileName}": failed to acquire the refresh lock next to ${this.state.configPath} (${error instanceof Error ? error.message : String(error)}). ` +
                        "Another process may be refreshing it, or the config directory may not be writable; " +
                        "OAuth profiles need a writable config. Use an API key for read-only configs. " +
                        `A lock left by a crashed process is released automatically after ${OAUTH_REFRESH_LOCK_STALE_AFTER_MS / 1000} seconds.`, { cause: error });
                }
                return;
            }
            const fresh = this.reloadProfile();
            const freshRefreshToken = fresh?.oauth?.refresh_token;
            if (!fresh || !freshRefreshToken || !shouldRefreshProfileToken(fresh)) {
                return;
            }
            const refreshApiUrl = trimConfigValue(fresh.api_url) ?? DEFAULT_API_URL;
            const body = new URLSearchParams({
                grant_type: "refresh_token",
                client_id: OAUTH_CLIENT_ID,
                refresh_token: freshRefreshToken,
            });
            // The whole exchange stays within `deadline` so the lock is never held
            // long enough for another process to treat it as abandoned.
            const tokenEndpoint = await resolveTokenEndpoint(refreshApiUrl, fetchImplementation, deadline);
            if (Date.now() >= deadline) {
                return;
            }
            const response = await fetchImplementation(tokenEndpoint, {
                method: "POST",
                headers: {
                    "Content-Type": "application/x-www-form-urlencoded",
                },
                body: body.toString(),
                signal: AbortSignal.timeout(Math.max(0, deadline - Date.now())),
            });
            if (!response.ok) {
                return;
            }
            const token = (await response.json());
            if (!token.access_token) {
                return;
            }
            applyTokenResponse(this.state.profile, token);
            (_a = this.state.config).profiles ?? (_a.profiles = {});
            this.state.config.profiles[this.state.profileName] = this.state.profile;
            await writeFileAtomic(this.state.configPath, `${JSON.stringify(this.state.config, null, 2)}\n`);
        }
        catch (error) {
            if (error instanceof ProfileRefreshLockError) {
                throw error;
            }
            return;
        }
        finally {
            await lock?.release();
        }
    }
    rememberProfileAuthHeader(header) {
        this.managedAuthorizationValue =
            header?.name === "Authorization" ? header.value : undefined;
    }
}
function currentAuthHeaderFromProfile(state) {
    const { profile } = state;
    const oauthAccessToken = trimConfigValue(profile.oauth?.access_token);
    if (oauthAccessToken) {
        return { name: "Authorization", value: `Bearer ${oauthAccessToken}` };
    }
    if (trimConfigValue(profile.oauth?.refresh_token)) {
        return undefined;
    }
    return authHeaderFromProfile(state);
}
function authHeaderFromProfile(state) {
    const { profile } = state;
    const oauthAccessToken = trimConfigValue(profile.oauth?.access_token);
    if (oauthAccessToken) {
        return { name: "Authorization", value: `Bearer ${oauthAccessToken}` };
    }
    const apiKey = profileApiKey(state.profileName, profile);
    if (apiKey) {
        return { name: "x-api-key", value: apiKey };
    }
    return undefined;
}
function profileApiKey(profileName, profile) {
    const apiKey = trimConfigValue(profile.api_key);
    if (apiKey) {
        return apiKey;
    }
    const apiKeyEnv = trimConfigValue(profile.api_key_env);
    if (apiKeyEnv) {
        const key = env_getEnvironmentVariable(apiKeyEnv)?.trim();
        if (key) {
            return key;
        }
        throw new ProfileApiKeyError(`LangSmith profile "${profileName}" reads its API key from $${apiKeyEnv}, which is not set`);
    }
    if (trimConfigValue(profile.api_key_cmd)) {
        throw new ProfileApiKeyError(`LangSmith profile "${profileName}" gets its API key from a command (api_key_cmd), ` +
            "which the JS SDK does not support yet. Set api_key_env in the profile, " +
            "or set LANGSMITH_API_KEY.");
    }
    return undefined;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/fast-safe-stringify/index.mjs
/* eslint-disable */
// @ts-nocheck

var LIMIT_REPLACE_NODE = "[...]";
var CIRCULAR_REPLACE_NODE = { result: "[Circular]" };
var arr = [];
var replacerStack = [];
const fast_safe_stringify_encoder = new TextEncoder();
function defaultOptions() {
    return {
        depthLimit: Number.MAX_SAFE_INTEGER,
        edgesLimit: Number.MAX_SAFE_INTEGER,
    };
}
function encodeString(str) {
    return fast_safe_stringify_encoder.encode(str);
}
// Shared function to handle well-known types
function serializeWellKnownTypes(val) {
    if (val && typeof val === "object" && val !== null) {
        if (val instanceof Map) {
            return Object.fromEntries(val);
        }
        else if (val instanceof Set) {
            return Array.from(val);
        }
        else if (val instanceof Date) {
            return val.toISOString();
        }
        else if (val instanceof RegExp) {
            return val.toString();
        }
        else if (val instanceof Error) {
            return {
                name: val.name,
                message: val.message,
            };
        }
    }
    else if (typeof val === "bigint") {
        return val.toString();
    }
    return val;
}
// Default replacer function to handle well-known types
function createDefaultReplacer(userReplacer) {
    return function (key, val) {
        // Apply user replacer first if provided
        if (userReplacer) {
            const userResult = userReplacer.call(this, key, val);
            // If user replacer returned undefined, fall back to our serialization
            if (userResult !== undefined) {
                return userResult;
            }
        }
        // Fall back to our well-known type handling
        return serializeWellKnownTypes(val);
    };
}
function estimateSerializedSize(value) {
    try {
        // Ancestor set for cycle detection. An object is only treated as
        // circular if it appears on the current recursion path, not merely
        // if it has been seen before elsewhere in the graph.
        const ancestors = new Set();
        let maxStringLen = 0;
        // In Node / Bun, Buffer.byteLength is a fast native way to get UTF-8
        // byte length without allocating an encoded copy. In other runtimes
        // we fall back to code-unit length (a small under-estimate for
        // non-ASCII text, which is acceptable for soft limits).
        const byteLen = typeof Buffer !== "undefined" && typeof Buffer.byteLength === "function"
            ? (s) => Buffer.byteLength(s, "utf8")
            : (s) => s.length;
        function estimateString(s) {
            // +2 for the surrounding quotes. Escape expansion is not counted.
            const n = byteLen(s);
            if (n > maxStringLen)
                maxStringLen = n;
            return n + 2;
        }
        // Size of a byte sequence when rendered as a JSON array of decimal
        // numbers: "[b0,b1,b2,...]". Each byte averages ~3.5 chars (value 0-9
        // => 1 char, 10-99 => 2 chars, 100-255 => 3 chars; weighted mean over
        // a uniform distribution is ~2.81, plus one comma per element except
        // the last). Round up to 4 bytes/element for a small safety margin.
        function estimateByteArrayJson(byteLength) {
            if (byteLength === 0)
                return 2; // "[]"
            return 2 + byteLength * 4;
        }
        // Returns true for values that JSON.stringify drops when they appear
        // as an object property (as opposed to an array element, where they
        // become "null").
        function isDropped(v) {
            return (v === undefined || typeof v === "function" || typeof v === "symbol");
        }
        // In arrays, undefined / function / symbol become "null" (4 bytes).
        function estimateInArray(v) {
            if (v === undefined || typeof v === "function" || typeof v === "symbol") {
                return 4;
            }
            return estimate(v);
        }
        function estimate(val) {
            if (val === null)
                return 4; // "null"
            if (val === undefined)
                return 0; // top-level or property context; array handled separately
            const t = typeof val;
            if (t === "boolean")
                return 5; // "true" / "false" upper bound
            if (t === "number") {
                if (!Number.isFinite(val))
                    return 4; // "null"
                // Convert to string to get exact length. This is cheap for numbers
                // (V8 caches small-number strings) and makes the estimate far
                // tighter for common cases like integer arrays.
                return val.toString().length;
            }
            if (t === "bigint") {
                // Our replacer renders BigInt via .toString(), then JSON.stringify
                // quotes it.
                return val.toString().length + 2;
            }
            if (t === "string")
                return estimateString(val);
            if (t === "function" || t === "symbol")
                return 0;
            // Objects from here on.
            const obj = val;
            // Well-known types handled by our replacer.
            if (obj instanceof Date)
                return 26; // "2024-01-01T00:00:00.000Z"
            if (obj instanceof RegExp)
                return byteLen(obj.toString()) + 2;
            if (obj instanceof Error) {
                const name = obj.name ?? "";
                const message = obj.message ?? "";
                // {"name":"...","message":"..."}
                return 22 + byteLen(name) + byteLen(message);
            }
            // Binary data types. These commonly appear in LLM payloads (images,
            // audio) and their JSON representations vary widely.
            if (typeof Buffer !== "undefined" && obj instanceof Buffer) {
                // { "type": "Buffer", "data": [0, 1, 2, ...] }
                return 28 + estimateByteArrayJson(obj.byteLength);
            }
            if (ArrayBuffer.isView(obj)) {
                if (obj instanceof DataView) {
                    // DataView has no enumerable own properties; serializes as "{}".
                    return 2;
                }
                // Typed arrays serialize as {"0":v0,"1":v1,...} (keyed objects),
                // which is much larger than a plain array would be. Per element
                // cost: digits for index + digits for value + ":" + "," + quotes.
                const len = obj.length ?? 0;
                const isFloat = obj instanceof Float32Array || obj instanceof Float64Array;
                // Index digits grow with len; worst-case per element:
                //   "NNN":V,   where NNN = log10(len) digits and V depends on type.
                // Loose but safe bounds: integer views ~12 chars/element, float
                // views ~30 chars/element (Float32 ToString can be up to ~17 chars).
                const perElement = isFloat ? 30 : 12;
                return 2 + len * perElement;
            }
            if (obj instanceof ArrayBuffer) {
                // Plain ArrayBuffer has no enumerable properties; serializes as "{}".
                return 2;
            }
            if (ancestors.has(obj)) {
                // Cycle: our decirc fallback replaces with { result: "[Circular]" }.
                return 24;
            }
            // Custom toJSON (Decimal.js, Moment, Luxon, Mongoose docs, etc.).
            // This runs after explicit built-in / binary cases above so known
            // types (for example Buffer) use their dedicated fast-path sizing
            // logic instead of duck-typing through toJSON().
            if (typeof obj.toJSON === "function") {
                let projected;
                try {
                    projected = obj.toJSON("");
                }
                catch {
                    // If toJSON throws, JSON.stringify would also throw and our
                    // serializer would emit "[Unserializable]" (~16 bytes).
                    return 16;
                }
                ancestors.add(obj);
                const size = estimate(projected);
                ancestors.delete(obj);
                return size;
            }
            ancestors.add(obj);
            let size;
            if (Array.isArray(obj)) {
                size = 2; // []
                const len = obj.length;
                for (let i = 0; i < len; i++) {
                    size += estimateInArray(obj[i]);
                    if (i < len - 1)
                        size += 1; // comma
                }
            }
            else if (obj instanceof Map) {
                // Rendered as { k: v, ... } via Object.fromEntries.
                size = 2;
                let emitted = 0;
                for (const [k, v] of obj) {
                    if (isDropped(v))
                        continue;
                    if (emitted > 0)
                        size += 1; // comma
                    const keyStr = typeof k === "string" ? k : String(k);
                    size += byteLen(keyStr) + 3; // "key":
                    size += estimate(v);
                    emitted++;
                }
            }
            else if (obj instanceof Set) {
                // Rendered as [v, ...] via Array.from.
                size = 2;
                let emitted = 0;
                for (const v of obj) {
                    if (emitted > 0)
                        size += 1; // comma
                    size += estimateInArray(v);
                    emitted++;
                }
            }
            else {
                size = 2; // {}
                let emitted = 0;
                // Object.keys only returns own enumerable string keys, matching
                // JSON.stringify.
                const keys = Object.keys(obj);
                for (let i = 0; i < keys.length; i++) {
                    const key = keys[i];
                    const v = obj[key];
                    if (isDropped(v))
                        continue;
                    if (emitted > 0)
                        size += 1; // comma
                    size += byteLen(key) + 3; // "key":
                    size += estimate(v);
                    emitted++;
                }
            }
            ancestors.delete(obj);
            return size;
        }
        const size = estimate(value);
        return { size, maxStringLen };
    }
    catch {
        // If the estimator itself hits an unexpected edge case, fall back to the
        // exact serialized size. This preserves correctness of queue-size
        // accounting at the cost of a slower hot path for that one payload.
        // We cannot cheaply recover maxStringLen here, so report 0: the worker
        // gate will then fall back to sync serialization, which is safe.
        return { size: serialize(value).length, maxStringLen: 0 };
    }
}
// Regular stringify
function serialize(obj, errorContext, replacer, spacer, options) {
    try {
        const str = JSON.stringify(obj, createDefaultReplacer(replacer), spacer);
        return encodeString(str);
    }
    catch (e) {
        // Fall back to more complex stringify if circular reference
        if (!e.message?.includes("Converting circular structure to JSON")) {
            console.warn(`[WARNING]: LangSmith received unserializable value.${errorContext ? `\nContext: ${errorContext}` : ""}`);
            return encodeString("[Unserializable]");
        }
        env_getLangSmithEnvironmentVariable("SUPPRESS_CIRCULAR_JSON_WARNINGS") !==
            "true" &&
            console.warn(`[WARNING]: LangSmith received circular JSON. This will decrease tracer performance. ${errorContext ? `\nContext: ${errorContext}` : ""}`);
        if (typeof options === "undefined") {
            options = defaultOptions();
        }
        decirc(obj, "", 0, [], undefined, 0, options);
        let res;
        try {
            if (replacerStack.length === 0) {
                res = JSON.stringify(obj, replacer, spacer);
            }
            else {
                res = JSON.stringify(obj, replaceGetterValues(replacer), spacer);
            }
        }
        catch (_) {
            return encodeString("[unable to serialize, circular reference is too complex to analyze]");
        }
        finally {
            while (arr.length !== 0) {
                const part = arr.pop();
                if (part.length === 4) {
                    Object.defineProperty(part[0], part[1], part[3]);
                }
                else {
                    part[0][part[1]] = part[2];
                }
            }
        }
        return encodeString(res);
    }
}
function setReplace(replace, val, k, parent) {
    var propertyDescriptor = Object.getOwnPropertyDescriptor(parent, k);
    if (propertyDescriptor.get !== undefined) {
        if (propertyDescriptor.configurable) {
            Object.defineProperty(parent, k, { value: replace });
            arr.push([parent, k, val, propertyDescriptor]);
        }
        else {
            replacerStack.push([val, k, replace]);
        }
    }
    else {
        parent[k] = replace;
        arr.push([parent, k, val]);
    }
}
function decirc(val, k, edgeIndex, stack, parent, depth, options) {
    depth += 1;
    var i;
    if (typeof val === "object" && val !== null) {
        for (i = 0; i < stack.length; i++) {
            if (stack[i] === val) {
                setReplace(CIRCULAR_REPLACE_NODE, val, k, parent);
                return;
            }
        }
        if (typeof options.depthLimit !== "undefined" &&
            depth > options.depthLimit) {
            setReplace(LIMIT_REPLACE_NODE, val, k, parent);
            return;
        }
        if (typeof options.edgesLimit !== "undefined" &&
            edgeIndex + 1 > options.edgesLimit) {
            setReplace(LIMIT_REPLACE_NODE, val, k, parent);
            return;
        }
        stack.push(val);
        // Optimize for Arrays. Big arrays could kill the performance otherwise!
        if (Array.isArray(val)) {
            for (i = 0; i < val.length; i++) {
                decirc(val[i], i, i, stack, val, depth, options);
            }
        }
        else {
            // Handle well-known types before Object.keys iteration
            val = serializeWellKnownTypes(val);
            var keys = Object.keys(val);
            for (i = 0; i < keys.length; i++) {
                var key = keys[i];
                decirc(val[key], key, i, stack, val, depth, options);
            }
        }
        stack.pop();
    }
}
// Stable-stringify
function compareFunction(a, b) {
    if (a < b) {
        return -1;
    }
    if (a > b) {
        return 1;
    }
    return 0;
}
function deterministicStringify(obj, replacer, spacer, options) {
    if (typeof options === "undefined") {
        options = defaultOptions();
    }
    var tmp = deterministicDecirc(obj, "", 0, [], undefined, 0, options) || obj;
    var res;
    try {
        if (replacerStack.length === 0) {
            res = JSON.stringify(tmp, replacer, spacer);
        }
        else {
            res = JSON.stringify(tmp, replaceGetterValues(replacer), spacer);
        }
    }
    catch (_) {
        return JSON.stringify("[unable to serialize, circular reference is too complex to analyze]");
    }
    finally {
        // Ensure that we restore the object as it was.
        while (arr.length !== 0) {
            var part = arr.pop();
            if (part.length === 4) {
                Object.defineProperty(part[0], part[1], part[3]);
            }
            else {
                part[0][part[1]] = part[2];
            }
        }
    }
    return res;
}
function deterministicDecirc(val, k, edgeIndex, stack, parent, depth, options) {
    depth += 1;
    var i;
    if (typeof val === "object" && val !== null) {
        for (i = 0; i < stack.length; i++) {
            if (stack[i] === val) {
                setReplace(CIRCULAR_REPLACE_NODE, val, k, parent);
                return;
            }
        }
        try {
            if (typeof val.toJSON === "function") {
                return;
            }
        }
        catch (_) {
            return;
        }
        if (typeof options.depthLimit !== "undefined" &&
            depth > options.depthLimit) {
            setReplace(LIMIT_REPLACE_NODE, val, k, parent);
            return;
        }
        if (typeof options.edgesLimit !== "undefined" &&
            edgeIndex + 1 > options.edgesLimit) {
            setReplace(LIMIT_REPLACE_NODE, val, k, parent);
            return;
        }
        stack.push(val);
        // Optimize for Arrays. Big arrays could kill the performance otherwise!
        if (Array.isArray(val)) {
            for (i = 0; i < val.length; i++) {
                deterministicDecirc(val[i], i, i, stack, val, depth, options);
            }
        }
        else {
            // Handle well-known types before Object.keys iteration
            val = serializeWellKnownTypes(val);
            // Create a temporary object in the required way
            var tmp = {};
            var keys = Object.keys(val).sort(compareFunction);
            for (i = 0; i < keys.length; i++) {
                var key = keys[i];
                deterministicDecirc(val[key], key, i, stack, val, depth, options);
                tmp[key] = val[key];
            }
            if (typeof parent !== "undefined") {
                arr.push([parent, k, val]);
                parent[k] = tmp;
            }
            else {
                return tmp;
            }
        }
        stack.pop();
    }
}
// wraps replacer function to handle values we couldn't replace
// and mark them as replaced value
function replaceGetterValues(replacer) {
    replacer =
        typeof replacer !== "undefined"
            ? replacer
            : function (k, v) {
                return v;
            };
    return function (key, val) {
        if (replacerStack.length > 0) {
            for (var i = 0; i < replacerStack.length; i++) {
                var part = replacerStack[i];
                if (part[1] === key && part[0] === val) {
                    val = part[2];
                    replacerStack.splice(i, 1);
                    break;
                }
            }
        }
        return replacer.call(this, key, val);
    };
}

// EXTERNAL MODULE: external "node:worker_threads"
var external_node_worker_threads_ = __webpack_require__(5919);
;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/worker_threads.mjs
/**
 * worker_threads abstraction (Node.js version).
 *
 * This file is swapped with worker_threads.browser.ts for browser / edge
 * builds via the package.json `browser` field. Node gets the real module;
 * browsers get a stub that signals unavailability.
 *
 * Only the surface actually used by SerializeWorker is re-exported.
 */

const Worker = external_node_worker_threads_.Worker;
const WORKER_THREADS_AVAILABLE = true;

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/utils/serialize_worker.mjs
/**
 * Off-thread serialization using Node worker_threads.
 *
 * Falls back silently to synchronous serialize() when:
 *   - worker_threads is unavailable (browsers, Deno, Bun without compat,
 *     Cloudflare Workers, Vercel Edge, React Native)
 *   - the worker cannot be constructed (bundler/runtime constraints)
 *   - DataCloneError is thrown for a payload containing non-cloneable
 *     values (functions, class instances with non-cloneable state, etc.)
 *   - the worker crashes or throws
 *
 * Protocol:
 *   main -> worker: { id, op, payload }
 *     op = "serialize" -> worker returns bytes as a transferable ArrayBuffer
 *   worker -> main: { id, bytes?: ArrayBuffer, error?: string }
 *
 * The worker source is inlined as a string so the library bundles cleanly
 * under webpack/esbuild/ncc without requiring a separate asset file.
 */

// The worker script: a self-contained mirror of the hot path of
// src/utils/fast-safe-stringify/index.ts#serialize(). We deliberately
// don't import the TS module -- the worker runs as a standalone script.
const WORKER_SOURCE = /* js */ `
const { parentPort } = require("worker_threads");

const CIRCULAR_REPLACE_NODE = { result: "[Circular]" };

function serializeWellKnownTypes(val) {
  if (val && typeof val === "object") {
    if (val instanceof Map) return Object.fromEntries(val);
    if (val instanceof Set) return Array.from(val);
    if (val instanceof Date) return val.toISOString();
    if (val instanceof RegExp) return val.toString();
    if (val instanceof Error) return { name: val.name, message: val.message };
  } else if (typeof val === "bigint") {
    return val.toString();
  }
  return val;
}

function defaultReplacer(_key, val) {
  return serializeWellKnownTypes(val);
}

// Decirculate in-place: replace circular refs with { result: "[Circular]" }
// then restore after stringify. Mirrors fast-safe-stringify's decirc().
const restoreStack = [];
function decirc(val, k, stack, parent) {
  if (typeof val === "object" && val !== null) {
    for (let i = 0; i < stack.length; i++) {
      if (stack[i] === val) {
        const orig = parent[k];
        parent[k] = CIRCULAR_REPLACE_NODE;
        restoreStack.push([parent, k, orig]);
        return;
      }
    }
    stack.push(val);
    if (Array.isArray(val)) {
      for (let i = 0; i < val.length; i++) decirc(val[i], i, stack, val);
    } else {
      const normalized = serializeWellKnownTypes(val);
      // Only recurse into normalized if it's still an object (arrays/objects),
      // else it was replaced with a primitive (e.g. Date -> string).
      if (normalized === val) {
        const keys = Object.keys(val);
        for (let i = 0; i < keys.length; i++) decirc(val[keys[i]], keys[i], stack, val);
      }
    }
    stack.pop();
  }
}

function serialize(obj) {
  try {
    return JSON.stringify(obj, defaultReplacer);
  } catch (e) {
    if (!String(e && e.message).includes("Converting circular structure to JSON")) {
      return "[Unserializable]";
    }
    decirc(obj, "", [], { "": obj });
    try {
      return JSON.stringify(obj, defaultReplacer);
    } catch (_) {
      return "[unable to serialize, circular reference is too complex to analyze]";
    } finally {
      while (restoreStack.length) {
        const [p, k, v] = restoreStack.pop();
        p[k] = v;
      }
    }
  }
}

parentPort.on("message", (msg) => {
  const { id, op, payload } = msg;
  try {
    if (op === "serialize") {
      const str = serialize(payload);
      const buf = Buffer.from(str, "utf8");
      // Slice into its own ArrayBuffer so we can transfer without dragging
      // unrelated bytes from any shared pool buffer.
      const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
      parentPort.postMessage({ id, bytes: ab, length: buf.byteLength }, [ab]);
    } else if (op === "ping") {
      parentPort.postMessage({ id });
    } else {
      parentPort.postMessage({ id, error: "unknown op: " + op });
    }
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.message) || e) });
  }
});
`;
class SerializeWorker {
    constructor() {
        Object.defineProperty(this, "worker", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: null
        });
        Object.defineProperty(this, "nextId", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: 1
        });
        Object.defineProperty(this, "pending", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Map()
        });
        Object.defineProperty(this, "disabled", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: false
        });
        Object.defineProperty(this, "startPromise", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: null
        });
    }
    /**
     * Try to construct the worker. Returns false if the runtime can't support
     * it -- in that case callers must fall back to synchronous serialization.
     * Kept async so callers don't have to branch on runtime -- the promise
     * resolves synchronously on the microtask queue when the worker module
     * is available, which is the common Node CJS/ESM path.
     */
    async ensureStarted() {
        if (this.disabled)
            return false;
        if (this.worker !== null)
            return true;
        if (this.startPromise !== null)
            return this.startPromise;
        this.startPromise = this._start();
        try {
            return await this.startPromise;
        }
        finally {
            this.startPromise = null;
        }
    }
    async _start() {
        // In browser / edge builds the `worker_threads` module is swapped with
        // a stub that reports unavailability via the package.json `browser`
        // field. Bail out before touching any Node-only surface.
        if (!WORKER_THREADS_AVAILABLE || Worker === null) {
            this.disabled = true;
            return false;
        }
        try {
            const worker = new Worker(WORKER_SOURCE, { eval: true });
            worker.on("message", (msg) => {
                const p = this.pending.get(msg.id);
                if (!p)
                    return;
                this.pending.delete(msg.id);
                if (msg.error) {
                    p.reject(new Error(msg.error));
                }
                else if (msg.bytes && typeof msg.length === "number") {
                    p.resolve(new Uint8Array(msg.bytes, 0, msg.length));
                }
                else {
                    p.reject(new Error("worker returned malformed message"));
                }
            });
            worker.on("error", (err) => {
                // Reject all pending and disable; caller will fall back.
                for (const [, p] of this.pending)
                    p.reject(err);
                this.pending.clear();
                this.disabled = true;
                this.worker = null;
            });
            worker.on("exit", (code) => {
                // Reject all pending requests regardless of exit code. Even a clean
                // exit (code 0) with in-flight requests means those promises would
                // otherwise hang forever.
                for (const [, p] of this.pending) {
                    p.reject(new Error(`worker exited with code ${code}`));
                }
                this.pending.clear();
                this.worker = null;
            });
            // Don't let the worker keep the process alive.
            worker.unref();
            this.worker = worker;
            return true;
        }
        catch {
            this.disabled = true;
            return false;
        }
    }
    /**
     * Serialize a payload off-thread. Rejects with DataCloneError (or similar)
     * if the payload contains non-cloneable values -- callers must catch and
     * fall back to synchronous serialize().
     *
     * Resolves with null if the worker subsystem is unavailable entirely,
     * so the caller can fall back without paying try/catch overhead.
     */
    async serialize(payload) {
        const ok = await this.ensureStarted();
        if (!ok)
            return null;
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            this.pending.set(id, { resolve, reject });
            try {
                // eslint-disable-next-line @typescript-eslint/no-explicit-any
                this.worker.postMessage({ id, op: "serialize", payload });
            }
            catch (e) {
                // postMessage throws synchronously for DataCloneError, unclonable
                // values, detached buffers, etc.
                this.pending.delete(id);
                reject(e);
            }
        });
    }
    async terminate() {
        if (this.worker) {
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
            await this.worker.terminate();
            this.worker = null;
        }
        for (const [, p] of this.pending) {
            p.reject(new Error("worker terminated"));
        }
        this.pending.clear();
    }
}
let sharedWorker = null;
/**
 * Process-wide shared worker. One worker serves all Client instances to
 * avoid spawning multiple threads per process.
 */
function getSharedSerializeWorker() {
    if (sharedWorker === null)
        sharedWorker = new SerializeWorker();
    return sharedWorker;
}
/**
 * Minimum string length (in UTF-16 code units) that justifies the overhead
 * of dispatching serialization to a worker thread.
 *
 * Rationale: V8's postMessage / structuredClone fast-paths large strings
 * across isolates by refcounting their underlying storage rather than
 * copying the bytes. This makes worker offload a big win for payloads
 * dominated by a handful of multi-hundred-KB strings (the classic case is
 * base64-encoded images or audio in LLM messages), but a net loss for
 * payloads whose bulk is structural -- thousands of keys, deep nesting,
 * many small strings -- because every object node must still be walked
 * and cloned.
 *
 * 64KB sits comfortably above typical "chunk of agent state" or "long
 * prompt" values (a few KB) and below typical base64 media payloads
 * (hundreds of KB to several MB).
 */
const LARGE_STRING_THRESHOLD = 64 * 1024;
/**
 * Maximum number of nodes to inspect before giving up and assuming the
 * payload is not worth offloading. Prevents the check itself from becoming
 * expensive on pathologically structural payloads (many thousands of small
 * keys / array elements).
 *
 * When the budget is exhausted without finding a large string we return
 * false (do not offload). This is the conservative choice: such payloads
 * are structural by nature and worker offload empirically regresses them.
 */
const NODE_BUDGET = 2048;
/**
 * Cheap, short-circuiting walk that returns true iff the payload contains
 * at least one string of length >= threshold anywhere in its graph.
 *
 * - Terminates immediately on the first qualifying string.
 * - Caps total nodes visited at `nodeBudget` so cost is bounded for huge
 *   structural payloads.
 * - Avoids allocation in the common path: uses an array as a stack and a
 *   Set only for cycle detection.
 * - Uses `string.length` (UTF-16 units), not UTF-8 byte length, because
 *   that's what V8's string-sharing fast path keys on and because it's
 *   an O(1) property access. For ASCII content this is identical to the
 *   UTF-8 byte count; for non-ASCII text the two differ by at most 4x,
 *   well within the safety margin of the threshold.
 */
function hasLargeString(value, threshold = LARGE_STRING_THRESHOLD, nodeBudget = NODE_BUDGET) {
    if (value === null || typeof value !== "object") {
        return typeof value === "string" && value.length >= threshold;
    }
    const stack = [value];
    const seen = new Set();
    let visited = 0;
    while (stack.length > 0) {
        if (visited++ >= nodeBudget)
            return false;
        const cur = stack.pop();
        if (cur === null || cur === undefined)
            continue;
        const t = typeof cur;
        if (t === "string") {
            if (cur.length >= threshold)
                return true;
            continue;
        }
        if (t !== "object")
            continue;
        const obj = cur;
        if (seen.has(obj))
            continue;
        seen.add(obj);
        // Skip well-known opaque types -- none of their enumerable own
        // properties produce large strings in practice, and ArrayBuffer views
        // would inflate the node budget if iterated element by element.
        if (obj instanceof Date ||
            obj instanceof RegExp ||
            obj instanceof Error ||
            obj instanceof ArrayBuffer ||
            ArrayBuffer.isView(obj)) {
            continue;
        }
        if (Array.isArray(obj)) {
            // Iterate in reverse so the first element is popped first (stable
            // left-to-right discovery order, harmless but nice for predictable
            // short-circuits in tests).
            for (let i = obj.length - 1; i >= 0; i--)
                stack.push(obj[i]);
            continue;
        }
        if (obj instanceof Map) {
            for (const [, v] of obj)
                stack.push(v);
            continue;
        }
        if (obj instanceof Set) {
            for (const v of obj)
                stack.push(v);
            continue;
        }
        // Push keys in reverse so they pop in declared order. Combined with
        // the similar reverse-push for arrays above, this makes discovery
        // order a stable depth-first walk in source order -- which matters
        // for predictable short-circuit behavior under a node budget.
        const keys = Object.keys(obj);
        for (let i = keys.length - 1; i >= 0; i--) {
            stack.push(obj[keys[i]]);
        }
    }
    return false;
}

;// CONCATENATED MODULE: ./node_modules/langsmith/lib/client.mjs

























function assertPullPublicPromptAllowed(promptIdentifier, dangerouslyPullPublicPrompt) {
    const [owner] = parseHubIdentifier(promptIdentifier);
    if (owner !== "-" && !dangerouslyPullPublicPrompt) {
        throw new Error("Pulling a public prompt by owner/name is disabled by default because prompts may contain untrusted serialized LangChain objects. If you trust this prompt, set `dangerouslyPullPublicPrompt: true` to acknowledge the risk.");
    }
}
/**
 * Catches timestamps without a timezone suffix.
 */
function _ensureUTCTimestamp(ts) {
    if (typeof ts === "string" &&
        ts.length > 0 &&
        !ts.includes("Z") &&
        !ts.includes("+") &&
        !ts.includes("-", 10)) {
        return ts + "Z";
    }
    return ts;
}
function _normalizeRunTimestamps(run) {
    return {
        ...run,
        start_time: _ensureUTCTimestamp(run.start_time),
        end_time: _ensureUTCTimestamp(run.end_time),
    };
}
/** Index creates by id (last wins); warns when one id goes to two projects. */
function indexRunCreatesById(creates) {
    const byId = {};
    for (const run of creates) {
        if (!run.id) {
            continue;
        }
        const previous = byId[run.id];
        if (previous !== undefined && previous.session_name !== run.session_name) {
            console.warn(`LangSmith run ${run.id} was queued for two projects with the same id ` +
                `(${JSON.stringify(previous.session_name)} and ` +
                `${JSON.stringify(run.session_name)}); only one of the projects will ` +
                "keep the run. This usually means two write replicas both keep the " +
                "original run ids, for example a replica marked `primary` plus one " +
                "for the run's own project.");
        }
        byId[run.id] = run;
    }
    return byId;
}
function mergeRuntimeEnvIntoRun(run, cachedEnvVars, omitTracedRuntimeInfo, tracingSampleRate) {
    if (omitTracedRuntimeInfo) {
        return run;
    }
    const runtimeEnv = getRuntimeEnvironment();
    const envVars = cachedEnvVars ?? getLangSmithEnvVarsMetadata();
    const extra = run.extra ?? {};
    const metadata = extra.metadata;
    run.extra = {
        ...extra,
        runtime: {
            ...runtimeEnv,
            ...extra?.runtime,
        },
        metadata: {
            ...envVars,
            ...(envVars.revision_id || ("revision_id" in run && run.revision_id)
                ? {
                    revision_id: ("revision_id" in run ? run.revision_id : undefined) ??
                        envVars.revision_id,
                }
                : {}),
            ...metadata,
            ...(tracingSampleRate !== undefined
                ? { ls_tracing_sample_rate: tracingSampleRate }
                : {}),
        },
    };
    return run;
}
const getTracingSamplingRate = (configRate) => {
    const samplingRateStr = configRate?.toString() ??
        env_getLangSmithEnvironmentVariable("TRACING_SAMPLING_RATE");
    if (samplingRateStr === undefined) {
        return undefined;
    }
    const samplingRate = parseFloat(samplingRateStr);
    if (samplingRate < 0 || samplingRate > 1) {
        throw new Error(`LANGSMITH_TRACING_SAMPLING_RATE must be between 0 and 1 if set. Got: ${samplingRate}`);
    }
    return samplingRate;
};
// utility functions
const isLocalhost = (url) => {
    const strippedUrl = url.replace("http://", "").replace("https://", "");
    const hostname = strippedUrl.split("/")[0].split(":")[0];
    return (hostname === "localhost" || hostname === "127.0.0.1" || hostname === "::1");
};
async function toArray(iterable) {
    const result = [];
    for await (const item of iterable) {
        result.push(item);
    }
    return result;
}
function trimQuotes(str) {
    if (str === undefined) {
        return undefined;
    }
    return str
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .replace(/^'(.*)'$/, "$1");
}
const handle429 = async (response) => {
    if (response?.status === 429) {
        const retryAfter = parseInt(response.headers.get("retry-after") ?? "10", 10) * 1000;
        if (retryAfter > 0) {
            await new Promise((resolve) => setTimeout(resolve, retryAfter));
            // Return directly after calling this check
            return true;
        }
    }
    // Fall back to existing status checks
    return false;
};
function _formatFeedbackScore(score) {
    if (typeof score === "number") {
        // Truncate at 4 decimal places
        return Number(score.toFixed(4));
    }
    return score;
}
function _checkBackendVersion(backendVersion, minVersion) {
    if (!backendVersion) {
        // /info was unreachable (or skipped): nothing to compare against.
        return;
    }
    const parse = (v) => v.split(".").map((s) => parseInt(s, 10));
    const [maj, min, pat] = parse(backendVersion);
    const [rMaj, rMin, rPat] = parse(minVersion);
    if (isNaN(maj) ||
        isNaN(min) ||
        isNaN(pat) ||
        isNaN(rMaj) ||
        isNaN(rMin) ||
        isNaN(rPat)) {
        console.warn(`[LANGSMITH]: Could not parse backend version ${JSON.stringify(backendVersion)} for compatibility check.`);
        return;
    }
    if (maj < rMaj ||
        (maj === rMaj && min < rMin) ||
        (maj === rMaj && min === rMin && pat < rPat)) {
        console.warn(`[LANGSMITH]: Backend version ${JSON.stringify(backendVersion)} is older than ` +
            `the minimum version required by this SDK (${JSON.stringify(minVersion)}). ` +
            "Some features may not work as expected. See " +
            "https://docs.langchain.com/langsmith/smithdb-sdk-migration");
    }
}
const DEFAULT_UNCOMPRESSED_BATCH_SIZE_LIMIT_BYTES = 24 * 1024 * 1024;
/** Default maximum memory (1GB) for queue size limits. */
const DEFAULT_MAX_SIZE_BYTES = 1024 * 1024 * 1024; // 1GB
const SERVER_INFO_REQUEST_TIMEOUT_MS = 10000;
/** Maximum number of operations to batch in a single request. */
const DEFAULT_BATCH_SIZE_LIMIT = 100;
// The most example IDs the bulk metadata endpoint accepts in one request.
const BULK_METADATA_MAX_EXAMPLE_IDS = 10000;
/**
 * Whether a bulk metadata response means the server lacks the route. A missing
 * dataset is also a 404, but its problem details say "dataset not found".
 */
async function isBulkMetadataRouteMissing(res) {
    if (res.status === 405) {
        return true;
    }
    if (res.status !== 404) {
        return false;
    }
    const text = await res.clone().text();
    return !text.toLowerCase().includes("dataset not found");
}
/**
 * Reject header names or values that could alter a request's framing.
 *
 * `Headers` does this for us, and does it the same way `fetch` will.
 */
function assertValidHeader(name, value) {
    new Headers({ [name]: value });
}
/** Reject a malformed header up front, before it can reach a request. */
function assertValidHeaders(headers) {
    for (const [name, value] of Object.entries(headers ?? {})) {
        assertValidHeader(name, value);
    }
}
/**
 * Fold a `HeadersInit` into a plain object so it can be spread.
 *
 * Names are matched case-insensitively with the last value winning, keeping the
 * first spelling seen. A plain object would instead keep both spellings, which
 * `Headers` later joins into a `"first, second"` list rather than an override.
 * Every name and value is validated on the way through.
 */
function normalizeHeaders(headers) {
    if (!headers)
        return {};
    const entries = headers instanceof Headers
        ? [...headers.entries()]
        : Array.isArray(headers)
            ? headers.map(([name, value]) => [name, value])
            : Object.entries(headers);
    const normalized = {};
    const nameByLower = new Map();
    for (const [name, value] of entries) {
        assertValidHeader(name, value);
        const lowerName = name.toLowerCase();
        const existingName = nameByLower.get(lowerName);
        if (existingName === undefined) {
            nameByLower.set(lowerName, name);
            normalized[name] = value;
        }
        else {
            normalized[existingName] = value;
        }
    }
    return normalized;
}
/**
 * Merge the caller's two header channels, then drop the `reserved` names.
 *
 * `overrides` wins, matched case-insensitively so a header supplied through both
 * channels is overridden rather than turned into a `"first, second"` list.
 */
function mergeCallerHeaders(base, overrides, reserved) {
    const merged = { ...base };
    const nameByLower = new Map(Object.keys(merged).map((name) => [name.toLowerCase(), name]));
    for (const [name, value] of Object.entries(overrides)) {
        const lowerName = name.toLowerCase();
        merged[nameByLower.get(lowerName) ?? name] = value;
    }
    for (const name of Object.keys(merged)) {
        if (reserved.has(name.toLowerCase())) {
            delete merged[name];
        }
    }
    return merged;
}
class AutoBatchQueue {
    constructor(maxSizeBytes) {
        Object.defineProperty(this, "items", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: []
        });
        Object.defineProperty(this, "sizeBytes", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: 0
        });
        Object.defineProperty(this, "maxSizeBytes", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        this.maxSizeBytes = maxSizeBytes ?? DEFAULT_MAX_SIZE_BYTES;
    }
    peek() {
        return this.items[0];
    }
    push(item) {
        let itemPromiseResolve;
        const itemPromise = new Promise((resolve) => {
            // Setting itemPromiseResolve is synchronous with promise creation:
            // https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Promise/Promise
            itemPromiseResolve = resolve;
        });
        // Use a cheap structural estimate for soft memory accounting (queue size
        // limit and downstream async caller memory tracking). The exact
        // serialization still happens later, off the hot path, when the batch is
        // assembled for sending.
        const size = estimateSerializedSize(item.item).size;
        // Check if adding this item would exceed the size limit
        // Allow the run if nothing is held (to support large single traces).
        // sizeBytes includes runs waiting to be gzipped.
        if (this.sizeBytes + size > this.maxSizeBytes && this.sizeBytes > 0) {
            console.warn(`AutoBatchQueue size limit (${this.maxSizeBytes} bytes) exceeded. Dropping run with id: ${item.item.id}. ` +
                `Current queue size: ${this.sizeBytes} bytes, attempted addition: ${size} bytes.`);
            // Resolve immediately to avoid blocking caller
            itemPromiseResolve();
            return itemPromise;
        }
        this.items.push({
            action: item.action,
            payload: item.item,
            otelContext: item.otelContext,
            apiKey: item.apiKey,
            apiUrl: item.apiUrl,
            workspaceId: item.workspaceId,
            // eslint-disable-next-line @typescript-eslint/no-non-null-assertion
            itemPromiseResolve: itemPromiseResolve,
            itemPromise,
            size,
        });
        this.sizeBytes += size;
        return itemPromise;
    }
    pop({ upToSizeBytes, upToSize, }) {
        if (upToSizeBytes < 1) {
            throw new Error("Number of bytes to pop off may not be less than 1.");
        }
        const popped = [];
        let poppedSizeBytes = 0;
        // Pop items until we reach or exceed the size limit
        while (poppedSizeBytes + (this.peek()?.size ?? 0) < upToSizeBytes &&
            this.items.length > 0 &&
            popped.length < upToSize) {
            const item = this.items.shift();
            if (item) {
                popped.push(item);
                poppedSizeBytes += item.size;
                this.sizeBytes -= item.size;
            }
        }
        // If there is an item on the queue we were unable to pop,
        // just return it as a single batch.
        if (popped.length === 0 && this.items.length > 0) {
            const item = this.items.shift();
            popped.push(item);
            poppedSizeBytes += item.size;
            this.sizeBytes -= item.size;
        }
        return [
            popped.map((it) => ({
                action: it.action,
                item: it.payload,
                otelContext: it.otelContext,
                apiKey: it.apiKey,
                apiUrl: it.apiUrl,
                workspaceId: it.workspaceId,
                size: it.size,
            })),
            () => popped.forEach((it) => it.itemPromiseResolve()),
        ];
    }
}
class Client {
    get tracingMode() {
        return this._tracingMode;
    }
    // Workspace ids are per instance: a replica with its own key on another host
    // drops the inherited one.
    _applyReplicaWorkspace(headers, options) {
        if (options?.workspaceId !== undefined) {
            headers["x-tenant-id"] = options.workspaceId;
        }
        else if (options?.apiUrl !== undefined &&
            options.apiKey !== undefined &&
            options.apiKey !== this.apiKey &&
            new URL(options.apiUrl).host !== new URL(this.apiUrl).host) {
            delete headers["x-tenant-id"];
        }
    }
    get _fetch() {
        const fetchImplementation = this.fetchImplementation || _getFetchImplementation(this.debug);
        return (async (input, init) => {
            let authHeader;
            const profileManagedAuthorization = this.getProfileManagedAuthorizationHeader(init);
            if (this.apiKey !== undefined) {
                authHeader = { name: "x-api-key", value: `${this.apiKey}` };
            }
            else if (!this.hasExplicitAuthHeader(init, profileManagedAuthorization)) {
                authHeader = await this.profileAuth?.getAuthHeader(fetchImplementation, init?.signal);
            }
            return fetchImplementation(input, this.applyCurrentAuthHeaders(init, authHeader, profileManagedAuthorization));
        });
    }
    getProfileManagedAuthorizationHeader(init) {
        if (!init?.headers || !this.profileAuth) {
            return undefined;
        }
        const authorization = new Headers(init.headers).get("Authorization");
        if (!hasValue(authorization)) {
            return undefined;
        }
        return this.profileAuth.isProfileAuthorizationHeader(authorization ?? "")
            ? authorization ?? undefined
            : undefined;
    }
    isProfileManagedAuthorizationHeader(value, profileManagedAuthorization) {
        return (value === profileManagedAuthorization ||
            this.profileAuth?.isProfileAuthorizationHeader(value) === true);
    }
    hasExplicitAuthHeader(init, profileManagedAuthorization) {
        if (!init?.headers) {
            return false;
        }
        const headers = new Headers(init.headers);
        if (hasValue(headers.get("x-api-key"))) {
            return true;
        }
        const authorization = headers.get("Authorization");
        if (!hasValue(authorization)) {
            return false;
        }
        return !this.isProfileManagedAuthorizationHeader(authorization ?? "", profileManagedAuthorization);
    }
    applyCurrentAuthHeaders(init, authHeader, profileManagedAuthorization) {
        if (!authHeader) {
            return init;
        }
        const applyAuth = (headers) => {
            if (this.apiKey !== undefined && authHeader.name === "x-api-key") {
                headers.delete("Authorization");
                if (!headers.has("x-api-key")) {
                    headers.set("x-api-key", authHeader.value);
                }
                return headers;
            }
            if (authHeader.name === "Authorization") {
                if (hasValue(headers.get("x-api-key"))) {
                    return headers;
                }
                const authorization = headers.get("Authorization");
                if (hasValue(authorization) &&
                    !this.isProfileManagedAuthorizationHeader(authorization ?? "", profileManagedAuthorization)) {
                    return headers;
                }
                headers.set("Authorization", authHeader.value);
                return headers;
            }
            const authorization = headers.get("Authorization");
            if (hasValue(authorization) &&
                !this.isProfileManagedAuthorizationHeader(authorization ?? "", profileManagedAuthorization)) {
                return headers;
            }
            if (hasValue(authorization)) {
                headers.delete("Authorization");
            }
            if (!headers.has("x-api-key")) {
                headers.set("x-api-key", authHeader.value);
            }
            return headers;
        };
        if (!init) {
            return {
                headers: { [authHeader.name]: authHeader.value },
            };
        }
        if (init.headers instanceof Headers) {
            return { ...init, headers: applyAuth(new Headers(init.headers)) };
        }
        if (Array.isArray(init.headers)) {
            return { ...init, headers: applyAuth(new Headers(init.headers)) };
        }
        const headers = {
            ...(init.headers ?? {}),
        };
        const getHeaderKey = (name) => Object.keys(headers).find((key) => key.toLowerCase() === name);
        const getHeader = (name) => {
            const key = getHeaderKey(name);
            return key ? headers[key] : undefined;
        };
        const hasApiKey = hasValue(getHeader("x-api-key"));
        const authorization = getHeader("authorization");
        const hasExplicitAuthorization = hasValue(authorization) &&
            !this.isProfileManagedAuthorizationHeader(authorization ?? "", profileManagedAuthorization);
        if (this.apiKey !== undefined && authHeader.name === "x-api-key") {
            const authorizationKey = getHeaderKey("authorization");
            if (authorizationKey) {
                delete headers[authorizationKey];
            }
            if (!hasApiKey) {
                headers["x-api-key"] = authHeader.value;
            }
            return { ...init, headers };
        }
        if (authHeader.name === "Authorization") {
            if (!hasApiKey && !hasExplicitAuthorization) {
                const authorizationKey = getHeaderKey("authorization");
                if (authorizationKey && authorizationKey !== "Authorization") {
                    delete headers[authorizationKey];
                }
                headers.Authorization = authHeader.value;
            }
            return { ...init, headers };
        }
        if (!hasExplicitAuthorization) {
            const authorizationKey = getHeaderKey("authorization");
            if (authorizationKey) {
                delete headers[authorizationKey];
            }
            if (!hasApiKey) {
                headers["x-api-key"] = authHeader.value;
            }
        }
        return { ...init, headers };
    }
    /**
     * Serialize a payload for tracing, optionally offloading the work to a
     * Node worker thread when the runtime supports worker_threads.
     *
     * Falls back to synchronous serialization when:
     *  - manualFlushMode is enabled (serverless: worker boot cost > benefit)
     *  - worker_threads is unavailable (non-Node runtimes)
     *  - the payload contains values that can't be structured-cloned across
     *    threads (functions, non-cloneable class instances, streams, etc.)
     *  - the worker throws for any other reason
     *
     * In all fallback cases the returned bytes are identical to the sync path.
     */
    _trackDrain(promise) {
        this._pendingDrains.add(promise);
        promise.finally(() => {
            this._pendingDrains.delete(promise);
        });
    }
    async _serializeBody(payload, errorContext) {
        if (this.manualFlushMode) {
            return serialize(payload, errorContext);
        }
        // Shape-aware gate: worker offload pays for itself only when the
        // payload is dominated by one or more large strings (V8 can refcount
        // those across isolates instead of copying). For structure-heavy
        // payloads -- many keys, deep nesting, lots of small strings -- the
        // structuredClone walk plus thread-hop cost exceeds the JSON.stringify
        // cost we would pay inline, so we fall through to sync serialize.
        if (!hasLargeString(payload)) {
            return serialize(payload, errorContext);
        }
        if (this._serializeWorker === undefined) {
            this._serializeWorker = getSharedSerializeWorker();
        }
        if (this._serializeWorker === null) {
            return serialize(payload, errorContext);
        }
        try {
            const bytes = await this._serializeWorker.serialize(payload);
            if (bytes === null) {
                // Worker subsystem unavailable; cache the null to skip re-entry.
                this._serializeWorker = null;
                return serialize(payload, errorContext);
            }
            return bytes;
        }
        catch {
            // DataCloneError, worker crash, etc. Fall back silently.
            return serialize(payload, errorContext);
        }
    }
    constructor(config = {}) {
        Object.defineProperty(this, "apiKey", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "apiUrl", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "webUrl", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "workspaceId", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "caller", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "batchIngestCaller", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "timeout_ms", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "_tenantId", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: null
        });
        Object.defineProperty(this, "hideInputs", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "hideOutputs", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "hideMetadata", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "anonymizer", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "omitTracedRuntimeInfo", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "tracingSampleRate", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "autoBatchTracing", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: true
        });
        Object.defineProperty(this, "autoBatchQueue", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "autoBatchTimeout", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "autoBatchAggregationDelayMs", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: 250
        });
        Object.defineProperty(this, "batchSizeBytesLimit", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "batchSizeLimit", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        /** `config.fetchOptions` without its `headers`, which are merged separately. */
        Object.defineProperty(this, "fetchOptions", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "_fetchOptionsHeaders", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: {}
        });
        Object.defineProperty(this, "_openAPIClient", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "_openAPIClientSignature", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "settings", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "blockOnRootRunFinalization", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: env_getEnvironmentVariable("LANGSMITH_TRACING_BACKGROUND") === "false"
        });
        Object.defineProperty(this, "traceBatchConcurrency", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: 5
        });
        Object.defineProperty(this, "_serverInfo", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        Object.defineProperty(this, "_getServerInfoPromise", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "_stainlessVersionsChecked", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Set()
        });
        Object.defineProperty(this, "manualFlushMode", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: false
        });
        Object.defineProperty(this, "_serializeWorker", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        /**
         * Tracks in-flight drainAutoBatchQueue promises so awaitPendingTraceBatches
         * can wait on them even if the flush involves async work (worker-thread
         * serialize) that hasn't yet registered with batchIngestCaller.queue.
         */
        Object.defineProperty(this, "_pendingDrains", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Set()
        });
        /**
         * Open gzip buffers, one per destination, that queued run operations are
         * written into when the server accepts gzip (see CompressedRunBuffer).
         */
        Object.defineProperty(this, "_compressedBuffers", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: new Map()
        });
        // One chain, so a run's post is written before its patch.
        Object.defineProperty(this, "_compressedWriteChain", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: Promise.resolve()
        });
        Object.defineProperty(this, "_compressedFlushTimeout", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "_maxIngestMemoryBytes", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: DEFAULT_MAX_SIZE_BYTES
        });
        Object.defineProperty(this, "langSmithToOTELTranslator", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "_tracingMode", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: "langsmith"
        });
        Object.defineProperty(this, "fetchImplementation", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "cachedLSEnvVarsForMetadata", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "_promptCache", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "profileAuth", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "multipartStreamingDisabled", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: env_getLangSmithEnvironmentVariable("DISABLE_MULTIPART_STREAMING") === "true"
        });
        Object.defineProperty(this, "_multipartDisabled", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: false
        });
        Object.defineProperty(this, "_runCompressionDisabled", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: env_getLangSmithEnvironmentVariable("DISABLE_RUN_COMPRESSION") === "true"
        });
        Object.defineProperty(this, "failedTracesDir", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, "failedTracesMaxBytes", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: 100 * 1024 * 1024
        });
        Object.defineProperty(this, "_customHeaders", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: {}
        });
        Object.defineProperty(this, "debug", {
            enumerable: true,
            configurable: true,
            writable: true,
            value: env_getEnvironmentVariable("LANGSMITH_DEBUG") === "true"
        });
        const defaultConfig = Client.getDefaultClientConfig({
            profile: config.profile,
            apiKey: config.apiKey,
            profileConfigPath: config.profileConfigPath,
            preferProfileAuth: config.preferProfileAuth,
        });
        this.tracingSampleRate = getTracingSamplingRate(config.tracingSamplingRate);
        this.apiUrl = trimQuotes(config.apiUrl ?? defaultConfig.apiUrl) ?? "";
        if (this.apiUrl.endsWith("/")) {
            this.apiUrl = this.apiUrl.slice(0, -1);
        }
        const configuredApiKey = trimQuotes(config.apiKey ?? defaultConfig.apiKey);
        this.apiKey = hasValue(configuredApiKey) ? configuredApiKey : undefined;
        this.profileAuth =
            this.apiKey !== undefined ? undefined : defaultConfig.profileAuth;
        this.webUrl = trimQuotes(config.webUrl ?? defaultConfig.webUrl);
        if (this.webUrl?.endsWith("/")) {
            this.webUrl = this.webUrl.slice(0, -1);
        }
        this.workspaceId = trimQuotes(config.workspaceId ?? defaultConfig.workspaceId);
        this.timeout_ms = config.timeout_ms ?? 90000;
        this.caller = new AsyncCaller({
            ...(config.callerOptions ?? {}),
            maxRetries: 4,
            debug: config.debug ?? this.debug,
        });
        this.traceBatchConcurrency =
            config.traceBatchConcurrency ?? this.traceBatchConcurrency;
        if (this.traceBatchConcurrency < 1) {
            throw new Error("Trace batch concurrency must be positive.");
        }
        this.debug = config.debug ?? this.debug;
        if (this.debug) {
            const source = config.apiUrl != null ? "apiUrl option" : defaultConfig.apiUrlSource;
            console.log(`LangSmith API URL ${this.apiUrl} resolved from ${source}`);
        }
        this.fetchImplementation = config.fetchImplementation;
        // Failed trace dump configuration
        this.failedTracesDir =
            env_getLangSmithEnvironmentVariable("FAILED_TRACES_DIR") || undefined;
        const failedTracesMb = env_getLangSmithEnvironmentVariable("FAILED_TRACES_MAX_MB");
        if (failedTracesMb) {
            const n = parseInt(failedTracesMb, 10);
            if (Number.isFinite(n) && n > 0) {
                this.failedTracesMaxBytes = n * 1024 * 1024;
            }
        }
        // Use maxIngestMemoryBytes for both queues
        const maxMemory = config.maxIngestMemoryBytes ?? DEFAULT_MAX_SIZE_BYTES;
        this._maxIngestMemoryBytes = maxMemory;
        this.batchIngestCaller = new AsyncCaller({
            maxRetries: 4,
            maxConcurrency: this.traceBatchConcurrency,
            maxQueueSizeBytes: maxMemory,
            ...(config.callerOptions ?? {}),
            onFailedResponseHook: handle429,
            debug: config.debug ?? this.debug,
        });
        this.hideInputs =
            config.hideInputs ?? config.anonymizer ?? defaultConfig.hideInputs;
        this.hideOutputs =
            config.hideOutputs ?? config.anonymizer ?? defaultConfig.hideOutputs;
        this.hideMetadata =
            config.hideMetadata ?? config.anonymizer ?? defaultConfig.hideMetadata;
        this.anonymizer = config.anonymizer;
        this.omitTracedRuntimeInfo = config.omitTracedRuntimeInfo ?? false;
        this.autoBatchTracing = config.autoBatchTracing ?? this.autoBatchTracing;
        this.autoBatchQueue = new AutoBatchQueue(maxMemory);
        this.blockOnRootRunFinalization =
            config.blockOnRootRunFinalization ?? this.blockOnRootRunFinalization;
        this.batchSizeBytesLimit = config.batchSizeBytesLimit;
        this.batchSizeLimit = config.batchSizeLimit;
        const { headers: fetchOptionsHeaders, ...fetchOptions } = config.fetchOptions || {};
        this.fetchOptions = fetchOptions;
        // Kept apart from `fetchOptions` so they can be merged *under* the required
        // headers instead of replacing the whole set at each call site.
        this._fetchOptionsHeaders = normalizeHeaders(fetchOptionsHeaders);
        // Validated eagerly so malformed input fails at construction, but stored
        // as given: `get headers` hands this object back to the caller.
        assertValidHeaders(config.headers);
        this._customHeaders = config.headers ?? {};
        this.manualFlushMode = config.manualFlushMode ?? this.manualFlushMode;
        this._tracingMode = resolveTracingMode(config.tracingMode);
        if (this._tracingMode === "otel") {
            this.langSmithToOTELTranslator = new LangSmithToOTELTranslator();
        }
        // Cache metadata env vars once during construction to avoid repeatedly scanning process.env
        this.cachedLSEnvVarsForMetadata = getLangSmithEnvVarsMetadata();
        warnOnEnv();
        // Initialize prompt cache
        // Handle backwards compatibility for deprecated `cache` parameter
        if (config.cache !== undefined && config.disablePromptCache) {
            warn_warnOnce("Both 'cache' and 'disablePromptCache' were provided. " +
                "The 'cache' parameter is deprecated and will be removed in a future version. " +
                "Using 'cache' parameter value.");
        }
        if (config.cache !== undefined) {
            warn_warnOnce("The 'cache' parameter is deprecated and will be removed in a future version. " +
                "Use 'configureGlobalPromptCache()' to configure the global cache, or " +
                "'disablePromptCache: true' to disable caching for this client.");
            // Handle old cache parameter
            if (config.cache === false) {
                this._promptCache = undefined;
            }
            else if (config.cache === true) {
                this._promptCache = promptCacheSingleton;
            }
            else {
                // Custom PromptCache instance provided
                this._promptCache = config.cache;
            }
        }
        else if (!config.disablePromptCache) {
            // Use the global singleton instance
            this._promptCache = promptCacheSingleton;
        }
    }
    static getDefaultClientConfig(options = {}) {
        const profileConfig = loadProfileClientConfig({
            profile: options.profile,
            configPath: options.profileConfigPath,
        });
        const useProfile = options.preferProfileAuth === true &&
            !hasValue(trimQuotes(options.apiKey)) &&
            profileConfig.profileAuth !== undefined;
        const envApiKey = useProfile
            ? undefined
            : env_getLangSmithEnvironmentVariable("API_KEY");
        const envApiUrl = useProfile
            ? undefined
            : env_getLangSmithEnvironmentVariable("ENDPOINT");
        const envWorkspaceId = useProfile && profileConfig.workspaceId != null
            ? undefined
            : env_getLangSmithEnvironmentVariable("WORKSPACE_ID");
        const envAuthSet = hasValue(envApiKey);
        const apiUrl = envApiUrl ?? profileConfig.apiUrl ?? DEFAULT_API_URL;
        const apiUrlSource = envApiUrl != null
            ? "LANGSMITH_ENDPOINT / LANGCHAIN_ENDPOINT environment variable"
            : profileConfig.apiUrl != null
                ? "profile config"
                : "built-in default";
        const workspaceId = envWorkspaceId ?? profileConfig.workspaceId;
        const hideInputs = env_getLangSmithEnvironmentVariable("HIDE_INPUTS") === "true";
        const hideOutputs = env_getLangSmithEnvironmentVariable("HIDE_OUTPUTS") === "true";
        const hideMetadata = env_getLangSmithEnvironmentVariable("HIDE_METADATA") === "true";
        return {
            apiUrl: apiUrl,
            apiUrlSource,
            apiKey: envApiKey,
            webUrl: undefined,
            hideInputs: hideInputs,
            hideOutputs: hideOutputs,
            hideMetadata: hideMetadata,
            workspaceId: workspaceId,
            oauthAccessToken: !envAuthSet
                ? profileConfig.oauthAccessToken
                : undefined,
            oauthRefreshToken: !envAuthSet
                ? profileConfig.oauthRefreshToken
                : undefined,
            profileAuth: !envAuthSet ? profileConfig.profileAuth : undefined,
        };
    }
    getHostUrl() {
        if (this.webUrl) {
            return this.webUrl;
        }
        else if (isLocalhost(this.apiUrl)) {
            this.webUrl = "http://localhost:3000";
            return this.webUrl;
        }
        else if (this.apiUrl.endsWith("/api/v1")) {
            this.webUrl = this.apiUrl.replace("/api/v1", "");
            return this.webUrl;
        }
        else if (this.apiUrl.includes("/api") &&
            !this.apiUrl.split(".", 1)[0].endsWith("api")) {
            this.webUrl = this.apiUrl.replace("/api", "");
            return this.webUrl;
        }
        else if (this.apiUrl.split(".", 1)[0].includes("dev")) {
            this.webUrl = "https://dev.smith.langchain.com";
            return this.webUrl;
        }
        else if (this.apiUrl.split(".", 1)[0].includes("eu")) {
            this.webUrl = "https://eu.smith.langchain.com";
            return this.webUrl;
        }
        else if (this.apiUrl.split(".", 1)[0].includes("aws")) {
            this.webUrl = "https://aws.smith.langchain.com";
            return this.webUrl;
        }
        else if (this.apiUrl.split(".", 1)[0].includes("apac")) {
            this.webUrl = "https://apac.smith.langchain.com";
            return this.webUrl;
        }
        else if (this.apiUrl.split(".", 1)[0].includes("beta")) {
            this.webUrl = "https://beta.smith.langchain.com";
            return this.webUrl;
        }
        else {
            this.webUrl = "https://smith.langchain.com";
            return this.webUrl;
        }
    }
    /**
     * The headers this client sets from its own config, which a caller-supplied
     * header must not replace.
     *
     * Only what the client *actually* supplies: passing an explicit `Authorization`
     * or `x-api-key` header with no configured credential is a supported way to
     * authenticate (see `hasExplicitAuthHeader`), so those must survive.
     */
    get _sdkControlledHeaders() {
        const names = new Set();
        if (this.apiKey !== undefined) {
            names.add("x-api-key");
        }
        else {
            const profileAuthHeader = this.profileAuth?.currentAuthHeader();
            if (profileAuthHeader) {
                names.add(profileAuthHeader.name.toLowerCase());
            }
        }
        if (this.workspaceId) {
            names.add("x-tenant-id");
        }
        return names;
    }
    /**
     * Headers supplied by the caller, through either `config.headers` or
     * `config.fetchOptions.headers`, with the ones this SDK sets removed.
     *
     * `_customHeaders` is normalized here rather than at assignment because it is
     * public and mutable: `get headers` hands back the caller's own object, so its
     * contents can change (and can become malformed) at any point.
     */
    get _callerHeaders() {
        return mergeCallerHeaders(normalizeHeaders(this._customHeaders), this._fetchOptionsHeaders, this._sdkControlledHeaders);
    }
    get _mergedHeaders() {
        // Start with caller-supplied headers so they don't override required headers
        const headers = {
            "User-Agent": `langsmith-js/${VERSION}`,
            ...this._callerHeaders,
        };
        // Required headers that should not be overridden
        if (this.apiKey !== undefined) {
            headers["x-api-key"] = `${this.apiKey}`;
        }
        else {
            const profileAuthHeader = this.profileAuth?.currentAuthHeader();
            if (profileAuthHeader) {
                headers[profileAuthHeader.name] = profileAuthHeader.value;
            }
        }
        if (this.workspaceId) {
            headers["x-tenant-id"] = this.workspaceId;
        }
        return headers;
    }
    /**
     * The options to build the generated client with: its auth, and the headers
     * it should send on every request.
     *
     * The generated client applies `defaultHeaders` *after* its own auth headers,
     * so the ones this SDK sets are already dropped from `_callerHeaders` to keep
     * the precedence of `_mergedHeaders`, where required headers win.
     */
    get _openAPIClientOptions() {
        const headers = { ...this._callerHeaders };
        // Without this the generated client falls back to its own
        // `Langsmith/JS <generated version>`, so the same client would identify
        // itself two different ways depending on which path a call takes. A
        // caller-supplied one still wins, matched case-insensitively so the header
        // is not sent twice.
        if (!Object.keys(headers).some((name) => name.toLowerCase() === "user-agent")) {
            headers["User-Agent"] = `langsmith-js/${VERSION}`;
        }
        // A caller may authenticate by supplying `x-api-key` themselves. The
        // generated client rejects that as a header (its `validateHeaders` requires
        // its own `apiKey` to be set), so hand it over as the `apiKey` option and
        // drop the header to avoid sending the same value twice.
        const callerApiKeyName = Object.keys(headers).find((name) => name.toLowerCase() === "x-api-key");
        let apiKey = this.apiKey;
        if (apiKey === undefined && callerApiKeyName !== undefined) {
            apiKey = headers[callerApiKeyName] ?? undefined;
            delete headers[callerApiKeyName];
        }
        if (apiKey === undefined && this.workspaceId === undefined) {
            // Let the wrapped `fetch` supply auth (profile auth, an explicit
            // `Authorization` header, or none at all).
            headers["X-API-Key"] = null;
        }
        return {
            apiKey,
            defaultHeaders: Object.keys(headers).length > 0 ? headers : undefined,
        };
    }
    /**
     * Get or set custom headers for the client.
     * Custom headers are merged with default headers (User-Agent, x-api-key, x-tenant-id).
     * Custom headers will not override the default required headers.
     */
    get headers() {
        return this._customHeaders;
    }
    set headers(value) {
        assertValidHeaders(value);
        this._customHeaders = value ?? {};
    }
    _getOpenAPIBaseUrl() {
        return getOpenAPIBaseUrl(this.apiUrl);
    }
    /**
     * The generated OpenAPI client, rebuilt whenever its auth or headers change.
     *
     * The generated client captures `defaultHeaders` and `apiKey` when it is
     * built, while the handwritten paths recompute `_mergedHeaders` per request.
     * Rebuilding on change keeps the two halves from diverging when the inputs
     * move underneath us — a caller mutating the object returned by
     * `get headers`, or a profile whose auth header only becomes available after
     * its token is refreshed.
     */
    get openAPIClient() {
        const options = this._openAPIClientOptions;
        const signature = JSON.stringify([options.apiKey, options.defaultHeaders]);
        if (this._openAPIClient === undefined ||
            this._openAPIClientSignature !== signature) {
            this._openAPIClientSignature = signature;
            this._openAPIClient = this._newOpenAPIClient(options);
        }
        return this._openAPIClient;
    }
    _newOpenAPIClient(options = this._openAPIClientOptions) {
        const { method: _method, body: _body, signal: _signal, ...openAPIFetchOptions } = this.fetchOptions;
        return new Langsmith({
            apiKey: options.apiKey,
            tenantID: this.workspaceId,
            baseURL: this._getOpenAPIBaseUrl(),
            timeout: this.timeout_ms,
            fetch: this._fetch,
            fetchOptions: openAPIFetchOptions,
            defaultHeaders: options.defaultHeaders,
        });
    }
    _getPlatformEndpointPath(path) {
        // Check if apiUrl already ends with /v1 or /v1/ to avoid double /v1/v1/ paths
        const needsV1Prefix = this.apiUrl.slice(-3) !== "/v1" && this.apiUrl.slice(-4) !== "/v1/";
        return needsV1Prefix ? `/v1/platform/${path}` : `/platform/${path}`;
    }
    get evaluators() {
        this._checkStainlessVersion("0.16.0");
        return this.openAPIClient.onlineEvaluators;
    }
    get runs() {
        this._checkStainlessVersion("0.16.0");
        return this.openAPIClient.runs;
    }
    /** Access the v2 sandboxes resource (registries, snapshots, boxes). */
    get sandboxes() {
        this._checkStainlessVersion("0.16.0");
        return this.openAPIClient.sandboxes;
    }
    /** Access the v2 datasets resource (experimentRuns, etc.). */
    get datasets() {
        this._checkStainlessVersion("0.16.0");
        return this.openAPIClient.datasets;
    }
    /** Access the annotation queues resource (runs, items). */
    get annotationQueues() {
        // The items endpoints landed in backend 0.16.14; the rest are older.
        this._checkStainlessVersion("0.16.14");
        return this.openAPIClient.annotationQueues;
    }
    /** Access the threads resource (query, stats, listTraces). */
    get threads() {
        this._checkStainlessVersion("0.16.0");
        return this.openAPIClient.threads;
    }
    /** Access the traces resource (query, listRuns). */
    get traces() {
        this._checkStainlessVersion("0.16.0");
        return this.openAPIClient.traces;
    }
    /**
     * Access the sessions resource, which resolves an address to the
     * project its traces go to: `client.sessions.resolve(address)`.
     */
    get sessions() {
        this._checkStainlessVersion("0.18.0");
        return this.openAPIClient.sessions;
    }
    /** Manage workspace registry agents and their tracing destinations. */
    get agents() {
        return this.openAPIClient.agents;
    }
    /** Access the public shared-run resource. */
    get public() {
        this._checkStainlessVersion("0.16.0");
        return this.openAPIClient.public;
    }
    async processInputs(inputs) {
        if (this.hideInputs === false) {
            return inputs;
        }
        if (this.hideInputs === true) {
            return {};
        }
        if (typeof this.hideInputs === "function") {
            return this.hideInputs(inputs);
        }
        return inputs;
    }
    async processOutputs(outputs) {
        if (this.hideOutputs === false) {
            return outputs;
        }
        if (this.hideOutputs === true) {
            return {};
        }
        if (typeof this.hideOutputs === "function") {
            return this.hideOutputs(outputs);
        }
        return outputs;
    }
    async processMetadata(metadata) {
        if (this.hideMetadata === false) {
            return metadata;
        }
        if (this.hideMetadata === true) {
            return {};
        }
        if (typeof this.hideMetadata === "function") {
            return this.hideMetadata(metadata);
        }
        return metadata;
    }
    /**
     * Apply the configured anonymizer to a run's error string.
     *
     * Unlike inputs/outputs, `error` is a plain string (an exception message or
     * traceback) that can carry credentials the user never explicitly logged --
     * e.g. an HTTP-client error whose message embeds an `Authorization` header.
     * The anonymizer is typed `(KVMap) => KVMap`, so the string is wrapped as
     * `{ error }`, scrubbed, and unwrapped. Mirrors the Python SDK's
     * `Client._hide_run_error`.
     *
     * TODO: Update anonymizer to always nest inputs/outputs/error for consistency
     */
    async processError(error) {
        if (this.anonymizer == null) {
            return error;
        }
        const result = await this.anonymizer({ error });
        return typeof result?.error === "string" ? result.error : error;
    }
    /**
     * Filter content from new_token events to prevent streaming LLM output
     * from being uploaded via events.
     */
    _filterNewTokenEvents(events) {
        if (!events || events.length === 0) {
            return events;
        }
        return events.map((event) => {
            if (event.name === "new_token") {
                // Remove the kwargs containing the token data
                // eslint-disable-next-line @typescript-eslint/no-unused-vars
                const { kwargs: _, ...rest } = event;
                return rest;
            }
            return event;
        });
    }
    async prepareRunCreateOrUpdateInputs(run, options) {
        const runParams = { ...run };
        applyToPayload(runParams, { update: options?.update ?? false });
        if (runParams.inputs !== undefined) {
            runParams.inputs = await this.processInputs(runParams.inputs);
        }
        if (runParams.outputs !== undefined) {
            runParams.outputs = await this.processOutputs(runParams.outputs);
        }
        if (runParams.error !== undefined) {
            runParams.error = await this.processError(runParams.error);
        }
        if (runParams.extra != null && "metadata" in runParams.extra) {
            runParams.extra = {
                ...runParams.extra,
                metadata: await this.processMetadata(runParams.extra.metadata),
            };
        }
        if (runParams.events !== undefined) {
            runParams.events = this._filterNewTokenEvents(runParams.events);
        }
        return runParams;
    }
    async _getResponse(path, queryParams) {
        const paramsString = queryParams?.toString() ?? "";
        const url = `${this.apiUrl}${path}?${paramsString}`;
        const response = await this.caller.call(async () => {
            const res = await this._fetch(url, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, `fetch ${path}`);
            return res;
        });
        return response;
    }
    async _get(path, queryParams) {
        const response = await this._getResponse(path, queryParams);
        return response.json();
    }
    async *_getPaginated(path, queryParams = new URLSearchParams(), transform) {
        let offset = Number(queryParams.get("offset")) || 0;
        const limit = Number(queryParams.get("limit")) || 100;
        while (true) {
            queryParams.set("offset", String(offset));
            queryParams.set("limit", String(limit));
            const url = `${this.apiUrl}${path}?${queryParams}`;
            const response = await this.caller.call(async () => {
                const res = await this._fetch(url, {
                    method: "GET",
                    headers: this._mergedHeaders,
                    signal: AbortSignal.timeout(this.timeout_ms),
                    ...this.fetchOptions,
                });
                await raiseForStatus(res, `fetch ${path}`);
                return res;
            });
            const items = transform
                ? transform(await response.json())
                : await response.json();
            if (items.length === 0) {
                break;
            }
            yield items;
            if (items.length < limit) {
                break;
            }
            offset += items.length;
        }
    }
    async *_getCursorPaginatedList(path, body = null, requestMethod = "POST", dataKey = "runs") {
        const bodyParams = body ? { ...body } : {};
        while (true) {
            const body = JSON.stringify(bodyParams);
            const response = await this.caller.call(async () => {
                const res = await this._fetch(`${this.apiUrl}${path}`, {
                    method: requestMethod,
                    headers: {
                        ...this._mergedHeaders,
                        "Content-Type": "application/json",
                    },
                    signal: AbortSignal.timeout(this.timeout_ms),
                    ...this.fetchOptions,
                    body,
                });
                await raiseForStatus(res, `fetch ${path}`);
                return res;
            });
            const responseBody = await response.json();
            if (!responseBody) {
                break;
            }
            if (!responseBody[dataKey]) {
                break;
            }
            yield responseBody[dataKey];
            const cursors = responseBody.cursors;
            if (!cursors) {
                break;
            }
            if (!cursors.next) {
                break;
            }
            bodyParams.cursor = cursors.next;
        }
    }
    // Allows mocking for tests
    _shouldSample(identifier) {
        return isSampledById(identifier, this.tracingSampleRate);
    }
    _filterForSampling(runs) {
        // updateRun() may omit trace_id; dotted order's first segment is the root.
        return runs.filter((run) => this._shouldSample(run.trace_id ??
            run.dotted_order?.split(".", 1)[0].split("Z")[1] ??
            run.id));
    }
    async _getBatchSizeLimitBytes() {
        const serverInfo = await this._ensureServerInfo();
        return (this.batchSizeBytesLimit ??
            serverInfo?.batch_ingest_config?.size_limit_bytes ??
            DEFAULT_UNCOMPRESSED_BATCH_SIZE_LIMIT_BYTES);
    }
    /**
     * Get the maximum number of operations to batch in a single request.
     */
    async _getBatchSizeLimit() {
        const serverInfo = await this._ensureServerInfo();
        return (this.batchSizeLimit ??
            serverInfo?.batch_ingest_config?.size_limit ??
            DEFAULT_BATCH_SIZE_LIMIT);
    }
    async _getDatasetExamplesMultiPartSupport() {
        const serverInfo = await this._ensureServerInfo();
        return (serverInfo.instance_flags?.dataset_examples_multipart_enabled ?? false);
    }
    drainAutoBatchQueue({ batchSizeLimitBytes, batchSizeLimit, }) {
        const promises = [];
        while (this.autoBatchQueue.items.length > 0) {
            const [batch, done] = this.autoBatchQueue.pop({
                upToSizeBytes: batchSizeLimitBytes,
                upToSize: batchSizeLimit,
            });
            if (!batch.length) {
                done();
                break;
            }
            const batchesByDestination = batch.reduce((acc, item) => {
                const apiUrl = item.apiUrl ?? this.apiUrl;
                const apiKey = item.apiKey ?? this.apiKey;
                // Not `?? this.workspaceId`: _applyReplicaWorkspace decides for the base one.
                const workspaceId = item.workspaceId;
                const isDefault = item.apiKey === this.apiKey &&
                    item.apiUrl === this.apiUrl &&
                    item.workspaceId === this.workspaceId;
                const batchKey = isDefault
                    ? "default"
                    : `${apiUrl}|${apiKey}|${workspaceId ?? ""}`;
                if (!acc[batchKey]) {
                    acc[batchKey] = [];
                }
                acc[batchKey].push(item);
                return acc;
            }, {});
            const batchPromises = [];
            for (const [batchKey, batch] of Object.entries(batchesByDestination)) {
                const isDefault = batchKey === "default";
                const parts = isDefault ? [] : batchKey.split("|");
                const workspaceIdPart = parts[2];
                const batchPromise = this._processBatch(batch, {
                    apiUrl: isDefault ? undefined : parts[0],
                    apiKey: isDefault ? undefined : parts[1],
                    workspaceId: isDefault || !workspaceIdPart ? undefined : workspaceIdPart,
                });
                batchPromises.push(batchPromise);
            }
            // Wait for all batches to complete, then call the overall done callback
            const allBatchesPromise = Promise.all(batchPromises).finally(done);
            promises.push(allBatchesPromise);
        }
        return Promise.all(promises);
    }
    /**
     * Persist a failed trace payload to a local fallback directory.
     *
     * Saves a self-contained JSON file containing the endpoint path, the HTTP
     * headers required for replay, and the base64-encoded request body.
     * Can be replayed later with a simple POST:
     *
     *   POST /<endpoint>
     *   Content-Type: <value from saved headers>
     *   [Content-Encoding: <value from saved headers>]
     *   <decoded body>
     */
    static async _writeTraceToFallbackDir(directory, body, replayHeaders, endpoint, maxBytes) {
        try {
            const bodyBuffer = typeof body === "string"
                ? Buffer.from(body, "utf8")
                : Buffer.from(body);
            const envelope = JSON.stringify({
                version: 1,
                endpoint,
                headers: replayHeaders,
                body_base64: bodyBuffer.toString("base64"),
            });
            const filename = `trace_${Date.now()}_${src_v4().slice(0, 8)}.json`;
            const filepath = path.join(directory, filename);
            if (!Client._fallbackDirsCreated.has(directory)) {
                await mkdir(directory);
                Client._fallbackDirsCreated.add(directory);
            }
            // Check budget before writing — drop new traces if over limit.
            if (maxBytes !== undefined && maxBytes > 0) {
                try {
                    const entries = await readdir(directory);
                    const traceFiles = entries.filter((f) => f.startsWith("trace_") && f.endsWith(".json"));
                    let total = 0;
                    for (const name of traceFiles) {
                        const { size } = await stat(path.join(directory, name));
                        total += size;
                    }
                    if (total >= maxBytes) {
                        console.warn(`Could not write trace to fallback dir ${directory} as it's ` +
                            `already over size limit (${total} bytes >= ${maxBytes} bytes). ` +
                            `Increase LANGSMITH_FAILED_TRACES_MAX_MB if possible.`);
                        return;
                    }
                }
                catch {
                    // budget check errors must never prevent writing
                }
            }
            await writeFileAtomic(filepath, envelope);
            console.warn(`LangSmith trace upload failed; data saved to ${filepath} for later replay.`);
        }
        catch (writeErr) {
            console.error(`LangSmith tracing error: could not write trace to fallback dir ${directory}:`, writeErr);
        }
    }
    async _processBatch(batch, options) {
        if (!batch.length) {
            return;
        }
        // Calculate total batch size for queue tracking
        const batchSizeBytes = batch.reduce((sum, item) => sum + (item.size ?? 0), 0);
        const feedbacks = batch
            .filter((item) => item.action === "feedback")
            .map((item) => item.item);
        const runItems = batch.filter((item) => item.action !== "feedback");
        try {
            if (this.langSmithToOTELTranslator !== undefined) {
                for (const item of runItems) {
                    item.item = await this._maskRunMetadata(item.item);
                }
                this._sendBatchToOTELTranslator(runItems);
                await this._postFeedbacks(feedbacks, options);
            }
            else {
                const ingestParams = {
                    runCreates: batch
                        .filter((item) => item.action === "create")
                        .map((item) => item.item),
                    runUpdates: batch
                        .filter((item) => item.action === "update")
                        .map((item) => item.item),
                };
                const serverInfo = await this._ensureServerInfo();
                const useMultipart = !this._multipartDisabled &&
                    (serverInfo?.batch_ingest_config?.use_multipart_endpoint ?? true);
                if (useMultipart) {
                    const useGzip = !this._runCompressionDisabled &&
                        serverInfo?.instance_flags?.gzip_body_enabled;
                    try {
                        await this.multipartIngestRuns({ ...ingestParams, feedbacks }, {
                            ...options,
                            useGzip,
                            sizeBytes: batchSizeBytes,
                        });
                        // eslint-disable-next-line @typescript-eslint/no-explicit-any
                    }
                    catch (e) {
                        if (isLangSmithNotFoundError(e)) {
                            // Fallback to batch ingest if multipart endpoint returns 404
                            // Disable multipart for future requests
                            this._multipartDisabled = true;
                            await this.batchIngestRuns(ingestParams, {
                                ...options,
                                sizeBytes: batchSizeBytes,
                            });
                            await this._postFeedbacks(feedbacks, options);
                        }
                        else {
                            throw e;
                        }
                    }
                }
                else {
                    await this.batchIngestRuns(ingestParams, {
                        ...options,
                        sizeBytes: batchSizeBytes,
                    });
                    await this._postFeedbacks(feedbacks, options);
                }
            }
        }
        catch (e) {
            console.error("Error exporting batch:", e);
        }
    }
    _sendBatchToOTELTranslator(batch) {
        if (this.langSmithToOTELTranslator !== undefined) {
            const otelContextMap = new Map();
            const operations = [];
            for (const item of batch) {
                if (item.item.id && item.otelContext) {
                    otelContextMap.set(item.item.id, item.otelContext);
                    if (item.action === "create") {
                        operations.push({
                            operation: "post",
                            id: item.item.id,
                            trace_id: item.item.trace_id ?? item.item.id,
                            run: item.item,
                        });
                    }
                    else {
                        operations.push({
                            operation: "patch",
                            id: item.item.id,
                            trace_id: item.item.trace_id ?? item.item.id,
                            run: item.item,
                        });
                    }
                }
            }
            this.langSmithToOTELTranslator.exportBatch(operations, otelContextMap);
        }
    }
    async _maskRunMetadata(run) {
        if (run.extra?.metadata == null) {
            return run;
        }
        return {
            ...run,
            extra: {
                ...run.extra,
                metadata: await this.processMetadata(run.extra.metadata),
            },
        };
    }
    async _mergeRuntimeEnvAndMaskMetadata(run) {
        const merged = mergeRuntimeEnvIntoRun(run, this.cachedLSEnvVarsForMetadata, this.omitTracedRuntimeInfo, this.tracingSampleRate);
        if (this.omitTracedRuntimeInfo) {
            return merged;
        }
        return this._maskRunMetadata(merged);
    }
    async processRunOperation(item) {
        clearTimeout(this.autoBatchTimeout);
        this.autoBatchTimeout = undefined;
        if (item.action !== "feedback") {
            item.item = mergeRuntimeEnvIntoRun(item.item, this.cachedLSEnvVarsForMetadata, this.omitTracedRuntimeInfo, this.tracingSampleRate);
        }
        const itemPromise = this.autoBatchQueue.push(item);
        if (this.manualFlushMode) {
            // Rely on manual flushing in serverless environments
            return itemPromise;
        }
        const sizeLimitBytes = await this._getBatchSizeLimitBytes();
        const sizeLimit = await this._getBatchSizeLimit();
        if (this._queueEncoding() !== undefined) {
            this._moveQueueToCompressed();
            return itemPromise;
        }
        if (this.autoBatchQueue.sizeBytes > sizeLimitBytes ||
            this.autoBatchQueue.items.length > sizeLimit) {
            this._trackDrain(this.drainAutoBatchQueue({
                batchSizeLimitBytes: sizeLimitBytes,
                batchSizeLimit: sizeLimit,
            }));
        }
        if (this.autoBatchQueue.items.length > 0) {
            this.autoBatchTimeout = setTimeout(() => {
                this.autoBatchTimeout = undefined;
                this._trackDrain(this.drainAutoBatchQueue({
                    batchSizeLimitBytes: sizeLimitBytes,
                    batchSizeLimit: sizeLimit,
                }));
            }, this.autoBatchAggregationDelayMs);
        }
        return itemPromise;
    }
    async _getServerInfo() {
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/info`, {
                method: "GET",
                headers: { ...this._mergedHeaders, Accept: "application/json" },
                signal: AbortSignal.timeout(SERVER_INFO_REQUEST_TIMEOUT_MS),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "get server info");
            return res;
        });
        const json = await response.json();
        if (this.debug) {
            console.log("\n=== LangSmith Server Configuration ===\n" +
                JSON.stringify(json, null, 2) +
                "\n");
        }
        return json;
    }
    _checkStainlessVersion(minVersion) {
        if (this._stainlessVersionsChecked.has(minVersion))
            return;
        this._stainlessVersionsChecked.add(minVersion);
        this._ensureServerInfo()
            .then((serverInfo) => {
            _checkBackendVersion(serverInfo?.version, minVersion);
        })
            .catch(() => {
            // _ensureServerInfo handles and logs its own errors
        });
    }
    async _ensureServerInfo() {
        if (this._getServerInfoPromise === undefined) {
            this._getServerInfoPromise = (async () => {
                if (this._serverInfo === undefined) {
                    try {
                        this._serverInfo = await this._getServerInfo();
                    }
                    catch (e) {
                        console.warn(`[LANGSMITH]: Failed to fetch info on supported operations. Falling back to batch operations and default limits. Info: ${e.status ?? "Unspecified status code"} ${e.message}`);
                    }
                }
                return this._serverInfo ?? {};
            })();
        }
        return this._getServerInfoPromise.then((serverInfo) => {
            if (this._serverInfo === undefined) {
                this._getServerInfoPromise = undefined;
            }
            return serverInfo;
        });
    }
    async _supportsSDBQuery() {
        const serverInfo = await this._ensureServerInfo();
        return serverInfo.instance_flags?.sdb_query_enabled === true;
    }
    /**
     * Throw on SmithDB-only deployments, warn elsewhere. Call only when run-level
     * feedback has no sessionId.
     */
    async _checkFeedbackSessionId() {
        const docs = "https://docs.langchain.com/langsmith/smithdb-sdk-migration-feedback#feedback-create";
        const serverInfo = await this._ensureServerInfo();
        if (getQueryBackend(serverInfo.instance_flags) === QueryBackend.SMITHDB_ONLY) {
            throw new Error(`sessionId must be provided when creating feedback for a run: this ` +
                `deployment cannot locate the run without it. See ${docs}`);
        }
        warn_warnOnce(`Creating feedback for a run without sessionId is deprecated and will ` +
            `stop working in a future release. See ${docs}`);
    }
    async _getSettings() {
        if (!this.settings) {
            this.settings = this._get("/settings");
        }
        return await this.settings;
    }
    /**
     * zstd or gzip when runs are compressed as queued. Undefined keeps the
     * queue: OTel and JSON batch need run objects.
     */
    _queueEncoding() {
        const serverInfo = this._serverInfo;
        if (serverInfo === undefined ||
            this.langSmithToOTELTranslator !== undefined ||
            this._runCompressionDisabled ||
            this._multipartDisabled ||
            !(serverInfo.batch_ingest_config?.use_multipart_endpoint ?? true)) {
            return undefined;
        }
        const encoding = CompressedRunBuffer.pickEncoding(serverInfo.instance_flags?.zstd_compression_enabled === true);
        if (encoding === "gzip" && !serverInfo.instance_flags?.gzip_body_enabled) {
            return undefined;
        }
        return encoding;
    }
    /** Move queued runs into the gzip buffers, oldest first. */
    _moveQueueToCompressed() {
        // Not pop(): its callback keeps the runs alive until sent. sizeBytes is
        // released per run once written.
        const queued = this.autoBatchQueue.items.splice(0);
        for (const queuedItem of queued) {
            const { itemPromiseResolve, size } = queuedItem;
            void this._enqueueCompressed(size, {
                action: queuedItem.action,
                item: queuedItem.payload,
                otelContext: queuedItem.otelContext,
                apiKey: queuedItem.apiKey,
                apiUrl: queuedItem.apiUrl,
                workspaceId: queuedItem.workspaceId,
            }).then(itemPromiseResolve);
        }
    }
    async _serializeQueuedOperation(item) {
        if (item.action === "feedback") {
            const feedback = item.item;
            return {
                parts: [await this._serializeFeedbackPart(feedback)],
                context: `trace=${feedback.trace_id},id=${feedback.id}`,
            };
        }
        const prepared = item.action === "create"
            ? await this.prepareRunCreateOrUpdateInputs(item.item)
            : await this.prepareRunCreateOrUpdateInputs(item.item, {
                update: true,
            });
        const attachments = prepared.attachments;
        delete prepared.attachments;
        return {
            parts: await this._serializeRunParts(item.action === "create" ? "post" : "patch", prepared, attachments),
            context: `trace=${prepared.trace_id},id=${prepared.id}`,
        };
    }
    /** Compress an operation into its destination's buffer. Resolves once sent. */
    _enqueueCompressed(queuedSize, item) {
        let onSent;
        const sent = new Promise((resolve) => {
            onSent = resolve;
        });
        const isDefault = item.apiKey === this.apiKey &&
            item.apiUrl === this.apiUrl &&
            item.workspaceId === this.workspaceId;
        const key = isDefault
            ? "default"
            : `${item.apiUrl ?? this.apiUrl}|${item.apiKey ?? this.apiKey}|${item.workspaceId ?? this.workspaceId ?? ""}`;
        // One at a time, so at most one operation is held uncompressed.
        const write = async () => {
            let serialized;
            try {
                serialized = await this._serializeQueuedOperation(item);
            }
            finally {
                this.autoBatchQueue.sizeBytes -= queuedSize;
            }
            const { parts, context } = serialized;
            const sizeLimitBytes = await this._getBatchSizeLimitBytes();
            const sizeLimit = await this._getBatchSizeLimit();
            const size = parts.reduce((sum, p) => sum + p.data.byteLength, 0);
            let entry = this._compressedBuffers.get(key);
            if (entry !== undefined &&
                entry.buffer.count > 0 &&
                entry.buffer.uncompressedSize + size > this._maxIngestMemoryBytes) {
                // Over the memory cap: send this buffer, start a new one.
                this._compressedBuffers.delete(key);
                this._trackDrain(this._sendCompressedBuffer(entry));
                entry = undefined;
            }
            if (entry === undefined) {
                entry = {
                    buffer: new CompressedRunBuffer(this._queueEncoding() ?? "gzip"),
                    apiKey: isDefault ? undefined : item.apiKey ?? this.apiKey,
                    apiUrl: isDefault ? undefined : item.apiUrl ?? this.apiUrl,
                    workspaceId: isDefault
                        ? undefined
                        : item.workspaceId ?? this.workspaceId,
                };
                this._compressedBuffers.set(key, entry);
            }
            await entry.buffer.writeParts(parts, context, onSent);
            if (entry.buffer.uncompressedSize >= sizeLimitBytes ||
                entry.buffer.count >= sizeLimit) {
                this._compressedBuffers.delete(key);
                this._trackDrain(this._sendCompressedBuffer(entry));
            }
        };
        this._compressedWriteChain = this._compressedWriteChain
            .then(write)
            .catch((e) => {
            console.error("Error queueing run for tracing:", e);
            onSent();
        });
        // Fixed delay from the first write, so steady traffic still flushes.
        if (!this.manualFlushMode && this._compressedFlushTimeout === undefined) {
            this._compressedFlushTimeout = setTimeout(() => {
                this._compressedFlushTimeout = undefined;
                this._trackDrain(this._flushCompressedBuffers());
            }, this.autoBatchAggregationDelayMs);
        }
        return sent;
    }
    /** Close and send a buffer already taken out of _compressedBuffers. */
    async _sendCompressedBuffer(entry) {
        const { buffer } = entry;
        try {
            const body = await buffer.close();
            await this._sendCompressedMultipart(body, buffer, entry);
        }
        catch (e) {
            console.error("Error exporting batch:", e);
        }
        finally {
            for (const onSent of buffer.onSent) {
                onSent();
            }
        }
    }
    async _flushCompressedBuffers() {
        // Inside the chain, so no write is midway.
        const taken = this._compressedWriteChain.then(() => {
            const entries = [...this._compressedBuffers.values()];
            this._compressedBuffers.clear();
            return entries;
        });
        this._compressedWriteChain = taken.then(() => undefined);
        const entries = await taken;
        await Promise.all(entries.map((entry) => this._sendCompressedBuffer(entry)));
    }
    async _sendCompressedMultipart(body, buffer, options) {
        const context = buffer.context.join("; ");
        const headers = {
            ...this._mergedHeaders,
            "Content-Type": `multipart/form-data; boundary=${buffer.boundary}`,
            "Content-Encoding": buffer.encoding,
        };
        if (options.apiKey !== undefined) {
            headers["x-api-key"] = options.apiKey;
        }
        if (options.workspaceId !== undefined) {
            headers["x-tenant-id"] = options.workspaceId;
        }
        try {
            // Retries resend the same bytes.
            await this.batchIngestCaller.callWithOptions({ sizeBytes: body.byteLength }, async () => {
                const response = await this._fetch(`${options.apiUrl ?? this.apiUrl}/runs/multipart`, {
                    method: "POST",
                    headers,
                    body,
                    signal: AbortSignal.timeout(this.timeout_ms),
                    ...this.fetchOptions,
                });
                await raiseForStatus(response, `Failed to send multipart request`, true);
                return response;
            });
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
        }
        catch (e) {
            if (isLangSmithNotFoundError(e)) {
                // Later runs use the queue and its JSON batch fallback.
                this._multipartDisabled = true;
            }
            console.warn(`${e.message.trim()}\n\nContext: ${context}`);
            if (this.failedTracesDir) {
                await Client._writeTraceToFallbackDir(this.failedTracesDir, body.buffer, {
                    "Content-Type": `multipart/form-data; boundary=${buffer.boundary}`,
                    "Content-Encoding": buffer.encoding,
                }, "runs/multipart", this.failedTracesMaxBytes);
            }
        }
    }
    /**
     * Flushes current queued traces.
     */
    async flush() {
        const sizeLimitBytes = await this._getBatchSizeLimitBytes();
        const sizeLimit = await this._getBatchSizeLimit();
        await Promise.all([
            this.drainAutoBatchQueue({
                batchSizeLimitBytes: sizeLimitBytes,
                batchSizeLimit: sizeLimit,
            }),
            this._flushCompressedBuffers(),
        ]);
    }
    _cloneCurrentOTELContext() {
        const otel_trace = getOTELTrace();
        const otel_context = getOTELContext();
        if (this.langSmithToOTELTranslator !== undefined) {
            const currentSpan = otel_trace.getActiveSpan();
            if (currentSpan) {
                return otel_trace.setSpan(otel_context.active(), currentSpan);
            }
        }
        return undefined;
    }
    async createRun(run, options) {
        if (!this._filterForSampling([run]).length) {
            return;
        }
        const headers = {
            ...this._mergedHeaders,
            "Content-Type": "application/json",
        };
        const address = ensureAgent(run.address);
        // `RunTree.postRun` passes a built run body, carrying the wire `session_name`.
        const bodySessionName = run.session_name;
        rejectConflicting(run.project_name ?? bodySessionName, address);
        const session_name = run.project_name;
        delete run.project_name;
        if (!session_name && bodySessionName == null && !address) {
            try {
                run.address = resolveFromEnv()[1];
            }
            catch (e) {
                if (!(e instanceof EnvAddressError)) {
                    throw e;
                }
                logUntraced(e);
                return;
            }
        }
        const runCreate = await this.prepareRunCreateOrUpdateInputs({
            session_name,
            ...run,
            start_time: run.start_time ?? Date.now(),
        });
        if (this.autoBatchTracing &&
            runCreate.trace_id !== undefined &&
            runCreate.dotted_order !== undefined) {
            const otelContext = this._cloneCurrentOTELContext();
            void this.processRunOperation({
                action: "create",
                item: runCreate,
                otelContext,
                apiKey: options?.apiKey,
                apiUrl: options?.apiUrl,
                workspaceId: options?.workspaceId,
            }).catch(console.error);
            return;
        }
        const mergedRunCreateParam = await this._mergeRuntimeEnvAndMaskMetadata(runCreate);
        if (options?.apiKey !== undefined) {
            headers["x-api-key"] = options.apiKey;
        }
        this._applyReplicaWorkspace(headers, options);
        const body = serialize(mergedRunCreateParam, `Creating run with id: ${mergedRunCreateParam.id}`);
        await this.caller.call(async () => {
            const res = await this._fetch(`${options?.apiUrl ?? this.apiUrl}/runs`, {
                method: "POST",
                headers,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "create run", true);
            return res;
        });
    }
    /**
     * Batch ingest/upsert multiple runs in the Langsmith system.
     * @param runs
     */
    async batchIngestRuns({ runCreates, runUpdates, }, options) {
        if (runCreates === undefined && runUpdates === undefined) {
            return;
        }
        let preparedCreateParams = await Promise.all(runCreates?.map((create) => this.prepareRunCreateOrUpdateInputs(create)) ?? []);
        let preparedUpdateParams = await Promise.all(runUpdates?.map((update) => this.prepareRunCreateOrUpdateInputs(update, { update: true })) ?? []);
        // Index even without updates: the collision warning must see creates-only batches.
        const createById = indexRunCreatesById(preparedCreateParams);
        if (preparedCreateParams.length > 0 && preparedUpdateParams.length > 0) {
            const standaloneUpdates = [];
            for (const updateParam of preparedUpdateParams) {
                if (updateParam.id !== undefined && createById[updateParam.id]) {
                    createById[updateParam.id] = {
                        ...createById[updateParam.id],
                        ...updateParam,
                    };
                }
                else {
                    standaloneUpdates.push(updateParam);
                }
            }
            preparedCreateParams = Object.values(createById);
            preparedUpdateParams = standaloneUpdates;
        }
        const rawBatch = {
            post: preparedCreateParams,
            patch: preparedUpdateParams,
        };
        if (!rawBatch.post.length && !rawBatch.patch.length) {
            return;
        }
        const batchChunks = {
            post: [],
            patch: [],
        };
        for (const k of ["post", "patch"]) {
            const key = k;
            const batchItems = rawBatch[key].reverse();
            let batchItem = batchItems.pop();
            while (batchItem !== undefined) {
                // Type is wrong but this is a deprecated code path anyway
                batchChunks[key].push(batchItem);
                batchItem = batchItems.pop();
            }
        }
        if (batchChunks.post.length > 0 || batchChunks.patch.length > 0) {
            const runIds = batchChunks.post
                .map((item) => item.id)
                .concat(batchChunks.patch.map((item) => item.id))
                .join(",");
            await this._postBatchIngestRuns(await this._serializeBody(batchChunks, `Ingesting runs with ids: ${runIds}`), options);
        }
    }
    async _postBatchIngestRuns(body, options) {
        const headers = {
            ...this._mergedHeaders,
            "Content-Type": "application/json",
            Accept: "application/json",
        };
        if (options?.apiKey !== undefined) {
            headers["x-api-key"] = options.apiKey;
        }
        this._applyReplicaWorkspace(headers, options);
        await this.batchIngestCaller.callWithOptions({ sizeBytes: options?.sizeBytes }, async () => {
            const res = await this._fetch(`${options?.apiUrl ?? this.apiUrl}/runs/batch`, {
                method: "POST",
                headers,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "batch create run", true);
            return res;
        });
    }
    /**
     * Batch ingest/upsert multiple runs in the Langsmith system.
     * @param runs
     */
    async multipartIngestRuns({ runCreates, runUpdates, feedbacks, }, options) {
        if (runCreates === undefined &&
            runUpdates === undefined &&
            !feedbacks?.length) {
            return;
        }
        // transform and convert to dicts
        const allAttachments = {};
        let preparedCreateParams = [];
        for (const create of runCreates ?? []) {
            const preparedCreate = await this.prepareRunCreateOrUpdateInputs(create);
            if (preparedCreate.id !== undefined &&
                preparedCreate.attachments !== undefined) {
                allAttachments[preparedCreate.id] = preparedCreate.attachments;
            }
            delete preparedCreate.attachments;
            preparedCreateParams.push(preparedCreate);
        }
        let preparedUpdateParams = [];
        for (const update of runUpdates ?? []) {
            const preparedUpdate = await this.prepareRunCreateOrUpdateInputs(update, {
                update: true,
            });
            // Keyed by run id: parts are named attachment.<run_id>.<name>, so the
            // server stores them whether the post or the patch carries them.
            if (preparedUpdate.id !== undefined &&
                preparedUpdate.attachments !== undefined) {
                allAttachments[preparedUpdate.id] = {
                    ...allAttachments[preparedUpdate.id],
                    ...preparedUpdate.attachments,
                };
            }
            delete preparedUpdate.attachments;
            preparedUpdateParams.push(preparedUpdate);
        }
        // require trace_id and dotted_order
        const invalidRunCreate = preparedCreateParams.find((runCreate) => {
            return (runCreate.trace_id === undefined || runCreate.dotted_order === undefined);
        });
        if (invalidRunCreate !== undefined) {
            throw new Error(`Multipart ingest requires "trace_id" and "dotted_order" to be set when creating a run`);
        }
        const invalidRunUpdate = preparedUpdateParams.find((runUpdate) => {
            return (runUpdate.trace_id === undefined || runUpdate.dotted_order === undefined);
        });
        if (invalidRunUpdate !== undefined) {
            throw new Error(`Multipart ingest requires "trace_id" and "dotted_order" to be set when updating a run`);
        }
        // combine post and patch dicts where possible
        const createById = indexRunCreatesById(preparedCreateParams);
        if (preparedCreateParams.length > 0 && preparedUpdateParams.length > 0) {
            const standaloneUpdates = [];
            for (const updateParam of preparedUpdateParams) {
                if (updateParam.id !== undefined && createById[updateParam.id]) {
                    createById[updateParam.id] = {
                        ...createById[updateParam.id],
                        ...updateParam,
                    };
                }
                else {
                    standaloneUpdates.push(updateParam);
                }
            }
            preparedCreateParams = Object.values(createById);
            preparedUpdateParams = standaloneUpdates;
        }
        if (preparedCreateParams.length === 0 &&
            preparedUpdateParams.length === 0 &&
            !feedbacks?.length) {
            return;
        }
        // send the runs in multipart requests
        const accumulatedContext = [];
        const accumulatedParts = [];
        const toMultipartPart = (part) => ({
            name: part.name,
            payload: new Blob([part.data], { type: part.contentType }),
        });
        for (const [method, payloads] of [
            ["post", preparedCreateParams],
            ["patch", preparedUpdateParams],
        ]) {
            for (const originalPayload of payloads) {
                const attachments = originalPayload.id !== undefined
                    ? allAttachments[originalPayload.id]
                    : undefined;
                if (originalPayload.id !== undefined) {
                    delete allAttachments[originalPayload.id];
                }
                const parts = await this._serializeRunParts(method, originalPayload, attachments);
                accumulatedParts.push(...parts.map(toMultipartPart));
                accumulatedContext.push(`trace=${originalPayload.trace_id},id=${originalPayload.id}`);
            }
        }
        for (const feedback of feedbacks ?? []) {
            accumulatedParts.push(toMultipartPart(await this._serializeFeedbackPart(feedback)));
            accumulatedContext.push(`trace=${feedback.trace_id},id=${feedback.id}`);
        }
        await this._sendMultipartRequest(accumulatedParts, accumulatedContext.join("; "), options);
    }
    /** Serialize one run operation into its multipart parts. */
    async _serializeRunParts(method, originalPayload, attachments) {
        const parts = [];
        // collect fields to be sent as separate parts
        const { inputs, outputs, events, extra, error, serialized, attachments: _attachments, ...payload } = originalPayload;
        const fields = { inputs, outputs, events, extra, error, serialized };
        // encode the main run payload
        const stringifiedPayload = await this._serializeBody(payload, `Serializing for multipart ingestion of run with id: ${payload.id}`);
        parts.push({
            name: `${method}.${payload.id}`,
            contentType: `application/json; length=${stringifiedPayload.length}`,
            data: stringifiedPayload,
        });
        // encode the fields we collected
        for (const [key, value] of Object.entries(fields)) {
            if (value === undefined) {
                continue;
            }
            const stringifiedValue = await this._serializeBody(value, `Serializing ${key} for multipart ingestion of run with id: ${payload.id}`);
            parts.push({
                name: `${method}.${payload.id}.${key}`,
                contentType: `application/json; length=${stringifiedValue.length}`,
                data: stringifiedValue,
            });
        }
        // encode the attachments
        for (const [name, attachment] of Object.entries(attachments ?? {})) {
            let contentType;
            let content;
            if (Array.isArray(attachment)) {
                [contentType, content] = attachment;
            }
            else {
                contentType = attachment.mimeType;
                content = attachment.data;
            }
            // Validate that the attachment name doesn't contain a '.'
            if (name.includes(".")) {
                console.warn(`Skipping attachment '${name}' for run ${payload.id}: Invalid attachment name. ` +
                    `Attachment names must not contain periods ('.'). Please rename the attachment and try again.`);
                continue;
            }
            parts.push({
                name: `attachment.${payload.id}.${name}`,
                contentType: `${contentType}; length=${content.byteLength}`,
                data: content instanceof Uint8Array
                    ? content
                    : new Uint8Array(content),
            });
        }
        return parts;
    }
    async _serializeFeedbackPart(feedback) {
        const stringifiedFeedback = await this._serializeBody(feedback, `Serializing for multipart ingestion of feedback with id: ${feedback.id}`);
        return {
            name: `feedback.${feedback.id}`,
            contentType: `application/json; length=${stringifiedFeedback.length}`,
            data: stringifiedFeedback,
        };
    }
    async _createNodeFetchBody(parts, boundary) {
        // Create multipart form data manually using Blobs
        const chunks = [];
        for (const part of parts) {
            // Add field boundary
            chunks.push(new Blob([`--${boundary}\r\n`]));
            chunks.push(new Blob([
                `Content-Disposition: form-data; name="${part.name}"\r\n`,
                `Content-Type: ${part.payload.type}\r\n\r\n`,
            ]));
            chunks.push(part.payload);
            chunks.push(new Blob(["\r\n"]));
        }
        // Add final boundary
        chunks.push(new Blob([`--${boundary}--\r\n`]));
        // Combine all chunks into a single Blob
        const body = new Blob(chunks);
        // Convert Blob to ArrayBuffer for compatibility
        const arrayBuffer = await body.arrayBuffer();
        return arrayBuffer;
    }
    async _createMultipartStream(parts, boundary) {
        const encoder = new TextEncoder();
        // Create a ReadableStream for streaming the multipart data
        // Only do special handling if we're using node-fetch
        const stream = new ReadableStream({
            async start(controller) {
                // Helper function to write a chunk to the stream
                const writeChunk = async (chunk) => {
                    if (typeof chunk === "string") {
                        controller.enqueue(encoder.encode(chunk));
                    }
                    else {
                        controller.enqueue(chunk);
                    }
                };
                // Write each part to the stream
                for (const part of parts) {
                    // Write boundary and headers
                    await writeChunk(`--${boundary}\r\n`);
                    await writeChunk(`Content-Disposition: form-data; name="${part.name}"\r\n`);
                    await writeChunk(`Content-Type: ${part.payload.type}\r\n\r\n`);
                    // Write the payload
                    const payloadStream = part.payload.stream();
                    const reader = payloadStream.getReader();
                    try {
                        let result;
                        while (!(result = await reader.read()).done) {
                            controller.enqueue(result.value);
                        }
                    }
                    finally {
                        reader.releaseLock();
                    }
                    await writeChunk("\r\n");
                }
                // Write final boundary
                await writeChunk(`--${boundary}--\r\n`);
                controller.close();
            },
        });
        return stream;
    }
    async _sendMultipartRequest(parts, context, options) {
        // Create multipart form data boundary
        const boundary = "----LangSmithFormBoundary" + Math.random().toString(36).slice(2);
        const buildBuffered = () => this._createNodeFetchBody(parts, boundary);
        const buildStream = () => this._createMultipartStream(parts, boundary);
        const sendWithRetry = async (bodyFactory) => {
            return this.batchIngestCaller.callWithOptions({ sizeBytes: options?.sizeBytes }, async () => {
                const body = await bodyFactory();
                const headers = {
                    ...this._mergedHeaders,
                    "Content-Type": `multipart/form-data; boundary=${boundary}`,
                };
                if (options?.apiKey !== undefined) {
                    headers["x-api-key"] = options.apiKey;
                }
                this._applyReplicaWorkspace(headers, options);
                let transformedBody = body;
                if (options?.useGzip &&
                    typeof body === "object" &&
                    "pipeThrough" in body) {
                    transformedBody = body.pipeThrough(new CompressionStream("gzip"));
                    headers["Content-Encoding"] = "gzip";
                }
                const response = await this._fetch(`${options?.apiUrl ?? this.apiUrl}/runs/multipart`, {
                    method: "POST",
                    headers,
                    body: transformedBody,
                    duplex: "half",
                    signal: AbortSignal.timeout(this.timeout_ms),
                    ...this.fetchOptions,
                });
                await raiseForStatus(response, `Failed to send multipart request`, true);
                return response;
            });
        };
        try {
            let res;
            let streamedAttempt = false;
            const shouldStream = _shouldStreamForGlobalFetchImplementation();
            // attempt stream only if not disabled and not using node-fetch or Bun;
            if (shouldStream &&
                !this.multipartStreamingDisabled &&
                getEnv() !== "bun") {
                streamedAttempt = true;
                res = await sendWithRetry(buildStream);
            }
            else {
                res = await sendWithRetry(buildBuffered);
            }
            // if stream fails, fallback to buffered body
            if ((!this.multipartStreamingDisabled || streamedAttempt) &&
                res.status === 422 &&
                (options?.apiUrl ?? this.apiUrl) !== DEFAULT_API_URL) {
                console.warn(`Streaming multipart upload to ${options?.apiUrl ?? this.apiUrl}/runs/multipart failed. ` +
                    `This usually means the host does not support chunked uploads. ` +
                    `Retrying with a buffered upload for operation "${context}".`);
                // Disable streaming for future requests
                this.multipartStreamingDisabled = true;
                // retry with fully-buffered body
                res = await sendWithRetry(buildBuffered);
            }
            // eslint-disable-next-line @typescript-eslint/no-explicit-any
        }
        catch (e) {
            // Re-throw 404 errors so caller can fall back to batch ingest
            if (isLangSmithNotFoundError(e)) {
                throw e;
            }
            console.warn(`${e.message.trim()}\n\nContext: ${context}`);
            if (this.failedTracesDir) {
                const bodyBuffer = await this._createNodeFetchBody(parts, boundary).catch(() => null);
                if (bodyBuffer) {
                    await Client._writeTraceToFallbackDir(this.failedTracesDir, bodyBuffer, { "Content-Type": `multipart/form-data; boundary=${boundary}` }, "runs/multipart", this.failedTracesMaxBytes);
                }
            }
        }
    }
    async updateRun(runId, run, options) {
        _uuid_assertUuid(runId);
        if (run.inputs) {
            run.inputs = await this.processInputs(run.inputs);
        }
        if (run.outputs) {
            run.outputs = await this.processOutputs(run.outputs);
        }
        if (run.error) {
            run.error = await this.processError(run.error);
        }
        if (run.extra != null && "metadata" in run.extra) {
            run.extra = {
                ...run.extra,
                metadata: await this.processMetadata(run.extra.metadata),
            };
        }
        if (run.events) {
            run.events = this._filterNewTokenEvents(run.events);
        }
        // Fail on a bad address now; the queued path validates again when built.
        ensureAgent(run.address);
        // TODO: Untangle types
        const data = { ...run, id: runId };
        if (!this._filterForSampling([data]).length) {
            return;
        }
        if (this.autoBatchTracing &&
            data.trace_id !== undefined &&
            data.dotted_order !== undefined) {
            const otelContext = this._cloneCurrentOTELContext();
            if (run.end_time !== undefined &&
                data.parent_run_id === undefined &&
                this.blockOnRootRunFinalization &&
                !this.manualFlushMode) {
                // Trigger batches as soon as a root trace ends and wait to ensure trace finishes
                // in serverless environments.
                await this.processRunOperation({
                    action: "update",
                    item: data,
                    otelContext,
                    apiKey: options?.apiKey,
                    apiUrl: options?.apiUrl,
                    workspaceId: options?.workspaceId,
                }).catch(console.error);
                return;
            }
            else {
                void this.processRunOperation({
                    action: "update",
                    item: data,
                    otelContext,
                    apiKey: options?.apiKey,
                    apiUrl: options?.apiUrl,
                    workspaceId: options?.workspaceId,
                }).catch(console.error);
            }
            return;
        }
        const headers = {
            ...this._mergedHeaders,
            "Content-Type": "application/json",
        };
        if (options?.apiKey !== undefined) {
            headers["x-api-key"] = options.apiKey;
        }
        this._applyReplicaWorkspace(headers, options);
        const wireRun = { ...run };
        applyToPayload(wireRun, { update: true });
        const body = serialize(wireRun.extra
            ? mergeRuntimeEnvIntoRun(wireRun, this.cachedLSEnvVarsForMetadata, this.omitTracedRuntimeInfo, this.tracingSampleRate)
            : wireRun, `Serializing payload to update run with id: ${runId}`);
        await this.caller.call(async () => {
            const res = await this._fetch(`${options?.apiUrl ?? this.apiUrl}/runs/${runId}`, {
                method: "PATCH",
                headers,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "update run", true);
            return res;
        });
    }
    /** @deprecated Use `client.runs.retrieve()` instead. See https://docs.langchain.com/langsmith/smithdb-sdk-migration-runs#runs-retrieve for the migration guide. Will be removed after Jan 31, 2027. */
    async readRun(runId, { loadChildRuns } = { loadChildRuns: false }) {
        warn_warnOnce("readRun() is deprecated and will be removed after Jan 31, 2027. " +
            "Use client.runs.retrieve() instead. " +
            "See https://docs.langchain.com/langsmith/smithdb-sdk-migration-runs#runs-retrieve for the migration guide.", { type: "DeprecationWarning", code: "LANGSMITH_DEPRECATED_READ_RUN" });
        return this._readRun(runId, { loadChildRuns });
    }
    /**
     * Fetch a run without emitting the `readRun()` deprecation warning.
     *
     * Internal callers use this so that a supported method doesn't warn about a
     * deprecated one the caller never invoked.
     *
     * @internal
     */
    async _readRun(runId, { loadChildRuns } = { loadChildRuns: false }) {
        _uuid_assertUuid(runId);
        let run = _normalizeRunTimestamps(await this._get(`/runs/${runId}`));
        if (loadChildRuns) {
            run = await this._loadChildRuns(run);
        }
        return run;
    }
    /** @deprecated Use `client.runs.getURL()` instead. See https://docs.langchain.com/langsmith/smithdb-sdk-migration-runs#runs-get-url for the migration guide. Will be removed after Jan 31, 2027. */
    async getRunUrl({ runId, run, projectOpts, address: rawAddress, }) {
        warn_warnOnce("getRunUrl() is deprecated and will be removed after Jan 31, 2027. " +
            "Use client.runs.getURL() instead. " +
            "See https://docs.langchain.com/langsmith/smithdb-sdk-migration-runs#runs-get-url for the migration guide.", { type: "DeprecationWarning", code: "LANGSMITH_DEPRECATED_GET_RUN_URL" });
        if (run !== undefined) {
            const argumentAddress = ensureAddress(rawAddress);
            rejectConflicting(projectOpts?.projectName ?? projectOpts?.projectId, argumentAddress);
            const address = argumentAddress ??
                ensureAgent(run.address);
            let sessionId;
            if (run.session_id) {
                sessionId = run.session_id;
            }
            else if (projectOpts?.projectName) {
                sessionId = (await this.readProject({ projectName: projectOpts?.projectName })).id;
            }
            else if (projectOpts?.projectId) {
                sessionId = projectOpts?.projectId;
            }
            else if (address) {
                sessionId = await this._resolveAddress(address);
            }
            else {
                const project = await this.readProject({
                    projectName: env_getLangSmithEnvironmentVariable("PROJECT") || "default",
                });
                sessionId = project.id;
            }
            const tenantId = await this._getTenantId();
            return `${this.getHostUrl()}/o/${tenantId}/projects/p/${sessionId}/r/${run.id}?poll=true`;
        }
        else if (runId !== undefined) {
            // Via _readRun() rather than readRun() so callers don't also get a
            // readRun deprecation warning for a method they never called.
            const run_ = await this._readRun(runId);
            if (!run_.app_path) {
                throw new Error(`Run ${runId} has no app_path`);
            }
            const baseUrl = this.getHostUrl();
            return `${baseUrl}${run_.app_path}`;
        }
        else {
            throw new Error("Must provide either runId or run");
        }
    }
    /** The ID of the project an address names, with one request. */
    async _resolveAddress(address) {
        const { session_id: sessionId } = await this.sessions.resolve(address);
        _uuid_assertUuid(sessionId);
        return sessionId;
    }
    async _loadChildRuns(run) {
        const childRuns = await toArray(this._listRuns({
            isRoot: false,
            projectId: run.session_id,
            traceId: run.trace_id,
        }));
        const treemap = {};
        const runs = {};
        // TODO: make dotted order required when the migration finishes
        childRuns.sort((a, b) => (a?.dotted_order ?? "").localeCompare(b?.dotted_order ?? ""));
        for (const childRun of childRuns) {
            if (childRun.parent_run_id === null ||
                childRun.parent_run_id === undefined) {
                throw new Error(`Child run ${childRun.id} has no parent`);
            }
            if (childRun.dotted_order?.startsWith(run.dotted_order ?? "") &&
                childRun.id !== run.id) {
                if (!(childRun.parent_run_id in treemap)) {
                    treemap[childRun.parent_run_id] = [];
                }
                treemap[childRun.parent_run_id].push(childRun);
                runs[childRun.id] = childRun;
            }
        }
        run.child_runs = treemap[run.id] || [];
        for (const runId in treemap) {
            if (runId !== run.id) {
                runs[runId].child_runs = treemap[runId];
            }
        }
        return run;
    }
    /**
     * List runs from the LangSmith server.
     * @deprecated Use `client.runs.query()` instead. See https://docs.langchain.com/langsmith/smithdb-sdk-migration-query-runs#runs-query for the migration guide. Will be removed after Jan 31, 2027.
     * @param projectId - The ID of the project to filter by.
     * @param projectName - The name of the project to filter by.
     * @param parentRunId - The ID of the parent run to filter by.
     * @param traceId - The ID of the trace to filter by.
     * @param referenceExampleId - The ID of the reference example to filter by.
     * @param startTime - The start time to filter by.
     * @param isRoot - Indicates whether to only return root runs.
     * @param runType - The run type to filter by.
     * @param error - Indicates whether to filter by error runs.
     * @param id - The ID of the run to filter by.
     * @param query - The query string to filter by.
     * @param filter - The filter string to apply to the run spans.
     * @param traceFilter - The filter string to apply on the root run of the trace.
     * @param treeFilter - The filter string to apply on other runs in the trace.
     * @param limit - The maximum number of runs to retrieve.
     * @returns {AsyncIterable<Run>} - The runs.
     *
     * @example
     * // List all runs in a project
     * const projectRuns = client.listRuns({ projectName: "<your_project>" });
     *
     * @example
     * // List LLM and Chat runs in the last 24 hours
     * const todaysLLMRuns = client.listRuns({
     *   projectName: "<your_project>",
     *   start_time: new Date(Date.now() - 24 * 60 * 60 * 1000),
     *   run_type: "llm",
     * });
     *
     * @example
     * // List traces in a project
     * const rootRuns = client.listRuns({
     *   projectName: "<your_project>",
     *   execution_order: 1,
     * });
     *
     * @example
     * // List runs without errors
     * const correctRuns = client.listRuns({
     *   projectName: "<your_project>",
     *   error: false,
     * });
     *
     * @example
     * // List runs by run ID
     * const runIds = [
     *   "a36092d2-4ad5-4fb4-9c0d-0dba9a2ed836",
     *   "9398e6be-964f-4aa4-8ae9-ad78cd4b7074",
     * ];
     * const selectedRuns = client.listRuns({ run_ids: runIds });
     *
     * @example
     * // List all "chain" type runs that took more than 10 seconds and had `total_tokens` greater than 5000
     * const chainRuns = client.listRuns({
     *   projectName: "<your_project>",
     *   filter: 'and(eq(run_type, "chain"), gt(latency, 10), gt(total_tokens, 5000))',
     * });
     *
     * @example
     * // List all runs called "extractor" whose root of the trace was assigned feedback "user_score" score of 1
     * const goodExtractorRuns = client.listRuns({
     *   projectName: "<your_project>",
     *   filter: 'eq(name, "extractor")',
     *   traceFilter: 'and(eq(feedback_key, "user_score"), eq(feedback_score, 1))',
     * });
     *
     * @example
     * // List all runs that started after a specific timestamp and either have "error" not equal to null or a "Correctness" feedback score equal to 0
     * const complexRuns = client.listRuns({
     *   projectName: "<your_project>",
     *   filter: 'and(gt(start_time, "2023-07-15T12:34:56Z"), or(neq(error, null), and(eq(feedback_key, "Correctness"), eq(feedback_score, 0.0))))',
     * });
     *
     * @example
     * // List all runs where `tags` include "experimental" or "beta" and `latency` is greater than 2 seconds
     * const taggedRuns = client.listRuns({
     *   projectName: "<your_project>",
     *   filter: 'and(or(has(tags, "experimental"), has(tags, "beta")), gt(latency, 2))',
     * });
     */
    async *listRuns(props) {
        warn_warnOnce("listRuns() is deprecated and will be removed after Jan 31, 2027. " +
            "Use client.runs.query() instead. " +
            "See https://docs.langchain.com/langsmith/smithdb-sdk-migration-query-runs#runs-query for the migration guide.", { type: "DeprecationWarning", code: "LANGSMITH_DEPRECATED_LIST_RUNS" });
        yield* this._listRuns(props);
    }
    /**
     * List runs without emitting the `listRuns()` deprecation warning.
     *
     * Internal callers use this so that a supported method doesn't warn about a
     * deprecated one the caller never invoked.
     *
     * @internal
     */
    async *_listRuns(props) {
        const { projectId, projectName, parentRunId, traceId, referenceExampleId, startTime, executionOrder, isRoot, runType, error, id, query, filter, traceFilter, treeFilter, limit, select, order, } = props;
        let projectIds = [];
        if (projectId) {
            projectIds = Array.isArray(projectId) ? projectId : [projectId];
        }
        if (projectName) {
            const projectNames = Array.isArray(projectName)
                ? projectName
                : [projectName];
            const projectIds_ = await Promise.all(projectNames.map((name) => this.readProject({ projectName: name }).then((project) => project.id)));
            projectIds.push(...projectIds_);
        }
        const default_select = [
            "app_path",
            "completion_cost",
            "completion_tokens",
            "dotted_order",
            "end_time",
            "error",
            "events",
            "extra",
            "feedback_stats",
            "first_token_time",
            "id",
            "inputs",
            "name",
            "outputs",
            "parent_run_id",
            "parent_run_ids",
            "prompt_cost",
            "prompt_tokens",
            "reference_example_id",
            "run_type",
            "session_id",
            "start_time",
            "status",
            "tags",
            "total_cost",
            "total_tokens",
            "trace_id",
        ];
        const body = {
            session: projectIds.length ? projectIds : null,
            run_type: runType,
            reference_example: referenceExampleId,
            query,
            filter,
            trace_filter: traceFilter,
            tree_filter: treeFilter,
            execution_order: executionOrder,
            parent_run: parentRunId,
            start_time: startTime ? startTime.toISOString() : null,
            error,
            id,
            limit,
            trace: traceId,
            select: select ? select : default_select,
            is_root: isRoot,
            order,
        };
        if (body.select.includes("child_run_ids")) {
            warn_warnOnce("Deprecated: 'child_run_ids' in the listRuns select parameter is deprecated and will be removed in a future version.");
        }
        let runsYielded = 0;
        for await (const runs of this._getCursorPaginatedList("/runs/query", body)) {
            const normalized = runs.map(_normalizeRunTimestamps);
            if (limit) {
                if (runsYielded >= limit) {
                    break;
                }
                if (normalized.length + runsYielded > limit) {
                    const newRuns = normalized.slice(0, limit - runsYielded);
                    yield* newRuns;
                    break;
                }
                runsYielded += normalized.length;
                yield* normalized;
            }
            else {
                yield* normalized;
            }
        }
    }
    async *listGroupRuns(props) {
        const { projectId, projectName, groupBy, filter, startTime, endTime, limit, offset, } = props;
        const sessionId = projectId || (await this.readProject({ projectName })).id;
        const baseBody = {
            session_id: sessionId,
            group_by: groupBy,
            filter,
            start_time: startTime ? startTime.toISOString() : null,
            end_time: endTime ? endTime.toISOString() : null,
            limit: Number(limit) || 100,
        };
        let currentOffset = Number(offset) || 0;
        const path = "/runs/group";
        const url = `${this.apiUrl}${path}`;
        while (true) {
            const currentBody = {
                ...baseBody,
                offset: currentOffset,
            };
            // Remove undefined values from the payload
            const filteredPayload = Object.fromEntries(Object.entries(currentBody).filter(([_, value]) => value !== undefined));
            const body = JSON.stringify(filteredPayload);
            const response = await this.caller.call(async () => {
                const res = await this._fetch(url, {
                    method: "POST",
                    headers: {
                        ...this._mergedHeaders,
                        "Content-Type": "application/json",
                    },
                    signal: AbortSignal.timeout(this.timeout_ms),
                    ...this.fetchOptions,
                    body,
                });
                await raiseForStatus(res, `Failed to fetch ${path}`);
                return res;
            });
            const items = await response.json();
            const { groups, total } = items;
            if (groups.length === 0) {
                break;
            }
            for (const thread of groups) {
                yield thread;
            }
            currentOffset += groups.length;
            if (currentOffset >= total) {
                break;
            }
        }
    }
    /** @deprecated Use `client.threads.listTraces()` instead. See https://docs.langchain.com/langsmith/smithdb-sdk-migration-threads#threads-list-traces for the migration guide. Will be removed after Jan 31, 2027. */
    async *readThread(props) {
        warn_warnOnce("readThread() is deprecated and will be removed after Jan 31, 2027. " +
            "Use client.threads.listTraces() instead. " +
            "See https://docs.langchain.com/langsmith/smithdb-sdk-migration-threads#threads-list-traces for the migration guide.", { type: "DeprecationWarning", code: "LANGSMITH_DEPRECATED_READ_THREAD" });
        const { threadId, projectId, projectName, isRoot = true, limit, filter: userFilter, order = "asc", } = props;
        if (!projectId && !projectName) {
            throw new Error("threadId requires projectId or projectName");
        }
        const threadFilter = `eq(thread_id, ${JSON.stringify(threadId)})`;
        const combinedFilter = userFilter
            ? `and(${threadFilter}, ${userFilter})`
            : threadFilter;
        // Via _listRuns() rather than listRuns(): readThread() already warned, and it
        // points at threads.listTraces() rather than listRuns()'s runs.query().
        yield* this._listRuns({
            projectId: projectId ?? undefined,
            projectName: projectName ?? undefined,
            isRoot,
            limit,
            filter: combinedFilter,
            order,
        });
    }
    /** @deprecated Use `client.threads.query()` instead. See https://docs.langchain.com/langsmith/smithdb-sdk-migration-threads#threads-query for the migration guide. Will be removed after Jan 31, 2027. */
    async listThreads(props) {
        warn_warnOnce("listThreads() is deprecated and will be removed after Jan 31, 2027. " +
            "Use client.threads.query() instead. " +
            "See https://docs.langchain.com/langsmith/smithdb-sdk-migration-threads#threads-query for the migration guide.", { type: "DeprecationWarning", code: "LANGSMITH_DEPRECATED_LIST_THREADS" });
        const { projectId, projectName, limit, offset = 0, filter, startTime, isRoot = true, } = props;
        if (!projectId && !projectName) {
            throw new Error("Either projectId or projectName must be provided");
        }
        if (projectId && projectName) {
            throw new Error("Provide exactly one of projectId or projectName");
        }
        const sessionId = projectId ?? (await this.readProject({ projectName: projectName })).id;
        const startTimeResolved = startTime ?? new Date(Date.now() - 1 * 24 * 60 * 60 * 1000);
        const runSelect = [
            "id",
            "name",
            "status",
            "start_time",
            "end_time",
            "thread_id",
            "trace_id",
            "run_type",
            "error",
            "tags",
            "session_id",
            "parent_run_id",
            "total_tokens",
            "total_cost",
            "dotted_order",
            "reference_example_id",
            "feedback_stats",
            "app_path",
            "completion_cost",
            "completion_tokens",
            "prompt_cost",
            "prompt_tokens",
            "first_token_time",
        ];
        const bodyQuery = {
            session: [sessionId],
            is_root: isRoot,
            limit: 100,
            order: "desc",
            select: runSelect,
            start_time: startTimeResolved.toISOString(),
        };
        if (filter != null) {
            bodyQuery.filter = filter;
        }
        const threadsMap = new Map();
        for await (const runs of this._getCursorPaginatedList("/runs/query", bodyQuery)) {
            for (const raw of runs) {
                const run = _normalizeRunTimestamps(raw);
                const tid = run.thread_id;
                if (tid) {
                    const list = threadsMap.get(tid) ?? [];
                    list.push(run);
                    threadsMap.set(tid, list);
                }
            }
        }
        const result = [];
        for (const [threadId, runs] of threadsMap.entries()) {
            runs.sort((a, b) => {
                const aRun = a;
                const bRun = b;
                const aStart = aRun.start_time ?? "";
                const bStart = bRun.start_time ?? "";
                if (aStart !== bStart)
                    return aStart.localeCompare(bStart);
                const aOrder = aRun.dotted_order ?? "";
                const bOrder = bRun.dotted_order ?? "";
                return aOrder.localeCompare(bOrder);
            });
            const startTimes = runs
                .map((r) => r.start_time)
                .filter(Boolean);
            const sortedTimes = [...startTimes].sort();
            const minStart = sortedTimes.length ? sortedTimes[0] : "";
            const maxStart = sortedTimes.length
                ? sortedTimes[sortedTimes.length - 1]
                : "";
            result.push({
                thread_id: threadId,
                runs,
                count: runs.length,
                filter: "",
                total_tokens: 0,
                total_cost: null,
                min_start_time: minStart,
                max_start_time: maxStart,
                latency_p50: 0,
                latency_p99: 0,
                feedback_stats: null,
                first_inputs: "",
                last_outputs: "",
                last_error: null,
            });
        }
        result.sort((a, b) => {
            const aMax = a.max_start_time ?? "";
            const bMax = b.max_start_time ?? "";
            return bMax.localeCompare(aMax);
        });
        const withOffset = offset > 0 ? result.slice(offset) : result;
        const withLimit = limit !== undefined ? withOffset.slice(0, limit) : withOffset;
        return withLimit;
    }
    async getRunStats({ id, trace, parentRun, runType, projectNames, projectIds, referenceExampleIds, startTime, endTime, error, query, filter, traceFilter, treeFilter, isRoot, dataSourceType, }) {
        let projectIds_ = projectIds || [];
        if (projectNames) {
            projectIds_ = [
                ...(projectIds || []),
                ...(await Promise.all(projectNames.map((name) => this.readProject({ projectName: name }).then((project) => project.id)))),
            ];
        }
        if (projectIds_.length === 0) {
            throw new Error("At least one of projectNames or projectIds must be provided.");
        }
        const payload = {
            id,
            trace,
            parent_run: parentRun,
            run_type: runType,
            session: projectIds_,
            reference_example: referenceExampleIds,
            start_time: startTime,
            end_time: endTime,
            error,
            query,
            filter,
            trace_filter: traceFilter,
            tree_filter: treeFilter,
            is_root: isRoot,
            data_source_type: dataSourceType,
        };
        // Remove undefined values from the payload
        const filteredPayload = Object.fromEntries(Object.entries(payload).filter(([_, value]) => value !== undefined));
        const body = JSON.stringify(filteredPayload);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/runs/stats`, {
                method: "POST",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "get run stats");
            return res;
        });
        const result = await response.json();
        return result;
    }
    /** @deprecated Use `client.runs.share.create()` instead. See https://docs.langchain.com/langsmith/smithdb-sdk-migration-feedback#share-and-read-public-runs for the migration guide. Will be removed after Jan 31, 2027. */
    async shareRun(runId, { shareId } = {}) {
        warn_warnOnce("shareRun() is deprecated and will be removed after Jan 31, 2027. " +
            "Use client.runs.share.create() instead. " +
            "See https://docs.langchain.com/langsmith/smithdb-sdk-migration-feedback#share-and-read-public-runs for the migration guide.", { type: "DeprecationWarning", code: "LANGSMITH_DEPRECATED_SHARE_RUN" });
        const data = {
            run_id: runId,
            share_token: shareId || src_v4(),
        };
        _uuid_assertUuid(runId);
        const body = JSON.stringify(data);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/runs/${runId}/share`, {
                method: "PUT",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "share run");
            return res;
        });
        const result = await response.json();
        if (result === null || !("share_token" in result)) {
            throw new Error("Invalid response from server");
        }
        return `${this.getHostUrl()}/public/${result["share_token"]}/r`;
    }
    /** @deprecated Use `client.runs.share.delete()` instead. See https://docs.langchain.com/langsmith/smithdb-sdk-migration-feedback#share-and-read-public-runs for the migration guide. Will be removed after Jan 31, 2027. */
    async unshareRun(runId) {
        warn_warnOnce("unshareRun() is deprecated and will be removed after Jan 31, 2027. " +
            "Use client.runs.share.delete() instead. " +
            "See https://docs.langchain.com/langsmith/smithdb-sdk-migration-feedback#share-and-read-public-runs for the migration guide.", { type: "DeprecationWarning", code: "LANGSMITH_DEPRECATED_UNSHARE_RUN" });
        _uuid_assertUuid(runId);
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/runs/${runId}/share`, {
                method: "DELETE",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "unshare run", true);
            return res;
        });
    }
    /** @deprecated Use `client.runs.retrieve({ selects: ["SHARE_URL"] })` instead. See https://docs.langchain.com/langsmith/smithdb-sdk-migration-feedback#share-and-read-public-runs for the migration guide. Will be removed after Jan 31, 2027. */
    async readRunSharedLink(runId) {
        warn_warnOnce("readRunSharedLink() is deprecated and will be removed after Jan 31, 2027. " +
            'Use client.runs.retrieve({ selects: ["SHARE_URL"] }) instead. ' +
            "See https://docs.langchain.com/langsmith/smithdb-sdk-migration-feedback#share-and-read-public-runs for the migration guide.", {
            type: "DeprecationWarning",
            code: "LANGSMITH_DEPRECATED_READ_RUN_SHARED_LINK",
        });
        _uuid_assertUuid(runId);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/runs/${runId}/share`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "read run shared link");
            return res;
        });
        const result = await response.json();
        if (result === null || !("share_token" in result)) {
            return undefined;
        }
        return `${this.getHostUrl()}/public/${result["share_token"]}/r`;
    }
    /** @deprecated Use `client.public.runs.query()` instead. See https://docs.langchain.com/langsmith/smithdb-sdk-migration-feedback#share-and-read-public-runs for the migration guide. Will be removed after Jan 31, 2027. */
    async listSharedRuns(shareToken, { runIds, } = {}) {
        warn_warnOnce("listSharedRuns() is deprecated and will be removed after Jan 31, 2027. " +
            "Use client.public.runs.query() instead. " +
            "See https://docs.langchain.com/langsmith/smithdb-sdk-migration-feedback#share-and-read-public-runs for the migration guide.", {
            type: "DeprecationWarning",
            code: "LANGSMITH_DEPRECATED_LIST_SHARED_RUNS",
        });
        const queryParams = new URLSearchParams({
            share_token: shareToken,
        });
        if (runIds !== undefined) {
            for (const runId of runIds) {
                queryParams.append("id", runId);
            }
        }
        _uuid_assertUuid(shareToken);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/public/${shareToken}/runs${queryParams}`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "list shared runs");
            return res;
        });
        const runs = (await response.json());
        return runs.map(_normalizeRunTimestamps);
    }
    async readDatasetSharedSchema(datasetId, datasetName) {
        if (!datasetId && !datasetName) {
            throw new Error("Either datasetId or datasetName must be given");
        }
        if (!datasetId) {
            const dataset = await this.readDataset({ datasetName });
            datasetId = dataset.id;
        }
        _uuid_assertUuid(datasetId);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/datasets/${datasetId}/share`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "read dataset shared schema");
            return res;
        });
        const shareSchema = await response.json();
        shareSchema.url = `${this.getHostUrl()}/public/${shareSchema.share_token}/d`;
        return shareSchema;
    }
    async shareDataset(datasetId, datasetName) {
        if (!datasetId && !datasetName) {
            throw new Error("Either datasetId or datasetName must be given");
        }
        if (!datasetId) {
            const dataset = await this.readDataset({ datasetName });
            datasetId = dataset.id;
        }
        const data = {
            dataset_id: datasetId,
        };
        _uuid_assertUuid(datasetId);
        const body = JSON.stringify(data);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/datasets/${datasetId}/share`, {
                method: "PUT",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "share dataset");
            return res;
        });
        const shareSchema = await response.json();
        shareSchema.url = `${this.getHostUrl()}/public/${shareSchema.share_token}/d`;
        return shareSchema;
    }
    async unshareDataset(datasetId) {
        _uuid_assertUuid(datasetId);
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/datasets/${datasetId}/share`, {
                method: "DELETE",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "unshare dataset", true);
            return res;
        });
    }
    async readSharedDataset(shareToken) {
        _uuid_assertUuid(shareToken);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/public/${shareToken}/datasets`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "read shared dataset");
            return res;
        });
        const dataset = await response.json();
        return dataset;
    }
    /**
     * Get shared examples.
     *
     * @param {string} shareToken The share token to get examples for. A share token is the UUID (or LangSmith URL, including UUID) generated when explicitly marking an example as public.
     * @param {Object} [options] Additional options for listing the examples.
     * @param {string[] | undefined} [options.exampleIds] A list of example IDs to filter by.
     * @returns {Promise<Example[]>} The shared examples.
     */
    async listSharedExamples(shareToken, options) {
        const params = {};
        if (options?.exampleIds) {
            params.id = options.exampleIds;
        }
        const urlParams = new URLSearchParams();
        Object.entries(params).forEach(([key, value]) => {
            if (Array.isArray(value)) {
                value.forEach((v) => urlParams.append(key, v));
            }
            else {
                urlParams.append(key, value);
            }
        });
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/public/${shareToken}/examples?${urlParams.toString()}`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "list shared examples");
            return res;
        });
        const result = await response.json();
        if (!response.ok) {
            if ("detail" in result) {
                throw new Error(`Failed to list shared examples.\nStatus: ${response.status}\nMessage: ${Array.isArray(result.detail)
                    ? result.detail.join("\n")
                    : "Unspecified error"}`);
            }
            throw new Error(`Failed to list shared examples: ${response.status} ${response.statusText}`);
        }
        return result.map((example) => ({
            ...example,
            _hostUrl: this.getHostUrl(),
        }));
    }
    async createProject({ projectName, description = null, metadata = null, upsert = false, projectExtra = null, referenceDatasetId = null, numExamples = null, numRepetitions = null, evaluatorKeys = null, tagValueIds = null, }) {
        const upsert_ = upsert ? `?upsert=true` : "";
        const endpoint = `${this.apiUrl}/sessions${upsert_}`;
        const extra = projectExtra || {};
        if (metadata) {
            extra["metadata"] = metadata;
        }
        const body = {
            name: projectName,
            extra,
            description,
        };
        if (referenceDatasetId !== null) {
            body["reference_dataset_id"] = referenceDatasetId;
        }
        if (numExamples != null) {
            body["num_examples"] = numExamples;
        }
        if (numRepetitions != null) {
            body["num_repetitions"] = numRepetitions;
        }
        if (evaluatorKeys != null && evaluatorKeys.length > 0) {
            body["evaluator_keys"] = evaluatorKeys;
        }
        if (tagValueIds !== null) {
            body["tag_value_ids"] = tagValueIds;
        }
        const serializedBody = JSON.stringify(body);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(endpoint, {
                method: "POST",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: serializedBody,
            });
            await raiseForStatus(res, "create project");
            return res;
        });
        const result = await response.json();
        return result;
    }
    async updateProject(projectId, { name = null, description = null, metadata = null, projectExtra = null, endTime = null, }) {
        const endpoint = `${this.apiUrl}/sessions/${projectId}`;
        let extra = projectExtra;
        if (metadata) {
            extra = { ...(extra || {}), metadata };
        }
        const body = JSON.stringify({
            name,
            extra,
            description,
            end_time: endTime ? new Date(endTime).toISOString() : null,
        });
        const response = await this.caller.call(async () => {
            const res = await this._fetch(endpoint, {
                method: "PATCH",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "update project");
            return res;
        });
        const result = await response.json();
        return result;
    }
    async hasProject({ projectId, projectName, }) {
        // TODO: Add a head request
        let path = "/sessions";
        const params = new URLSearchParams();
        if (projectId !== undefined && projectName !== undefined) {
            throw new Error("Must provide either projectName or projectId, not both");
        }
        else if (projectId !== undefined) {
            _uuid_assertUuid(projectId);
            path += `/${projectId}`;
        }
        else if (projectName !== undefined) {
            params.append("name", projectName);
        }
        else {
            throw new Error("Must provide projectName or projectId");
        }
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}${path}?${params}`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "has project");
            return res;
        });
        // consume the response body to release the connection
        // https://undici.nodejs.org/#/?id=garbage-collection
        try {
            const result = await response.json();
            if (!response.ok) {
                return false;
            }
            // If it's OK and we're querying by name, need to check the list is not empty
            if (Array.isArray(result)) {
                return result.length > 0;
            }
            // projectId querying
            return true;
        }
        catch (_e) {
            return false;
        }
    }
    async readProject({ projectId, projectName, includeStats, }) {
        let path = "/sessions";
        const params = new URLSearchParams();
        if (projectId !== undefined && projectName !== undefined) {
            throw new Error("Must provide either projectName or projectId, not both");
        }
        else if (projectId !== undefined) {
            _uuid_assertUuid(projectId);
            path += `/${projectId}`;
        }
        else if (projectName !== undefined) {
            params.append("name", projectName);
        }
        else {
            throw new Error("Must provide projectName or projectId");
        }
        if (includeStats !== undefined) {
            params.append("include_stats", includeStats.toString());
        }
        const response = await this._get(path, params);
        let result;
        if (Array.isArray(response)) {
            if (response.length === 0) {
                throw new Error(`Project[id=${projectId}, name=${projectName}] not found`);
            }
            result = response[0];
        }
        else {
            result = response;
        }
        return result;
    }
    async getProjectUrl({ projectId, projectName, }) {
        if (projectId === undefined && projectName === undefined) {
            throw new Error("Must provide either projectName or projectId");
        }
        const project = await this.readProject({ projectId, projectName });
        const tenantId = await this._getTenantId();
        return `${this.getHostUrl()}/o/${tenantId}/projects/p/${project.id}`;
    }
    async getDatasetUrl({ datasetId, datasetName, }) {
        if (datasetId === undefined && datasetName === undefined) {
            throw new Error("Must provide either datasetName or datasetId");
        }
        const dataset = await this.readDataset({ datasetId, datasetName });
        const tenantId = await this._getTenantId();
        return `${this.getHostUrl()}/o/${tenantId}/datasets/${dataset.id}`;
    }
    async _getTenantId() {
        if (this._tenantId !== null) {
            return this._tenantId;
        }
        const queryParams = new URLSearchParams({ limit: "1" });
        for await (const projects of this._getPaginated("/sessions", queryParams)) {
            this._tenantId = projects[0].tenant_id;
            return projects[0].tenant_id;
        }
        throw new Error("No projects found to resolve tenant.");
    }
    async *listProjects({ projectIds, name, nameContains, referenceDatasetId, referenceDatasetName, includeStats, datasetVersion, referenceFree, metadata, } = {}) {
        const params = new URLSearchParams();
        if (projectIds !== undefined) {
            for (const projectId of projectIds) {
                params.append("id", projectId);
            }
        }
        if (name !== undefined) {
            params.append("name", name);
        }
        if (nameContains !== undefined) {
            params.append("name_contains", nameContains);
        }
        if (referenceDatasetId !== undefined) {
            params.append("reference_dataset", referenceDatasetId);
        }
        else if (referenceDatasetName !== undefined) {
            const dataset = await this.readDataset({
                datasetName: referenceDatasetName,
            });
            params.append("reference_dataset", dataset.id);
        }
        if (includeStats !== undefined) {
            params.append("include_stats", includeStats.toString());
        }
        if (datasetVersion !== undefined) {
            params.append("dataset_version", datasetVersion);
        }
        if (referenceFree !== undefined) {
            params.append("reference_free", referenceFree.toString());
        }
        if (metadata !== undefined) {
            params.append("metadata", JSON.stringify(metadata));
        }
        for await (const projects of this._getPaginated("/sessions", params)) {
            yield* projects;
        }
    }
    async deleteProject({ projectId, projectName, }) {
        let projectId_;
        if (projectId === undefined && projectName === undefined) {
            throw new Error("Must provide projectName or projectId");
        }
        else if (projectId !== undefined && projectName !== undefined) {
            throw new Error("Must provide either projectName or projectId, not both");
        }
        else if (projectId === undefined) {
            projectId_ = (await this.readProject({ projectName })).id;
        }
        else {
            projectId_ = projectId;
        }
        _uuid_assertUuid(projectId_);
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/sessions/${projectId_}`, {
                method: "DELETE",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, `delete session ${projectId_} (${projectName})`, true);
            return res;
        });
    }
    async uploadCsv({ csvFile, fileName, inputKeys, outputKeys, description, dataType, name, }) {
        const url = `${this.apiUrl}/datasets/upload`;
        const formData = new FormData();
        const csvBlob = new Blob([csvFile], { type: "text/csv" });
        formData.append("file", csvBlob, fileName);
        inputKeys.forEach((key) => {
            formData.append("input_keys", key);
        });
        outputKeys.forEach((key) => {
            formData.append("output_keys", key);
        });
        if (description) {
            formData.append("description", description);
        }
        if (dataType) {
            formData.append("data_type", dataType);
        }
        if (name) {
            formData.append("name", name);
        }
        const response = await this.caller.call(async () => {
            const res = await this._fetch(url, {
                method: "POST",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: formData,
            });
            await raiseForStatus(res, "upload CSV");
            return res;
        });
        const result = await response.json();
        return result;
    }
    async createDataset(name, { description, dataType, inputsSchema, outputsSchema, metadata, tagValueIds, } = {}) {
        const body = {
            name,
            description,
            extra: { source: "sdk", ...(metadata ? { metadata } : {}) },
        };
        if (dataType) {
            body.data_type = dataType;
        }
        if (inputsSchema) {
            body.inputs_schema_definition = inputsSchema;
        }
        if (outputsSchema) {
            body.outputs_schema_definition = outputsSchema;
        }
        if (tagValueIds !== undefined) {
            body.tag_value_ids = tagValueIds;
        }
        const serializedBody = JSON.stringify(body);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/datasets`, {
                method: "POST",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: serializedBody,
            });
            await raiseForStatus(res, "create dataset");
            return res;
        });
        const result = await response.json();
        return result;
    }
    async readDataset({ datasetId, datasetName, }) {
        let path = "/datasets";
        // limit to 1 result
        const params = new URLSearchParams({ limit: "1" });
        if (datasetId && datasetName) {
            throw new Error("Must provide either datasetName or datasetId, not both");
        }
        else if (datasetId) {
            _uuid_assertUuid(datasetId);
            path += `/${datasetId}`;
        }
        else if (datasetName) {
            params.append("name", datasetName);
        }
        else {
            throw new Error("Must provide datasetName or datasetId");
        }
        const response = await this._get(path, params);
        let result;
        if (Array.isArray(response)) {
            if (response.length === 0) {
                throw new Error(`Dataset[id=${datasetId}, name=${datasetName}] not found`);
            }
            result = response[0];
        }
        else {
            result = response;
        }
        return result;
    }
    async hasDataset({ datasetId, datasetName, }) {
        try {
            await this.readDataset({ datasetId, datasetName });
            return true;
        }
        catch (e) {
            if (e instanceof Error &&
                e.message.toLocaleLowerCase().includes("not found")) {
                return false;
            }
            throw e;
        }
    }
    async diffDatasetVersions({ datasetId, datasetName, fromVersion, toVersion, }) {
        let datasetId_ = datasetId;
        if (datasetId_ === undefined && datasetName === undefined) {
            throw new Error("Must provide either datasetName or datasetId");
        }
        else if (datasetId_ !== undefined && datasetName !== undefined) {
            throw new Error("Must provide either datasetName or datasetId, not both");
        }
        else if (datasetId_ === undefined) {
            const dataset = await this.readDataset({ datasetName });
            datasetId_ = dataset.id;
        }
        const urlParams = new URLSearchParams({
            from_version: typeof fromVersion === "string"
                ? fromVersion
                : fromVersion.toISOString(),
            to_version: typeof toVersion === "string" ? toVersion : toVersion.toISOString(),
        });
        const response = await this._get(`/datasets/${datasetId_}/versions/diff`, urlParams);
        return response;
    }
    async readDatasetOpenaiFinetuning({ datasetId, datasetName, }) {
        const path = "/datasets";
        if (datasetId !== undefined) {
            // do nothing
        }
        else if (datasetName !== undefined) {
            datasetId = (await this.readDataset({ datasetName })).id;
        }
        else {
            throw new Error("Must provide either datasetName or datasetId");
        }
        const response = await this._getResponse(`${path}/${datasetId}/openai_ft`);
        const datasetText = await response.text();
        const dataset = datasetText
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line));
        return dataset;
    }
    async *listDatasets({ limit = 100, offset = 0, datasetIds, datasetName, datasetNameContains, metadata, } = {}) {
        const path = "/datasets";
        const params = new URLSearchParams({
            limit: limit.toString(),
            offset: offset.toString(),
        });
        if (datasetIds !== undefined) {
            for (const id_ of datasetIds) {
                params.append("id", id_);
            }
        }
        if (datasetName !== undefined) {
            params.append("name", datasetName);
        }
        if (datasetNameContains !== undefined) {
            params.append("name_contains", datasetNameContains);
        }
        if (metadata !== undefined) {
            params.append("metadata", JSON.stringify(metadata));
        }
        for await (const datasets of this._getPaginated(path, params)) {
            yield* datasets;
        }
    }
    /**
     * Update a dataset
     * @param props The dataset details to update
     * @returns The updated dataset
     */
    async updateDataset(props) {
        const { datasetId, datasetName, ...update } = props;
        if (!datasetId && !datasetName) {
            throw new Error("Must provide either datasetName or datasetId");
        }
        const _datasetId = datasetId ?? (await this.readDataset({ datasetName })).id;
        _uuid_assertUuid(_datasetId);
        const body = JSON.stringify(update);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/datasets/${_datasetId}`, {
                method: "PATCH",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "update dataset");
            return res;
        });
        return (await response.json());
    }
    /**
     * Updates a tag on a dataset.
     *
     * If the tag is already assigned to a different version of this dataset,
     * the tag will be moved to the new version. The as_of parameter is used to
     * determine which version of the dataset to apply the new tags to.
     *
     * It must be an exact version of the dataset to succeed. You can
     * use the "readDatasetVersion" method to find the exact version
     * to apply the tags to.
     * @param params.datasetId The ID of the dataset to update. Must be provided if "datasetName" is not provided.
     * @param params.datasetName The name of the dataset to update. Must be provided if "datasetId" is not provided.
     * @param params.asOf The timestamp of the dataset to apply the new tags to.
     * @param params.tag The new tag to apply to the dataset.
     */
    async updateDatasetTag(props) {
        const { datasetId, datasetName, asOf, tag } = props;
        if (!datasetId && !datasetName) {
            throw new Error("Must provide either datasetName or datasetId");
        }
        const _datasetId = datasetId ?? (await this.readDataset({ datasetName })).id;
        _uuid_assertUuid(_datasetId);
        const body = JSON.stringify({
            as_of: typeof asOf === "string" ? asOf : asOf.toISOString(),
            tag,
        });
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/datasets/${_datasetId}/tags`, {
                method: "PUT",
                headers: {
                    ...this._mergedHeaders,
                    "Content-Type": "application/json",
                },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "update dataset tags", true);
            return res;
        });
    }
    async deleteDataset({ datasetId, datasetName, }) {
        let path = "/datasets";
        let datasetId_ = datasetId;
        if (datasetId !== undefined && datasetName !== undefined) {
            throw new Error("Must provide either datasetName or datasetId, not both");
        }
        else if (datasetName !== undefined) {
            const dataset = await this.readDataset({ datasetName });
            datasetId_ = dataset.id;
        }
        if (datasetId_ !== undefined) {
            _uuid_assertUuid(datasetId_);
            path += `/${datasetId_}`;
        }
        else {
            throw new Error("Must provide datasetName or datasetId");
        }
        await this.caller.call(async () => {
            const res = await this._fetch(this.apiUrl + path, {
                method: "DELETE",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, `delete ${path}`, true);
            return res;
        });
    }
    async createExample(inputsOrUpdate, referenceOutputs, options) {
        if (isExampleCreate(inputsOrUpdate)) {
            if (referenceOutputs !== undefined || options !== undefined) {
                throw new Error("Cannot provide referenceOutputs or options when using ExampleCreate object");
            }
        }
        let datasetId_ = referenceOutputs
            ? options?.datasetId
            : inputsOrUpdate.dataset_id;
        const datasetName_ = referenceOutputs
            ? options?.datasetName
            : inputsOrUpdate.dataset_name;
        if (datasetId_ === undefined && datasetName_ === undefined) {
            throw new Error("Must provide either datasetName or datasetId");
        }
        else if (datasetId_ !== undefined && datasetName_ !== undefined) {
            throw new Error("Must provide either datasetName or datasetId, not both");
        }
        else if (datasetId_ === undefined) {
            const dataset = await this.readDataset({ datasetName: datasetName_ });
            datasetId_ = dataset.id;
        }
        const createdAt_ = (referenceOutputs ? options?.createdAt : inputsOrUpdate.created_at) ||
            new Date();
        let data;
        if (!isExampleCreate(inputsOrUpdate)) {
            data = {
                inputs: inputsOrUpdate,
                reference_outputs: referenceOutputs,
                created_at: createdAt_?.toISOString(),
                id: options?.exampleId,
                metadata: options?.metadata,
                split: options?.split,
                source_run_id: options?.sourceRunId,
                use_source_run_io: options?.useSourceRunIO,
                use_source_run_attachments: options?.useSourceRunAttachments,
                attachments: options?.attachments,
            };
        }
        else {
            data = inputsOrUpdate;
        }
        const response = await this._uploadExamplesMultipart(datasetId_, [data]);
        const example = await this.readExample(response.example_ids?.[0] ?? src_v4());
        return example;
    }
    async createExamples(propsOrUploads) {
        if (Array.isArray(propsOrUploads)) {
            if (propsOrUploads.length === 0) {
                return [];
            }
            const uploads = propsOrUploads;
            let datasetId_ = uploads[0].dataset_id;
            const datasetName_ = uploads[0].dataset_name;
            if (datasetId_ === undefined && datasetName_ === undefined) {
                throw new Error("Must provide either datasetName or datasetId");
            }
            else if (datasetId_ !== undefined && datasetName_ !== undefined) {
                throw new Error("Must provide either datasetName or datasetId, not both");
            }
            else if (datasetId_ === undefined) {
                const dataset = await this.readDataset({ datasetName: datasetName_ });
                datasetId_ = dataset.id;
            }
            const response = await this._uploadExamplesMultipart(datasetId_, uploads);
            const examples = await Promise.all(response.example_ids.map((id) => this.readExample(id)));
            return examples;
        }
        const { inputs, referenceOutputs, outputs, metadata, splits, sourceRunIds, useSourceRunIOs, useSourceRunAttachments, attachments, exampleIds, datasetId, datasetName, } = propsOrUploads;
        if (referenceOutputs !== undefined && outputs !== undefined) {
            throw new Error("Cannot specify both referenceOutputs and outputs");
        }
        if (inputs === undefined) {
            throw new Error("Must provide inputs when using legacy parameters");
        }
        let datasetId_ = datasetId;
        const datasetName_ = datasetName;
        if (datasetId_ === undefined && datasetName_ === undefined) {
            throw new Error("Must provide either datasetName or datasetId");
        }
        else if (datasetId_ !== undefined && datasetName_ !== undefined) {
            throw new Error("Must provide either datasetName or datasetId, not both");
        }
        else if (datasetId_ === undefined) {
            const dataset = await this.readDataset({ datasetName: datasetName_ });
            datasetId_ = dataset.id;
        }
        const formattedExamples = inputs.map((input, idx) => {
            return {
                dataset_id: datasetId_,
                inputs: input,
                reference_outputs: (referenceOutputs ?? outputs)?.[idx],
                metadata: metadata?.[idx],
                split: splits?.[idx],
                id: exampleIds?.[idx],
                attachments: attachments?.[idx],
                source_run_id: sourceRunIds?.[idx],
                use_source_run_io: useSourceRunIOs?.[idx],
                use_source_run_attachments: useSourceRunAttachments?.[idx],
            };
        });
        const response = await this._uploadExamplesMultipart(datasetId_, formattedExamples);
        const examples = await Promise.all(response.example_ids.map((id) => this.readExample(id)));
        return examples;
    }
    async createLLMExample(input, generation, options) {
        return this.createExample({ input }, { output: generation }, options);
    }
    async createChatExample(input, generations, options) {
        const finalInput = input.map((message) => {
            if (isLangChainMessage(message)) {
                return convertLangChainMessageToExample(message);
            }
            return message;
        });
        const finalOutput = isLangChainMessage(generations)
            ? convertLangChainMessageToExample(generations)
            : generations;
        return this.createExample({ input: finalInput }, { output: finalOutput }, options);
    }
    async readExample(exampleId) {
        _uuid_assertUuid(exampleId);
        const path = `/examples/${exampleId}`;
        const rawExample = await this._get(path);
        const { attachment_urls, ...rest } = rawExample;
        const example = rest;
        if (attachment_urls) {
            example.attachments = Object.entries(attachment_urls).reduce((acc, [key, value]) => {
                acc[key.slice("attachment.".length)] = {
                    presigned_url: new URL(value.presigned_url, this.apiUrl).href,
                    mime_type: value.mime_type,
                };
                return acc;
            }, {});
        }
        return example;
    }
    async *listExamples({ datasetId, datasetName, exampleIds, asOf, splits, inlineS3Urls, metadata, limit, offset, filter, includeAttachments, select, excludeDefaultFields, } = {}) {
        let datasetId_;
        if (datasetId !== undefined && datasetName !== undefined) {
            throw new Error("Must provide either datasetName or datasetId, not both");
        }
        else if (datasetId !== undefined) {
            datasetId_ = datasetId;
        }
        else if (datasetName !== undefined) {
            const dataset = await this.readDataset({ datasetName });
            datasetId_ = dataset.id;
        }
        else {
            throw new Error("Must provide a datasetName or datasetId");
        }
        const params = new URLSearchParams({ dataset: datasetId_ });
        const dataset_version = asOf
            ? typeof asOf === "string"
                ? asOf
                : asOf?.toISOString()
            : undefined;
        if (dataset_version) {
            params.append("as_of", dataset_version);
        }
        const inlineS3Urls_ = inlineS3Urls ?? true;
        params.append("inline_s3_urls", inlineS3Urls_.toString());
        if (exampleIds !== undefined) {
            for (const id_ of exampleIds) {
                params.append("id", id_);
            }
        }
        if (splits !== undefined) {
            for (const split of splits) {
                params.append("splits", split);
            }
        }
        if (metadata !== undefined) {
            const serializedMetadata = JSON.stringify(metadata);
            params.append("metadata", serializedMetadata);
        }
        if (limit !== undefined) {
            params.append("limit", limit.toString());
        }
        if (offset !== undefined) {
            params.append("offset", offset.toString());
        }
        if (filter !== undefined) {
            params.append("filter", filter);
        }
        const selectFields = new Set(select ?? []);
        if (includeAttachments === true) {
            for (const field of ["attachment_urls", "outputs", "metadata"]) {
                selectFields.add(field);
            }
        }
        for (const field of selectFields) {
            params.append("select", field);
        }
        if (excludeDefaultFields === true) {
            params.append("exclude_default_fields", "true");
        }
        let i = 0;
        for await (const rawExamples of this._getPaginated("/examples", params)) {
            for (const rawExample of rawExamples) {
                const { attachment_urls, ...rest } = rawExample;
                const example = rest;
                if (attachment_urls) {
                    example.attachments = Object.entries(attachment_urls).reduce((acc, [key, value]) => {
                        acc[key.slice("attachment.".length)] = {
                            presigned_url: new URL(value.presigned_url, this.apiUrl).href,
                            mime_type: value.mime_type || undefined,
                        };
                        return acc;
                    }, {});
                }
                yield example;
                i++;
            }
            if (limit !== undefined && i >= limit) {
                break;
            }
        }
    }
    async deleteExample(exampleId) {
        _uuid_assertUuid(exampleId);
        const path = `/examples/${exampleId}`;
        await this.caller.call(async () => {
            const res = await this._fetch(this.apiUrl + path, {
                method: "DELETE",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, `delete ${path}`, true);
            return res;
        });
    }
    /**
     * Delete multiple examples by ID.
     * @param exampleIds - The IDs of the examples to delete
     * @param options - Optional settings for deletion
     * @param options.hardDelete - If true, permanently delete examples. If false (default), soft delete them.
     */
    async deleteExamples(exampleIds, options) {
        // Validate all UUIDs
        exampleIds.forEach((id) => _uuid_assertUuid(id));
        if (options?.hardDelete) {
            // Hard delete uses POST to a different platform endpoint
            const path = this._getPlatformEndpointPath("datasets/examples/delete");
            await this.caller.call(async () => {
                const res = await this._fetch(`${this.apiUrl}${path}`, {
                    method: "POST",
                    headers: {
                        ...this._mergedHeaders,
                        "Content-Type": "application/json",
                    },
                    body: JSON.stringify({
                        example_ids: exampleIds,
                        hard_delete: true,
                    }),
                    signal: AbortSignal.timeout(this.timeout_ms),
                    ...this.fetchOptions,
                });
                await raiseForStatus(res, "hard delete examples", true);
                return res;
            });
        }
        else {
            // Soft delete uses DELETE with query params
            const params = new URLSearchParams();
            exampleIds.forEach((id) => params.append("example_ids", id));
            await this.caller.call(async () => {
                const res = await this._fetch(`${this.apiUrl}/examples?${params.toString()}`, {
                    method: "DELETE",
                    headers: this._mergedHeaders,
                    signal: AbortSignal.timeout(this.timeout_ms),
                    ...this.fetchOptions,
                });
                await raiseForStatus(res, "delete examples", true);
                return res;
            });
        }
    }
    async updateExample(exampleIdOrUpdate, update) {
        let exampleId;
        if (update) {
            exampleId = exampleIdOrUpdate;
        }
        else {
            exampleId = exampleIdOrUpdate.id;
        }
        _uuid_assertUuid(exampleId);
        let updateToUse;
        if (update) {
            updateToUse = { id: exampleId, ...update };
        }
        else {
            updateToUse = exampleIdOrUpdate;
        }
        let datasetId;
        if (updateToUse.dataset_id !== undefined) {
            datasetId = updateToUse.dataset_id;
        }
        else {
            const example = await this.readExample(exampleId);
            datasetId = example.dataset_id;
        }
        return this._updateExamplesMultipart(datasetId, [updateToUse]);
    }
    async updateExamples(update) {
        // We will naively get dataset id from first example and assume it works for all
        let datasetId;
        if (update[0].dataset_id === undefined) {
            const example = await this.readExample(update[0].id);
            datasetId = example.dataset_id;
        }
        else {
            datasetId = update[0].dataset_id;
        }
        return this._updateExamplesMultipart(datasetId, update);
    }
    /**
     * Get dataset version by closest date or exact tag.
     *
     * Use this to resolve the nearest version to a given timestamp or for a given tag.
     *
     * @param options The options for getting the dataset version
     * @param options.datasetId The ID of the dataset
     * @param options.datasetName The name of the dataset
     * @param options.asOf The timestamp of the dataset to retrieve
     * @param options.tag The tag of the dataset to retrieve
     * @returns The dataset version
     */
    async readDatasetVersion({ datasetId, datasetName, asOf, tag, }) {
        let resolvedDatasetId;
        if (!datasetId) {
            const dataset = await this.readDataset({ datasetName });
            resolvedDatasetId = dataset.id;
        }
        else {
            resolvedDatasetId = datasetId;
        }
        _uuid_assertUuid(resolvedDatasetId);
        if ((asOf && tag) || (!asOf && !tag)) {
            throw new Error("Exactly one of asOf and tag must be specified.");
        }
        const params = new URLSearchParams();
        if (asOf !== undefined) {
            params.append("as_of", typeof asOf === "string" ? asOf : asOf.toISOString());
        }
        if (tag !== undefined) {
            params.append("tag", tag);
        }
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/datasets/${resolvedDatasetId}/version?${params.toString()}`, {
                method: "GET",
                headers: { ...this._mergedHeaders },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "read dataset version");
            return res;
        });
        return await response.json();
    }
    async listDatasetSplits({ datasetId, datasetName, asOf, }) {
        let datasetId_;
        if (datasetId === undefined && datasetName === undefined) {
            throw new Error("Must provide dataset name or ID");
        }
        else if (datasetId !== undefined && datasetName !== undefined) {
            throw new Error("Must provide either datasetName or datasetId, not both");
        }
        else if (datasetId === undefined) {
            const dataset = await this.readDataset({ datasetName });
            datasetId_ = dataset.id;
        }
        else {
            datasetId_ = datasetId;
        }
        _uuid_assertUuid(datasetId_);
        const params = new URLSearchParams();
        const dataset_version = asOf
            ? typeof asOf === "string"
                ? asOf
                : asOf?.toISOString()
            : undefined;
        if (dataset_version) {
            params.append("as_of", dataset_version);
        }
        const response = await this._get(`/datasets/${datasetId_}/splits`, params);
        return response;
    }
    async updateDatasetSplits({ datasetId, datasetName, splitName, exampleIds, remove = false, }) {
        let datasetId_;
        if (datasetId === undefined && datasetName === undefined) {
            throw new Error("Must provide dataset name or ID");
        }
        else if (datasetId !== undefined && datasetName !== undefined) {
            throw new Error("Must provide either datasetName or datasetId, not both");
        }
        else if (datasetId === undefined) {
            const dataset = await this.readDataset({ datasetName });
            datasetId_ = dataset.id;
        }
        else {
            datasetId_ = datasetId;
        }
        _uuid_assertUuid(datasetId_);
        exampleIds.forEach((id) => _uuid_assertUuid(id));
        const url = `${this.apiUrl}${this._getPlatformEndpointPath(`datasets/${datasetId_}/examples/metadata`)}`;
        // Lowercase, because the endpoint first shipped accepting only lowercase
        // names and BYOC data planes on that version still do; later servers
        // accept either case.
        const operation = remove ? "array_remove" : "array_add";
        for (let start = 0; start < exampleIds.length; start += BULK_METADATA_MAX_EXAMPLE_IDS) {
            const body = JSON.stringify({
                example_ids: exampleIds.slice(start, start + BULK_METADATA_MAX_EXAMPLE_IDS),
                operations: [{ key: "dataset_split", operation, values: [splitName] }],
            });
            const routeMissing = await this.caller.call(async () => {
                const res = await this._fetch(url, {
                    method: "PATCH",
                    headers: {
                        ...this._mergedHeaders,
                        "Content-Type": "application/json",
                    },
                    signal: AbortSignal.timeout(this.timeout_ms),
                    ...this.fetchOptions,
                    body,
                });
                if (await isBulkMetadataRouteMissing(res)) {
                    return true;
                }
                await raiseForStatus(res, "update dataset splits", true);
                return false;
            });
            if (routeMissing) {
                // Older self-hosted servers lack the bulk metadata endpoint.
                await this._updateDatasetSplitsLegacy(datasetId_, splitName, exampleIds.slice(start), remove);
                return;
            }
        }
    }
    async _updateDatasetSplitsLegacy(datasetId, splitName, exampleIds, remove) {
        const body = JSON.stringify({
            split_name: splitName,
            examples: exampleIds,
            remove,
        });
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/datasets/${datasetId}/splits`, {
                method: "PUT",
                headers: {
                    ...this._mergedHeaders,
                    "Content-Type": "application/json",
                },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "update dataset splits", true);
            return res;
        });
    }
    async createFeedback(runIdOrParams, keyArg, optionsArg) {
        const { runId = null, key, score, value, correction, comment, sourceInfo, feedbackSourceType = "api", sourceRunId, feedbackId, feedbackConfig, projectId, traceId, comparativeExperimentId, sessionId, startTime, extendTraceRetention, address: rawAddress, } = typeof runIdOrParams === "object" && runIdOrParams !== null
            ? runIdOrParams
            : { runId: runIdOrParams, key: keyArg, ...optionsArg };
        const address = ensureAgent(rawAddress);
        rejectConflicting(sessionId ?? projectId, address);
        if (!runId && !projectId) {
            throw new Error("One of runId or projectId must be provided");
        }
        if (runId && projectId) {
            throw new Error("Only one of runId or projectId can be provided");
        }
        if (runId && sessionId === undefined && !address) {
            await this._checkFeedbackSessionId();
        }
        const feedback_source = {
            type: feedbackSourceType ?? "api",
            metadata: sourceInfo ?? {},
        };
        if (sourceRunId !== undefined &&
            feedback_source?.metadata !== undefined &&
            !feedback_source.metadata["__run"]) {
            feedback_source.metadata["__run"] = { run_id: sourceRunId };
        }
        if (feedback_source?.metadata !== undefined &&
            feedback_source.metadata["__run"]?.run_id !== undefined) {
            _uuid_assertUuid(feedback_source.metadata["__run"].run_id);
        }
        const feedback = {
            id: feedbackId ?? src_v7(),
            run_id: runId,
            trace_id: traceId,
            key,
            score: _formatFeedbackScore(score),
            value,
            correction,
            comment,
            feedback_source: feedback_source,
            comparative_experiment_id: comparativeExperimentId,
            feedbackConfig,
            session_id: sessionId ?? projectId,
            start_time: startTime,
            extend_trace_retention: extendTraceRetention,
        };
        const samplingId = traceId ?? runId;
        if (samplingId != null && !this._shouldSample(samplingId)) {
            return feedback;
        }
        const payload = address
            ? { ...feedback, address: addressToLrn(address) }
            : feedback;
        // Multipart feedback parts always extend trace retention, so feedback
        // that opts out keeps the direct endpoint. Multipart also requires a
        // run_id, so project-level feedback does too.
        if (runId &&
            traceId &&
            extendTraceRetention !== false &&
            (await this._canBatchFeedback())) {
            void this.processRunOperation({
                action: "feedback",
                item: {
                    ...payload,
                    // Multipart parses start_time as a timestamp string only.
                    start_time: typeof startTime === "number"
                        ? new Date(startTime).toISOString()
                        : startTime,
                },
            }).catch(console.error);
            return feedback;
        }
        await this._postFeedback(payload);
        return feedback;
    }
    async _canBatchFeedback() {
        if (!this.autoBatchTracing ||
            this.langSmithToOTELTranslator !== undefined ||
            this._multipartDisabled) {
            return false;
        }
        const serverInfo = await this._ensureServerInfo();
        return serverInfo?.batch_ingest_config?.use_multipart_endpoint ?? true;
    }
    async _postFeedback(feedback, options) {
        const headers = {
            ...this._mergedHeaders,
            "Content-Type": "application/json",
        };
        if (options?.apiKey !== undefined) {
            headers["x-api-key"] = options.apiKey;
        }
        this._applyReplicaWorkspace(headers, options);
        const body = JSON.stringify(feedback);
        await this.caller.call(async () => {
            const res = await this._fetch(`${options?.apiUrl ?? this.apiUrl}/feedback`, {
                method: "POST",
                headers,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "create feedback", true);
            return res;
        });
    }
    /** Sends batched feedback one request at a time when multipart is unavailable. */
    async _postFeedbacks(feedbacks, options) {
        await Promise.all(feedbacks.map((feedback) => this._postFeedback(feedback, options)));
    }
    /**
     * Update a feedback. Only the fields you pass are changed: pass `null` to
     * clear a field, or leave it `undefined` to keep its current value.
     * @param feedbackId - The ID of the feedback to update
     * @param options.score - The new score. Numbers are rounded to 4 decimal
     *   places, the most the API stores; the API rejects more precise scores
     *   sent to it directly.
     * @param options.value - The new value
     * @param options.correction - The new correction
     * @param options.comment - The new comment
     */
    async updateFeedback(feedbackId, { score, value, correction, comment, }) {
        const feedbackUpdate = {};
        if (score !== undefined) {
            feedbackUpdate["score"] = _formatFeedbackScore(score);
        }
        if (value !== undefined) {
            feedbackUpdate["value"] = value;
        }
        if (correction !== undefined) {
            feedbackUpdate["correction"] = correction;
        }
        if (comment !== undefined) {
            feedbackUpdate["comment"] = comment;
        }
        _uuid_assertUuid(feedbackId);
        const body = JSON.stringify(feedbackUpdate);
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/feedback/${feedbackId}`, {
                method: "PATCH",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "update feedback", true);
            return res;
        });
    }
    async readFeedback(feedbackId) {
        _uuid_assertUuid(feedbackId);
        const path = `/feedback/${feedbackId}`;
        const response = await this._get(path);
        return response;
    }
    async deleteFeedback(feedbackId) {
        _uuid_assertUuid(feedbackId);
        const path = `/feedback/${feedbackId}`;
        await this.caller.call(async () => {
            const res = await this._fetch(this.apiUrl + path, {
                method: "DELETE",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, `delete ${path}`, true);
            return res;
        });
    }
    async *listFeedback({ runIds, feedbackKeys, feedbackSourceTypes, } = {}) {
        const queryParams = new URLSearchParams();
        if (runIds) {
            for (const runId of runIds) {
                _uuid_assertUuid(runId);
                queryParams.append("run", runId);
            }
        }
        if (feedbackKeys) {
            for (const key of feedbackKeys) {
                queryParams.append("key", key);
            }
        }
        if (feedbackSourceTypes) {
            for (const type of feedbackSourceTypes) {
                queryParams.append("source", type);
            }
        }
        for await (const feedbacks of this._getPaginated("/feedback", queryParams)) {
            yield* feedbacks;
        }
    }
    /**
     * Creates a presigned feedback token and URL.
     *
     * The token can be used to authorize feedback metrics without
     * needing an API key. This is useful for giving browser-based
     * applications the ability to submit feedback without needing
     * to expose an API key.
     *
     * @param runId The ID of the run.
     * @param feedbackKey The feedback key.
     * @param options Additional options for the token.
     * @param options.expiration The expiration time for the token.
     *
     * @returns A promise that resolves to a FeedbackIngestToken.
     */
    async createPresignedFeedbackToken(runId, feedbackKey, { expiration, feedbackConfig, } = {}) {
        const body = {
            run_id: runId,
            feedback_key: feedbackKey,
            feedback_config: feedbackConfig,
        };
        if (expiration) {
            if (typeof expiration === "string") {
                body["expires_at"] = expiration;
            }
            else if (expiration?.hours || expiration?.minutes || expiration?.days) {
                body["expires_in"] = expiration;
            }
        }
        else {
            body["expires_in"] = {
                hours: 3,
            };
        }
        const serializedBody = JSON.stringify(body);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/feedback/tokens`, {
                method: "POST",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: serializedBody,
            });
            await raiseForStatus(res, "create presigned feedback token");
            return res;
        });
        return await response.json();
    }
    async createComparativeExperiment({ name, experimentIds, referenceDatasetId, createdAt, description, metadata, id, }) {
        if (experimentIds.length === 0) {
            throw new Error("At least one experiment is required");
        }
        if (!referenceDatasetId) {
            referenceDatasetId = (await this.readProject({
                projectId: experimentIds[0],
            })).reference_dataset_id;
        }
        if (!referenceDatasetId == null) {
            throw new Error("A reference dataset is required");
        }
        const body = {
            id,
            name,
            experiment_ids: experimentIds,
            reference_dataset_id: referenceDatasetId,
            description,
            created_at: (createdAt ?? new Date())?.toISOString(),
            extra: {},
        };
        if (metadata)
            body.extra["metadata"] = metadata;
        const serializedBody = JSON.stringify(body);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/datasets/comparative`, {
                method: "POST",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: serializedBody,
            });
            await raiseForStatus(res, "create comparative experiment");
            return res;
        });
        return response.json();
    }
    /**
     * Retrieves a list of presigned feedback tokens for a given run ID.
     * @param runId The ID of the run.
     * @returns An async iterable of FeedbackIngestToken objects.
     */
    async *listPresignedFeedbackTokens(runId) {
        _uuid_assertUuid(runId);
        const params = new URLSearchParams({ run_id: runId });
        for await (const tokens of this._getPaginated("/feedback/tokens", params)) {
            yield* tokens;
        }
    }
    _selectEvalResults(results) {
        let results_;
        if ("results" in results) {
            results_ = results.results;
        }
        else if (Array.isArray(results)) {
            results_ = results;
        }
        else {
            results_ = [results];
        }
        return results_;
    }
    async _logEvaluationFeedback(evaluatorResponse, run, sourceInfo, sessionId) {
        const evalResults = this._selectEvalResults(evaluatorResponse);
        const feedbacks = [];
        for (const res of evalResults) {
            let sourceInfo_ = sourceInfo || {};
            if (res.evaluatorInfo) {
                sourceInfo_ = { ...res.evaluatorInfo, ...sourceInfo_ };
            }
            let runId_ = null;
            if (res.targetRunId) {
                runId_ = res.targetRunId;
            }
            else if (run) {
                runId_ = run.id;
            }
            feedbacks.push(await this.createFeedback(runId_, res.key, {
                score: res.score,
                value: res.value,
                comment: res.comment,
                correction: res.correction,
                sourceInfo: sourceInfo_,
                sourceRunId: res.sourceRunId,
                feedbackConfig: res.feedbackConfig,
                feedbackSourceType: "model",
                sessionId: run?.session_id ?? sessionId,
                startTime: run?.start_time,
                // If an evaluator result targets a different run, we can't
                // guarantee to know its trace ID.
                traceId: runId_ === run?.id ? run?.trace_id : undefined,
            }));
        }
        return [evalResults, feedbacks];
    }
    async logEvaluationFeedback(evaluatorResponseOrParams, run, sourceInfo, sessionId) {
        if (evaluatorResponseOrParams != null &&
            typeof evaluatorResponseOrParams === "object" &&
            "evaluatorResponse" in evaluatorResponseOrParams) {
            const [results] = await this._logEvaluationFeedback(evaluatorResponseOrParams.evaluatorResponse, evaluatorResponseOrParams.run, evaluatorResponseOrParams.sourceInfo, evaluatorResponseOrParams.projectId);
            return results;
        }
        const [results] = await this._logEvaluationFeedback(evaluatorResponseOrParams, run, sourceInfo, sessionId);
        return results;
    }
    /**
     * API for managing feedback configs
     */
    /**
     * Create a feedback configuration on the LangSmith API.
     *
     * This upserts: if an identical config already exists, it returns it.
     * If a different config already exists for the key, the result depends on
     * the workspace: with enforced feedback configs on, the new config is added
     * next to the existing ones (unless the key has an enforced config, which
     * raises a 409); otherwise a 400 "Feedback config already exists" is raised.
     *
     * @param options - The options for creating a feedback config
     * @param options.feedbackKey - The unique key for this feedback config
     * @param options.feedbackConfig - The config specifying type, bounds, and categories
     * @param options.isLowerScoreBetter - Whether a lower score is better. When
     *   omitted, a key that already has configs keeps its direction, and a new
     *   key defaults to higher is better.
     * @param options.isEnforced - Create the key's enforced config, which sets
     *   the rules for the whole workspace. Requires the
     *   feedback-configs:manage-enforced permission, which workspace admins
     *   have. Fails if the key already has an enforced config.
     * @returns The created FeedbackConfigSchema object
     */
    async createFeedbackConfig(options) {
        const { feedbackKey, feedbackConfig, isLowerScoreBetter, isEnforced = false, } = options;
        // The direction is shared by every config of the key, so only send it
        // when the caller sets it; otherwise the key keeps its own.
        const body = {
            feedback_key: feedbackKey,
            feedback_config: feedbackConfig,
            is_enforced: isEnforced,
        };
        if (isLowerScoreBetter !== undefined) {
            body.is_lower_score_better = isLowerScoreBetter;
        }
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/feedback-configs`, {
                method: "POST",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: JSON.stringify(body),
            });
            await raiseForStatus(res, "create feedback config");
            return res;
        });
        return response.json();
    }
    /**
     * List feedback configurations on the LangSmith API.
     * @param options - The options for listing feedback configs
     * @param options.feedbackKeys - Filter by specific feedback keys
     * @param options.nameContains - Filter by name substring
     * @param options.limit - The maximum number of configs to return
     * @param options.includeAllConfigs - Return every config of each key,
     *   deleted ones included, instead of one config per key
     * @param options.isEnforced - Only enforced configs when true, only
     *   unenforced ones when false
     *
     * `includeAllConfigs` and `isEnforced` need LangSmith 0.18 or later on
     * self-hosted deployments.
     * @returns An async iterator of FeedbackConfigSchema objects
     */
    async *listFeedbackConfigs(options = {}) {
        const { feedbackKeys, nameContains, limit, includeAllConfigs, isEnforced } = options;
        const params = new URLSearchParams();
        if (feedbackKeys) {
            feedbackKeys.forEach((key) => {
                params.append("key", key);
            });
        }
        if (nameContains)
            params.append("name_contains", nameContains);
        if (includeAllConfigs)
            params.append("include_all_configs", "true");
        if (isEnforced !== undefined)
            params.append("is_enforced", isEnforced.toString());
        params.append("limit", (limit !== undefined ? Math.min(limit, 100) : 100).toString());
        let count = 0;
        for await (const configs of this._getPaginated("/feedback-configs", params)) {
            yield* configs;
            count += configs.length;
            if (limit !== undefined && count >= limit)
                break;
        }
    }
    /**
     * Update a feedback configuration on the LangSmith API.
     * @param feedbackKey - The key of the feedback config to update
     * @param options - The options for updating the feedback config
     * @param options.feedbackConfig - The new feedback config. Replaces the
     *   whole config, so include `allows_multiple_categories` to keep a
     *   multi-select tag multi-select.
     * @param options.isLowerScoreBetter - Whether a lower score is better
     * @param options.configId - The config to update, for keys with more than
     *   one. When omitted, the key's enforced config is updated, or else its
     *   first one, or else its most recently modified one. Self-hosted
     *   deployments need LangSmith 0.18 or later.
     * @returns The updated FeedbackConfigSchema object
     */
    async updateFeedbackConfig(feedbackKey, options = {}) {
        const { feedbackConfig, isLowerScoreBetter, configId } = options;
        const body = { feedback_key: feedbackKey };
        if (configId !== undefined) {
            body.id = _uuid_assertUuid(configId, "configId");
        }
        if (feedbackConfig !== undefined) {
            body.feedback_config = feedbackConfig;
        }
        if (isLowerScoreBetter !== undefined) {
            body.is_lower_score_better = isLowerScoreBetter;
        }
        return this._patchFeedbackConfig(body);
    }
    /**
     * Add categories to a categorical feedback config. The existing categories
     * and `allows_multiple_categories` are kept. Self-hosted deployments need
     * LangSmith 0.18 or later; older versions ignore the change and return the
     * config unchanged.
     * @param feedbackKey - The key of the feedback config to update
     * @param categories - The categories to add. Values and labels must not
     *   clash with existing ones.
     * @param options.configId - The config to update, for keys with more than
     *   one. When omitted, the key's enforced config is updated, or else its
     *   first one, or else its most recently modified one.
     * @returns The updated FeedbackConfigSchema object
     */
    async addFeedbackCategories(feedbackKey, categories, options = {}) {
        const body = {
            feedback_key: feedbackKey,
            add_categories: categories,
        };
        if (options.configId !== undefined) {
            body.id = _uuid_assertUuid(options.configId, "configId");
        }
        return this._patchFeedbackConfig(body);
    }
    /**
     * Remove categories from a categorical feedback config. Feedback already
     * written with a removed value is unchanged. The other categories and
     * `allows_multiple_categories` are kept. At least two categories must remain.
     * Self-hosted deployments need LangSmith 0.18 or later; older versions ignore
     * the change and return the config unchanged.
     * @param feedbackKey - The key of the feedback config to update
     * @param values - The values (not labels) of the categories to remove
     * @param options.configId - The config to update, for keys with more than
     *   one. When omitted, the key's enforced config is updated, or else its
     *   first one, or else its most recently modified one.
     * @returns The updated FeedbackConfigSchema object
     */
    async removeFeedbackCategories(feedbackKey, values, options = {}) {
        const body = {
            feedback_key: feedbackKey,
            remove_categories: values,
        };
        if (options.configId !== undefined) {
            body.id = _uuid_assertUuid(options.configId, "configId");
        }
        return this._patchFeedbackConfig(body);
    }
    async _patchFeedbackConfig(body) {
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/feedback-configs`, {
                method: "PATCH",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: JSON.stringify(body),
            });
            await raiseForStatus(res, "update feedback config");
            return res;
        });
        return response.json();
    }
    /**
     * Delete a feedback configuration on the LangSmith API. Pass a feedback
     * key to delete every config of that key, or `{ configId }` to delete one.
     * @param feedbackKey - The key of the feedback configs to delete
     * @param options.configId - Delete only this config instead. Self-hosted
     *   deployments need LangSmith 0.18 or later.
     */
    async deleteFeedbackConfig(feedbackKey, options = {}) {
        const { configId } = options;
        if ((feedbackKey === undefined) === (configId === undefined)) {
            throw new Error("Pass exactly one of feedbackKey or configId.");
        }
        const params = new URLSearchParams(configId !== undefined
            ? { id: _uuid_assertUuid(configId, "configId") }
            : { feedback_key: feedbackKey });
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/feedback-configs?${params}`, {
                method: "DELETE",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "delete feedback config", true);
            return res;
        });
    }
    /**
     * API for managing annotation queues
     */
    /**
     * List the annotation queues on the LangSmith API.
     * @param options - The options for listing annotation queues
     * @param options.queueIds - The IDs of the queues to filter by
     * @param options.name - The name of the queue to filter by
     * @param options.nameContains - The substring that the queue name should contain
     * @param options.limit - The maximum number of queues to return
     * @returns An iterator of AnnotationQueue objects
     */
    async *listAnnotationQueues(options = {}) {
        const { queueIds, name, nameContains, limit } = options;
        const params = new URLSearchParams();
        if (queueIds) {
            queueIds.forEach((id, i) => {
                _uuid_assertUuid(id, `queueIds[${i}]`);
                params.append("ids", id);
            });
        }
        if (name)
            params.append("name", name);
        if (nameContains)
            params.append("name_contains", nameContains);
        params.append("limit", (limit !== undefined ? Math.min(limit, 100) : 100).toString());
        let count = 0;
        for await (const queues of this._getPaginated("/annotation-queues", params)) {
            yield* queues;
            count++;
            if (limit !== undefined && count >= limit)
                break;
        }
    }
    /**
     * Create an annotation queue on the LangSmith API.
     * @param options - The options for creating an annotation queue
     * @param options.name - The name of the annotation queue
     * @param options.description - The description of the annotation queue
     * @param options.queueId - The ID of the annotation queue
     * @param options.rubricInstructions - Instructions shown to reviewers
     * @param options.rubricItems - The queue's rubric. Items read from another
     *   queue's `rubric_items` can be passed as-is to copy its rubric.
     * @returns The created queue. Its `rubric_items` is not filled in; call
     *   `readAnnotationQueue` to get the stored rubric.
     */
    async createAnnotationQueue(options) {
        const { name, description, queueId, rubricInstructions, rubricItems } = options;
        const body = {
            name,
            description,
            id: queueId || src_v4(),
            rubric_instructions: rubricInstructions,
            rubric_items: rubricItems,
        };
        const serializedBody = JSON.stringify(Object.fromEntries(Object.entries(body).filter(([_, v]) => v !== undefined)));
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/annotation-queues`, {
                method: "POST",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: serializedBody,
            });
            await raiseForStatus(res, "create annotation queue");
            return res;
        });
        return response.json();
    }
    /**
     * Read an annotation queue with the specified queue ID.
     * @param queueId - The ID of the annotation queue to read
     * @returns The AnnotationQueueWithDetails object, including its rubric
     *   items and the feedback config each one uses
     */
    async readAnnotationQueue(queueId) {
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/annotation-queues/${_uuid_assertUuid(queueId, "queueId")}`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "read annotation queue");
            return res;
        });
        return response.json();
    }
    /**
     * Update an annotation queue with the specified queue ID.
     * @param queueId - The ID of the annotation queue to update
     * @param options - The options for updating the annotation queue
     * @param options.name - The new name for the annotation queue
     * @param options.description - The new description for the annotation queue
     * @param options.rubricInstructions - Instructions shown to reviewers
     * @param options.rubricItems - The queue's rubric. Replaces the existing one.
     */
    async updateAnnotationQueue(queueId, options) {
        const { name, description, rubricInstructions, rubricItems } = options;
        const bodyObj = {};
        if (name !== undefined)
            bodyObj.name = name;
        if (description !== undefined)
            bodyObj.description = description;
        if (rubricInstructions !== undefined)
            bodyObj.rubric_instructions = rubricInstructions;
        if (rubricItems !== undefined)
            bodyObj.rubric_items = rubricItems;
        const body = JSON.stringify(bodyObj);
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/annotation-queues/${_uuid_assertUuid(queueId, "queueId")}`, {
                method: "PATCH",
                headers: {
                    ...this._mergedHeaders,
                    "Content-Type": "application/json",
                },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "update annotation queue", true);
            return res;
        });
    }
    /**
     * Delete an annotation queue with the specified queue ID.
     * @param queueId - The ID of the annotation queue to delete
     */
    async deleteAnnotationQueue(queueId) {
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/annotation-queues/${_uuid_assertUuid(queueId, "queueId")}`, {
                method: "DELETE",
                headers: { ...this._mergedHeaders, Accept: "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "delete annotation queue", true);
            return res;
        });
    }
    /**
     * Add runs to an annotation queue with the specified queue ID.
     *
     * The second argument is either:
     * - `RunKey[]` (preferred): each entry carries the run's full lookup key, so
     *   it can be located directly without a scan. Required for workspaces served
     *   by SmithDB; routes to `POST /runs/by-key`.
     * - `string[]`: a plain list of run IDs. **Deprecated**: this path will be
     *   removed after Jan 31, 2027; prefer the key form. Routes to `POST /runs`.
     *   See https://docs.langchain.com/langsmith/smithdb-sdk-migration-feedback#annotation-queues-add-runs.
     *
     * If every element is a string (or the list is empty) it is treated as run
     * IDs; otherwise the list is treated as `RunKey` objects.
     *
     * @param queueId - The ID of the annotation queue
     * @param runs - Either a list of run IDs (deprecated) or a list of run keys.
     */
    async addRunsToAnnotationQueue(queueId, runs) {
        const base = `${this.apiUrl}/annotation-queues/${_uuid_assertUuid(queueId, "queueId")}/runs`;
        // All strings (including empty) -> legacy /runs; otherwise treat as run keys.
        const allStrings = runs.every((r) => typeof r === "string");
        let url;
        let body;
        if (!allStrings) {
            url = `${base}/by-key`;
            body = JSON.stringify(runs.map((run, i) => {
                const serialized = {
                    run_id: _uuid_assertUuid(run.runId, `runs[${i}].runId`).toString(),
                    session_id: _uuid_assertUuid(run.sessionId, `runs[${i}].sessionId`).toString(),
                    start_time: typeof run.startTime === "string"
                        ? run.startTime
                        : new Date(run.startTime).toISOString(),
                };
                if (run.sourceProposedExampleId != null) {
                    serialized.source_proposed_example_id = _uuid_assertUuid(run.sourceProposedExampleId, `runs[${i}].sourceProposedExampleId`).toString();
                }
                return serialized;
            }));
        }
        else {
            warn_warnOnce("Passing run IDs as strings to addRunsToAnnotationQueue() is deprecated and will be removed after Jan 31, 2027. " +
                "Use RunKey[] instead. " +
                "See https://docs.langchain.com/langsmith/smithdb-sdk-migration-feedback#annotation-queues-add-runs for the migration guide.", {
                type: "DeprecationWarning",
                code: "LANGSMITH_DEPRECATED_ADD_RUNS_STRING_IDS",
            });
            url = base;
            body = JSON.stringify(runs.map((id, i) => _uuid_assertUuid(id, `runs[${i}]`).toString()));
        }
        await this.caller.call(async () => {
            const res = await this._fetch(url, {
                method: "POST",
                headers: {
                    ...this._mergedHeaders,
                    "Content-Type": "application/json",
                },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "add runs to annotation queue", true);
            return res;
        });
    }
    /**
     * Get a run from an annotation queue at the specified index.
     * @param queueId - The ID of the annotation queue
     * @param index - The index of the run to retrieve
     * @returns A Promise that resolves to a RunWithAnnotationQueueInfo object
     * @throws {Error} If the run is not found at the given index or for other API-related errors
     */
    async getRunFromAnnotationQueue(queueId, index) {
        const baseUrl = `/annotation-queues/${_uuid_assertUuid(queueId, "queueId")}/run`;
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}${baseUrl}/${index}`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "get run from annotation queue");
            return res;
        });
        const run = await response.json();
        return _normalizeRunTimestamps(run);
    }
    /**
     * List the runs in an annotation queue.
     * @param queueId - The ID of the annotation queue
     * @param options - The options for listing runs in the annotation queue
     * @param options.status - Filter runs by review status. If omitted, returns
     * runs across all review states.
     * @param options.limit - The maximum number of runs to return
     * @returns An iterator of RunWithAnnotationQueueInfo objects
     */
    async *listRunsFromAnnotationQueue(queueId, options = {}) {
        const { status, limit: userLimit } = options;
        const params = new URLSearchParams();
        const limit = userLimit !== undefined && Number.isFinite(userLimit)
            ? Math.min(userLimit, 100)
            : 100;
        if (status)
            params.append("status", status);
        params.append("limit", limit.toString());
        let count = 0;
        const path = `/annotation-queues/${_uuid_assertUuid(queueId, "queueId")}/runs`;
        for await (const runs of this._getPaginated(path, params)) {
            for (const run of runs) {
                yield _normalizeRunTimestamps(run);
                count++;
                if (count >= limit)
                    return;
            }
        }
    }
    /**
     * Delete a run from an an annotation queue.
     * @param queueId - The ID of the annotation queue to delete the run from
     * @param queueRunId - The ID of the run to delete from the annotation queue
     */
    async deleteRunFromAnnotationQueue(queueId, queueRunId) {
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/annotation-queues/${_uuid_assertUuid(queueId, "queueId")}/runs/${_uuid_assertUuid(queueRunId, "queueRunId")}`, {
                method: "DELETE",
                headers: { ...this._mergedHeaders, Accept: "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "delete run from annotation queue", true);
            return res;
        });
    }
    /**
     * Get the size of an annotation queue.
     * @param queueId - The ID of the annotation queue
     */
    async getSizeFromAnnotationQueue(queueId) {
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/annotation-queues/${_uuid_assertUuid(queueId, "queueId")}/size`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "get size from annotation queue");
            return res;
        });
        return response.json();
    }
    async _currentTenantIsOwner(owner) {
        const settings = await this._getSettings();
        return owner == "-" || settings.tenant_handle === owner;
    }
    async _ownerConflictError(action, owner) {
        const settings = await this._getSettings();
        return new Error(`Cannot ${action} for another tenant.\n
      Current tenant: ${settings.tenant_handle}\n
      Requested tenant: ${owner}`);
    }
    async _getLatestCommitHash(promptOwnerAndName) {
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/commits/${promptOwnerAndName}/?limit=${1}&offset=${0}`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "get latest commit hash");
            return res;
        });
        const json = await response.json();
        if (json.commits.length === 0) {
            return undefined;
        }
        return json.commits[0].commit_hash;
    }
    async _createCommitTags(promptOwnerAndName, commitId, tags) {
        const tagList = typeof tags === "string" ? [tags] : tags;
        await Promise.all(tagList.map(async (tag) => this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/repos/${promptOwnerAndName}/tags`, {
                method: "POST",
                headers: {
                    ...this._mergedHeaders,
                    "Content-Type": "application/json",
                },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: JSON.stringify({ tag_name: tag, commit_id: commitId }),
            });
            await raiseForStatus(res, "create commit tag");
            return res;
        })));
    }
    async _likeOrUnlikePrompt(promptIdentifier, like) {
        const [owner, promptName, _] = parseHubIdentifier(promptIdentifier);
        const body = JSON.stringify({ like: like });
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/likes/${owner}/${promptName}`, {
                method: "POST",
                headers: {
                    ...this._mergedHeaders,
                    "Content-Type": "application/json",
                },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, `${like ? "like" : "unlike"} prompt`);
            return res;
        });
        return response.json();
    }
    async _getPromptUrl(promptIdentifier) {
        const [owner, promptName, commitHash] = parseHubIdentifier(promptIdentifier);
        if (!(await this._currentTenantIsOwner(owner))) {
            if (commitHash !== "latest") {
                return `${this.getHostUrl()}/hub/${owner}/${promptName}/${commitHash.substring(0, 8)}`;
            }
            else {
                return `${this.getHostUrl()}/hub/${owner}/${promptName}`;
            }
        }
        else {
            const settings = await this._getSettings();
            if (commitHash !== "latest") {
                return `${this.getHostUrl()}/prompts/${promptName}/${commitHash.substring(0, 8)}?organizationId=${settings.id}`;
            }
            else {
                return `${this.getHostUrl()}/prompts/${promptName}?organizationId=${settings.id}`;
            }
        }
    }
    /**
     * Check if a prompt exists.
     * @param promptIdentifier - The identifier of the prompt. Can be in the format:
     *   - "promptName" (for private prompts, owner defaults to "-")
     *   - "owner/promptName" (for prompts with explicit owner)
     * @returns A Promise that resolves to true if the prompt exists, false otherwise
     * @example
     * ```typescript
     * // Check if a prompt exists before creating a commit
     * if (await client.promptExists("my-prompt")) {
     *   await client.createCommit("my-prompt", template);
     * } else {
     *   await client.createPrompt("my-prompt");
     * }
     * ```
     */
    async promptExists(promptIdentifier) {
        const prompt = await this.getPrompt(promptIdentifier);
        return !!prompt;
    }
    /**
     * Like a prompt.
     * @param promptIdentifier - The identifier of the prompt. Can be in the format:
     *   - "promptName" (for private prompts, owner defaults to "-")
     *   - "owner/promptName" (for prompts with explicit owner)
     * @returns A Promise that resolves to the like response containing the updated like count
     * @example
     * ```typescript
     * // Like a prompt
     * const response = await client.likePrompt("owner/useful-prompt");
     * console.log(`Prompt now has ${response.likes} likes`);
     * ```
     */
    async likePrompt(promptIdentifier) {
        return this._likeOrUnlikePrompt(promptIdentifier, true);
    }
    /**
     * Unlike a prompt (remove a previously added like).
     * @param promptIdentifier - The identifier of the prompt. Can be in the format:
     *   - "promptName" (for private prompts, owner defaults to "-")
     *   - "owner/promptName" (for prompts with explicit owner)
     * @returns A Promise that resolves to the like response containing the updated like count
     * @example
     * ```typescript
     * // Unlike a prompt
     * const response = await client.unlikePrompt("owner/useful-prompt");
     * console.log(`Prompt now has ${response.likes} likes`);
     * ```
     */
    async unlikePrompt(promptIdentifier) {
        return this._likeOrUnlikePrompt(promptIdentifier, false);
    }
    /**
     * List all commits for a prompt.
     * @param promptIdentifier - The identifier of the prompt. Can be in the format:
     *   - "promptName" (for private prompts, owner defaults to "-")
     *   - "owner/promptName" (for prompts with explicit owner)
     *   - "promptName:commitHash" (commit hash is ignored, all commits are returned)
     * @returns An async iterable iterator of PromptCommit objects
     * @example
     * ```typescript
     * // List commits for a private prompt
     * for await (const commit of client.listCommits("my-prompt")) {
     *   console.log(commit);
     * }
     *
     * // List commits for a prompt with explicit owner
     * for await (const commit of client.listCommits("owner/my-prompt")) {
     *   console.log(commit);
     * }
     * ```
     */
    async *listCommits(promptIdentifier) {
        const [owner, promptName, _] = parseHubIdentifier(promptIdentifier);
        for await (const commits of this._getPaginated(`/commits/${owner}/${promptName}/`, new URLSearchParams(), (res) => res.commits)) {
            yield* commits;
        }
    }
    /**
     * List prompts by filter.
     * @param options - Optional filters for listing prompts
     * @param options.isPublic - Filter by public/private prompts. If undefined, returns all prompts.
     * @param options.isArchived - Filter by archived status. Defaults to false (non-archived prompts only).
     * @param options.sortField - Field to sort by. Defaults to "updated_at".
     * @param options.query - Search query to filter prompts by name or description.
     * @returns An async iterable iterator of Prompt objects
     * @example
     * ```typescript
     * // List all prompts
     * for await (const prompt of client.listPrompts()) {
     *   console.log(prompt);
     * }
     *
     * // List only public prompts
     * for await (const prompt of client.listPrompts({ isPublic: true })) {
     *   console.log(prompt);
     * }
     *
     * // Search for prompts
     * for await (const prompt of client.listPrompts({ query: "translation" })) {
     *   console.log(prompt);
     * }
     * ```
     */
    async *listPrompts(options) {
        const params = new URLSearchParams();
        params.append("sort_field", options?.sortField ?? "updated_at");
        params.append("sort_direction", "desc");
        params.append("is_archived", (!!options?.isArchived).toString());
        if (options?.isPublic !== undefined) {
            params.append("is_public", options.isPublic.toString());
        }
        if (options?.query) {
            params.append("query", options.query);
        }
        for await (const prompts of this._getPaginated("/repos", params, (res) => res.repos)) {
            yield* prompts;
        }
    }
    /**
     * Get a prompt by its identifier.
     * @param promptIdentifier - The identifier of the prompt. Can be in the format:
     *   - "promptName" (for private prompts, owner defaults to "-")
     *   - "owner/promptName" (for prompts with explicit owner)
     *   - "promptName:commitHash" (commit hash is ignored, latest version is returned)
     * @returns A Promise that resolves to the Prompt object, or null if not found
     * @example
     * ```typescript
     * // Get a private prompt
     * const prompt = await client.getPrompt("my-prompt");
     *
     * // Get a public prompt
     * const publicPrompt = await client.getPrompt("owner/public-prompt");
     * ```
     */
    async getPrompt(promptIdentifier) {
        const [owner, promptName, _] = parseHubIdentifier(promptIdentifier);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/repos/${owner}/${promptName}`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            if (res?.status === 404) {
                return null;
            }
            await raiseForStatus(res, "get prompt");
            return res;
        });
        const result = await response?.json();
        if (result?.repo) {
            return result.repo;
        }
        else {
            return null;
        }
    }
    /**
     * Create a new prompt.
     * @param promptIdentifier - The identifier for the new prompt. Can be in the format:
     *   - "promptName" (creates a private prompt)
     *   - "owner/promptName" (creates a prompt under a specific owner, must match your tenant)
     * @param options - Optional configuration for the prompt
     * @param options.description - A description of the prompt
     * @param options.readme - Markdown content for the prompt's README
     * @param options.tags - Array of tags to categorize the prompt
     * @param options.isPublic - Whether the prompt should be public. Requires a LangChain Hub handle.
     * @returns A Promise that resolves to the created Prompt object
     * @throws {Error} If creating a public prompt without a LangChain Hub handle, or if owner doesn't match current tenant
     * @example
     * ```typescript
     * // Create a private prompt
     * const prompt = await client.createPrompt("my-new-prompt", {
     *   description: "A prompt for translations",
     *   tags: ["translation", "language"]
     * });
     *
     * // Create a public prompt
     * const publicPrompt = await client.createPrompt("my-public-prompt", {
     *   description: "A public translation prompt",
     *   isPublic: true
     * });
     * ```
     */
    async createPrompt(promptIdentifier, options) {
        const settings = await this._getSettings();
        if (options?.isPublic && !settings.tenant_handle) {
            throw new Error(`Cannot create a public prompt without first\n
        creating a LangChain Hub handle.
        You can add a handle by creating a public prompt at:\n
        https://smith.langchain.com/prompts`);
        }
        const [owner, promptName, _] = parseHubIdentifier(promptIdentifier);
        if (!(await this._currentTenantIsOwner(owner))) {
            throw await this._ownerConflictError("create a prompt", owner);
        }
        const data = {
            repo_handle: promptName,
            ...(options?.description && { description: options.description }),
            ...(options?.readme && { readme: options.readme }),
            ...(options?.tags && { tags: options.tags }),
            is_public: !!options?.isPublic,
        };
        const body = JSON.stringify(data);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/repos/`, {
                method: "POST",
                headers: { ...this._mergedHeaders, "Content-Type": "application/json" },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "create prompt");
            return res;
        });
        const { repo } = await response.json();
        return repo;
    }
    /**
     * Create a new commit for an existing prompt.
     * @param promptIdentifier - The identifier of the prompt. Can be in the format:
     *   - "promptName" (for private prompts, owner defaults to "-")
     *   - "owner/promptName" (for prompts with explicit owner)
     * @param object - The prompt object/manifest to commit (e.g., ChatPromptTemplate, messages array, etc.)
     * @param options - Optional configuration for the commit
     * @param options.parentCommitHash - The parent commit hash. Defaults to "latest" (the most recent commit).
     * @param options.tags - A tag or list of tags to apply to the commit.
     * @param options.description - A description for the commit.
     * @returns A Promise that resolves to the URL of the newly created commit
     * @throws {Error} If the prompt does not exist
     * @example
     * ```typescript
     * import { ChatPromptTemplate } from "@langchain/core/prompts";
     *
     * // Create a commit with a new version of the prompt
     * const template = ChatPromptTemplate.fromMessages([
     *   ["system", "You are a helpful assistant."],
     *   ["human", "{input}"]
     * ]);
     *
     * const commitUrl = await client.createCommit("my-prompt", template);
     * console.log(`Commit created: ${commitUrl}`);
     *
     * // Create a commit with tags
     * const commitUrl2 = await client.createCommit("my-prompt", template, {
     *   tags: ["production", "v1"]
     * });
     * ```
     */
    async createCommit(promptIdentifier, object, options) {
        if (!(await this.promptExists(promptIdentifier))) {
            throw new Error("Prompt does not exist, you must create it first.");
        }
        const [owner, promptName, _] = parseHubIdentifier(promptIdentifier);
        const resolvedParentCommitHash = options?.parentCommitHash === "latest" || !options?.parentCommitHash
            ? await this._getLatestCommitHash(`${owner}/${promptName}`)
            : options?.parentCommitHash;
        const payload = {
            manifest: JSON.parse(JSON.stringify(object)),
            parent_commit: resolvedParentCommitHash,
            ...(options?.description !== undefined && {
                description: options.description,
            }),
        };
        const body = JSON.stringify(payload);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/commits/${owner}/${promptName}`, {
                method: "POST",
                headers: {
                    ...this._mergedHeaders,
                    "Content-Type": "application/json",
                },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "create commit");
            return res;
        });
        const result = await response.json();
        const commit = result.commit ?? result;
        if (options?.tags) {
            await this._createCommitTags(`${owner}/${promptName}`, commit.id, options.tags);
        }
        return this._getPromptUrl(`${owner}/${promptName}${commit.commit_hash ? `:${commit.commit_hash}` : ""}`);
    }
    /**
     * Update examples with attachments using multipart form data.
     * @param updates List of ExampleUpdateWithAttachments objects to upsert
     * @returns Promise with the update response
     */
    async updateExamplesMultipart(datasetId, updates = []) {
        return this._updateExamplesMultipart(datasetId, updates);
    }
    async _updateExamplesMultipart(datasetId, updates = []) {
        if (!(await this._getDatasetExamplesMultiPartSupport())) {
            throw new Error("Your LangSmith deployment does not allow using the multipart examples endpoint, please upgrade your deployment to the latest version.");
        }
        const formData = new FormData();
        for (const example of updates) {
            const exampleId = example.id;
            // Prepare the main example body
            const exampleBody = {
                ...(example.metadata && { metadata: example.metadata }),
                ...(example.split && { split: example.split }),
            };
            // Add main example data
            const stringifiedExample = serialize(exampleBody, `Serializing body for example with id: ${exampleId}`);
            const exampleBlob = new Blob([stringifiedExample], {
                type: "application/json",
            });
            formData.append(exampleId, exampleBlob);
            // Add inputs if present
            if (example.inputs) {
                const stringifiedInputs = serialize(example.inputs, `Serializing inputs for example with id: ${exampleId}`);
                const inputsBlob = new Blob([stringifiedInputs], {
                    type: "application/json",
                });
                formData.append(`${exampleId}.inputs`, inputsBlob);
            }
            // Add outputs if present
            if (example.outputs) {
                const stringifiedOutputs = serialize(example.outputs, `Serializing outputs whle updating example with id: ${exampleId}`);
                const outputsBlob = new Blob([stringifiedOutputs], {
                    type: "application/json",
                });
                formData.append(`${exampleId}.outputs`, outputsBlob);
            }
            // Add attachments if present
            if (example.attachments) {
                for (const [name, attachment] of Object.entries(example.attachments)) {
                    let mimeType;
                    let data;
                    if (Array.isArray(attachment)) {
                        [mimeType, data] = attachment;
                    }
                    else {
                        mimeType = attachment.mimeType;
                        data = attachment.data;
                    }
                    const attachmentBlob = new Blob([data], {
                        type: `${mimeType}; length=${data.byteLength}`,
                    });
                    formData.append(`${exampleId}.attachment.${name}`, attachmentBlob);
                }
            }
            if (example.attachments_operations) {
                const stringifiedAttachmentsOperations = serialize(example.attachments_operations, `Serializing attachments while updating example with id: ${exampleId}`);
                const attachmentsOperationsBlob = new Blob([stringifiedAttachmentsOperations], {
                    type: "application/json",
                });
                formData.append(`${exampleId}.attachments_operations`, attachmentsOperationsBlob);
            }
        }
        const datasetIdToUse = datasetId ?? updates[0]?.dataset_id;
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}${this._getPlatformEndpointPath(`datasets/${datasetIdToUse}/examples`)}`, {
                method: "PATCH",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: formData,
            });
            await raiseForStatus(res, "update examples");
            return res;
        });
        return response.json();
    }
    /**
     * Upload examples with attachments using multipart form data.
     * @param uploads List of ExampleUploadWithAttachments objects to upload
     * @returns Promise with the upload response
     * @deprecated This method is deprecated and will be removed in future LangSmith versions, please use `createExamples` instead
     */
    async uploadExamplesMultipart(datasetId, uploads = []) {
        return this._uploadExamplesMultipart(datasetId, uploads);
    }
    async _uploadExamplesMultipart(datasetId, uploads = []) {
        for (const example of uploads) {
            getExampleReferenceOutputs(example);
        }
        if (!(await this._getDatasetExamplesMultiPartSupport())) {
            throw new Error("Your LangSmith deployment does not allow using the multipart examples endpoint, please upgrade your deployment to the latest version.");
        }
        const formData = new FormData();
        for (const example of uploads) {
            const exampleId = (example.id ?? src_v4()).toString();
            // Prepare the main example body
            const exampleBody = {
                created_at: example.created_at,
                ...(example.metadata && { metadata: example.metadata }),
                ...(example.split && { split: example.split }),
                ...(example.source_run_id && { source_run_id: example.source_run_id }),
                ...(example.use_source_run_io && {
                    use_source_run_io: example.use_source_run_io,
                }),
                ...(example.use_source_run_attachments && {
                    use_source_run_attachments: example.use_source_run_attachments,
                }),
            };
            // Add main example data
            const stringifiedExample = serialize(exampleBody, `Serializing body for uploaded example with id: ${exampleId}`);
            const exampleBlob = new Blob([stringifiedExample], {
                type: "application/json",
            });
            formData.append(exampleId, exampleBlob);
            // Add inputs if present
            if (example.inputs) {
                const stringifiedInputs = serialize(example.inputs, `Serializing inputs for uploaded example with id: ${exampleId}`);
                const inputsBlob = new Blob([stringifiedInputs], {
                    type: "application/json",
                });
                formData.append(`${exampleId}.inputs`, inputsBlob);
            }
            // The multipart wire format retains the existing outputs part name.
            const referenceOutputs = getExampleReferenceOutputs(example);
            if (referenceOutputs !== undefined) {
                const stringifiedOutputs = serialize(referenceOutputs, `Serializing outputs for uploaded example with id: ${exampleId}`);
                const outputsBlob = new Blob([stringifiedOutputs], {
                    type: "application/json",
                });
                formData.append(`${exampleId}.outputs`, outputsBlob);
            }
            // Add attachments if present
            if (example.attachments) {
                for (const [name, attachment] of Object.entries(example.attachments)) {
                    let mimeType;
                    let data;
                    if (Array.isArray(attachment)) {
                        [mimeType, data] = attachment;
                    }
                    else {
                        mimeType = attachment.mimeType;
                        data = attachment.data;
                    }
                    const attachmentBlob = new Blob([data], {
                        type: `${mimeType}; length=${data.byteLength}`,
                    });
                    formData.append(`${exampleId}.attachment.${name}`, attachmentBlob);
                }
            }
        }
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}${this._getPlatformEndpointPath(`datasets/${datasetId}/examples`)}`, {
                method: "POST",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: formData,
            });
            await raiseForStatus(res, "upload examples");
            return res;
        });
        return response.json();
    }
    async updatePrompt(promptIdentifier, options) {
        if (!(await this.promptExists(promptIdentifier))) {
            throw new Error("Prompt does not exist, you must create it first.");
        }
        const [owner, promptName] = parseHubIdentifier(promptIdentifier);
        if (!(await this._currentTenantIsOwner(owner))) {
            throw await this._ownerConflictError("update a prompt", owner);
        }
        const payload = {};
        if (options?.description !== undefined)
            payload.description = options.description;
        if (options?.readme !== undefined)
            payload.readme = options.readme;
        if (options?.tags !== undefined)
            payload.tags = options.tags;
        if (options?.isPublic !== undefined)
            payload.is_public = options.isPublic;
        if (options?.isArchived !== undefined)
            payload.is_archived = options.isArchived;
        // Check if payload is empty
        if (Object.keys(payload).length === 0) {
            throw new Error("No valid update options provided");
        }
        const body = JSON.stringify(payload);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/repos/${owner}/${promptName}`, {
                method: "PATCH",
                headers: {
                    ...this._mergedHeaders,
                    "Content-Type": "application/json",
                },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body,
            });
            await raiseForStatus(res, "update prompt");
            return res;
        });
        return response.json();
    }
    async deletePrompt(promptIdentifier) {
        if (!(await this.promptExists(promptIdentifier))) {
            throw new Error("Prompt does not exist, you must create it first.");
        }
        const [owner, promptName, _] = parseHubIdentifier(promptIdentifier);
        if (!(await this._currentTenantIsOwner(owner))) {
            throw await this._ownerConflictError("delete a prompt", owner);
        }
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/repos/${owner}/${promptName}`, {
                method: "DELETE",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "delete prompt", true);
            return res;
        });
    }
    /**
     * Generate a cache key for a prompt.
     * Format: "{identifier}" or "{identifier}:with_model"
     */
    _getPromptCacheKey(promptIdentifier, includeModel) {
        const suffix = includeModel ? ":with_model" : "";
        return `${promptIdentifier}${suffix}`;
    }
    /**
     * Fetch a prompt commit directly from the API (bypassing cache).
     */
    async _fetchPromptFromApi(promptIdentifier, options) {
        const [owner, promptName, commitHash] = parseHubIdentifier(promptIdentifier);
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/commits/${owner}/${promptName}/${commitHash}${options?.includeModel ? "?include_model=true" : ""}`, {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "pull prompt commit");
            return res;
        });
        const result = await response.json();
        return {
            owner,
            repo: promptName,
            commit_hash: result.commit_hash,
            manifest: result.manifest,
            examples: result.examples,
            hub_model_config: result.model_config,
            hub_model_provider: result.model_provider,
        };
    }
    /**
     * Pull a prompt commit from the LangSmith API.
     *
     * Public prompts referenced by owner/name cross a trust boundary because the
     * prompt manifest may contain serialized LangChain objects and configuration
     * that affect runtime behavior. For example, a prompt can intentionally
     * configure a model with a custom base URL, headers, model name, or other
     * constructor arguments. These are supported features, but they also mean the
     * prompt contents should be treated as executable configuration rather than
     * plain text.
     *
     * Set `dangerouslyPullPublicPrompt: true` only after reviewing and trusting
     * the prompt contents, not merely the publishing account. Prompts from your
     * own or your organization's account can still be unsafe if that account or
     * prompt was compromised.
     *
     * When pulling a trusted external prompt, prefer pinning to a specific commit
     * rather than following a mutable latest version. Using `includeModel: true`
     * increases risk and should be avoided for public prompts or prompts outside
     * your own organization.
     */
    async pullPromptCommit(promptIdentifier, options) {
        assertPullPublicPromptAllowed(promptIdentifier, options?.dangerouslyPullPublicPrompt);
        // Check cache first if not skipped
        const refreshFunc = this._fetchPromptFromApi.bind(this, promptIdentifier, options);
        if (!options?.skipCache && this._promptCache) {
            const cacheKey = this._getPromptCacheKey(promptIdentifier, options?.includeModel);
            const cached = this._promptCache.get(cacheKey, refreshFunc);
            if (cached) {
                return cached;
            }
            // Cache miss - fetch from API and cache it
            const result = await refreshFunc();
            this._promptCache.set(cacheKey, result, refreshFunc);
            return result;
        }
        // No cache or skip cache - fetch directly
        return this._fetchPromptFromApi(promptIdentifier, options);
    }
    /**
     * This method should not be used directly, use `import { pull } from "langchain/hub"` instead.
     * Using this method directly returns the JSON string of the prompt rather than a LangChain object.
     *
     * Public prompts referenced by owner/name cross a trust boundary because the
     * prompt manifest may contain serialized LangChain objects and configuration
     * that affect runtime behavior. For example, a prompt can intentionally
     * configure a model with a custom base URL, headers, model name, or other
     * constructor arguments. These are supported features, but they also mean the
     * prompt contents should be treated as executable configuration rather than
     * plain text.
     *
     * Set `dangerouslyPullPublicPrompt: true` only after reviewing and trusting
     * the prompt contents, not merely the publishing account. Prompts from your
     * own or your organization's account can still be unsafe if that account or
     * prompt was compromised.
     *
     * When pulling a trusted external prompt, prefer pinning to a specific commit
     * rather than following a mutable latest version. Using `includeModel: true`
     * increases risk and should be avoided for public prompts or prompts outside
     * your own organization.
     * @private
     */
    async _pullPrompt(promptIdentifier, options) {
        const promptObject = await this.pullPromptCommit(promptIdentifier, {
            includeModel: options?.includeModel,
            skipCache: options?.skipCache,
            dangerouslyPullPublicPrompt: options?.dangerouslyPullPublicPrompt,
        });
        const prompt = JSON.stringify(promptObject.manifest);
        return prompt;
    }
    async pushPrompt(promptIdentifier, options) {
        // Create or update prompt metadata
        if (await this.promptExists(promptIdentifier)) {
            if (options &&
                ["description", "readme", "tags", "isPublic"].some((key) => options[key] !== undefined)) {
                await this.updatePrompt(promptIdentifier, {
                    description: options?.description,
                    readme: options?.readme,
                    tags: options?.tags,
                    isPublic: options?.isPublic,
                });
            }
        }
        else {
            await this.createPrompt(promptIdentifier, {
                description: options?.description,
                readme: options?.readme,
                tags: options?.tags,
                isPublic: options?.isPublic,
            });
        }
        if (!options?.object) {
            return await this._getPromptUrl(promptIdentifier);
        }
        // Create a commit with the new manifest
        const url = await this.createCommit(promptIdentifier, options?.object, {
            parentCommitHash: options?.parentCommitHash,
            tags: options?.commitTags,
            description: options?.commitDescription,
        });
        return url;
    }
    /**
     * Check if an agent repo exists.
     */
    async agentExists(identifier) {
        const [owner, name] = parseHubIdentifier(identifier);
        return this._repoExists(owner, name);
    }
    /**
     * Check if a skill repo exists.
     */
    async skillExists(identifier) {
        const [owner, name] = parseHubIdentifier(identifier);
        return this._repoExists(owner, name);
    }
    /**
     * Pull an agent directory from Hub.
     * @param identifier The identifier (owner/name[:version]).
     * @param options.version Commit hash or tag; overrides identifier's version.
     */
    async pullAgent(identifier, options) {
        return (await this._pullDirectory(identifier, "agent", options?.version));
    }
    /**
     * Pull a skill directory from Hub.
     */
    async pullSkill(identifier, options) {
        return (await this._pullDirectory(identifier, "skill", options?.version));
    }
    /**
     * Push an agent to Hub. Creates the repo if missing, patches metadata if
     * provided, then commits the given files.
     * @returns The URL of the resulting commit.
     */
    async pushAgent(identifier, options) {
        return this._pushDirectory(identifier, "agent", options);
    }
    /**
     * Push a skill to Hub.
     */
    async pushSkill(identifier, options) {
        return this._pushDirectory(identifier, "skill", options);
    }
    /**
     * Delete an agent and all its owned child file repos.
     */
    async deleteAgent(identifier) {
        return this._deleteDirectory(identifier);
    }
    /**
     * Delete a skill and all its owned child file repos.
     */
    async deleteSkill(identifier) {
        return this._deleteDirectory(identifier);
    }
    /**
     * List agent repos. Yields one at a time, auto-paginating.
     */
    async *listAgents(options) {
        yield* this._listReposByType("agent", options);
    }
    /**
     * List skill repos. Yields one at a time, auto-paginating.
     */
    async *listSkills(options) {
        yield* this._listReposByType("skill", options);
    }
    async *_listReposByType(repoType, options) {
        const params = new URLSearchParams();
        params.append("repo_type", repoType);
        params.append("is_archived", (!!options?.isArchived).toString());
        if (options?.isPublic !== undefined) {
            params.append("is_public", options.isPublic.toString());
        }
        if (options?.query) {
            params.append("query", options.query);
        }
        for await (const repos of this._getPaginated("/repos", params, (res) => res.repos)) {
            yield* repos;
        }
    }
    async _pullDirectory(identifier, repoType, version) {
        const [owner, name, parsedVersion] = parseHubIdentifier(identifier);
        const resolvedVersion = version ?? (parsedVersion !== "latest" ? parsedVersion : undefined);
        const url = new URL(`${this.apiUrl}${this._getPlatformEndpointPath(`hub/repos/${owner}/${name}/directories`)}`);
        url.searchParams.set("repo_type", repoType);
        if (resolvedVersion) {
            url.searchParams.set("commit", resolvedVersion);
        }
        const response = await this.caller.call(async () => {
            const res = await this._fetch(url.toString(), {
                method: "GET",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "pull directory");
            return res;
        });
        return (await response.json());
    }
    async _pushDirectory(identifier, repoType, options) {
        if (options.parentCommit !== undefined &&
            (options.parentCommit.length < 8 || options.parentCommit.length > 64)) {
            throw new Error("parent_commit must be 8-64 characters");
        }
        const [owner, name] = parseHubIdentifier(identifier);
        if (!(await this._currentTenantIsOwner(owner))) {
            throw await this._ownerConflictError(`push ${repoType}`, owner);
        }
        if (await this._repoExists(owner, name)) {
            if (options.description !== undefined ||
                options.readme !== undefined ||
                options.tags !== undefined ||
                options.isPublic !== undefined) {
                await this._updateRepoMetadata(owner, name, options);
            }
        }
        else {
            const REPO_HANDLE_PATTERN = /^[a-z][a-z0-9-_]*$/;
            if (!REPO_HANDLE_PATTERN.test(name)) {
                throw new Error(`Invalid repo_handle ${JSON.stringify(name)}: must match ${REPO_HANDLE_PATTERN}`);
            }
            await this._createRepo(name, repoType, options);
        }
        const body = { files: options.files };
        if (options.parentCommit) {
            body.parent_commit = options.parentCommit;
        }
        const response = await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}${this._getPlatformEndpointPath(`hub/repos/${owner}/${name}/directories/commits`)}`, {
                method: "POST",
                headers: {
                    ...this._mergedHeaders,
                    "Content-Type": "application/json",
                },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: JSON.stringify(body),
            });
            await raiseForStatus(res, `push ${repoType}`);
            return res;
        });
        const data = (await response.json());
        const commitHash = data.commit.commit_hash;
        const settings = await this._getSettings();
        const query = new URLSearchParams({ organizationId: settings.id });
        return `${this.getHostUrl()}/context/${name}/${commitHash.slice(0, 8)}?${query.toString()}`;
    }
    async _deleteDirectory(identifier) {
        const [owner, name] = parseHubIdentifier(identifier);
        if (!(await this._currentTenantIsOwner(owner))) {
            throw await this._ownerConflictError("delete", owner);
        }
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}${this._getPlatformEndpointPath(`hub/repos/${owner}/${name}/directories`)}`, {
                method: "DELETE",
                headers: this._mergedHeaders,
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
            });
            await raiseForStatus(res, "delete directory");
            return res;
        });
    }
    async _repoExists(owner, name) {
        try {
            await this.caller.call(async () => {
                const res = await this._fetch(`${this.apiUrl}/repos/${owner}/${name}`, {
                    method: "GET",
                    headers: this._mergedHeaders,
                    signal: AbortSignal.timeout(this.timeout_ms),
                    ...this.fetchOptions,
                });
                await raiseForStatus(res, "check repo exists");
                return res;
            });
            return true;
        }
        catch (e) {
            if (isLangSmithNotFoundError(e)) {
                return false;
            }
            throw e;
        }
    }
    async _createRepo(name, repoType, options) {
        const body = {
            repo_handle: name,
            repo_type: repoType,
            is_public: !!options.isPublic,
        };
        if (options.description !== undefined)
            body.description = options.description;
        if (options.readme !== undefined)
            body.readme = options.readme;
        if (options.tags !== undefined)
            body.tags = options.tags;
        try {
            await this.caller.call(async () => {
                const res = await this._fetch(`${this.apiUrl}/repos/`, {
                    method: "POST",
                    headers: {
                        ...this._mergedHeaders,
                        "Content-Type": "application/json",
                    },
                    signal: AbortSignal.timeout(this.timeout_ms),
                    ...this.fetchOptions,
                    body: JSON.stringify(body),
                });
                await raiseForStatus(res, `create ${repoType}`);
                return res;
            });
        }
        catch (e) {
            if (isLangSmithConflictError(e)) {
                return;
            }
            throw e;
        }
    }
    async _updateRepoMetadata(owner, name, options) {
        const body = {};
        if (options.description !== undefined)
            body.description = options.description;
        if (options.readme !== undefined)
            body.readme = options.readme;
        if (options.tags !== undefined)
            body.tags = options.tags;
        if (options.isPublic !== undefined)
            body.is_public = options.isPublic;
        if (Object.keys(body).length === 0)
            return;
        await this.caller.call(async () => {
            const res = await this._fetch(`${this.apiUrl}/repos/${owner}/${name}`, {
                method: "PATCH",
                headers: {
                    ...this._mergedHeaders,
                    "Content-Type": "application/json",
                },
                signal: AbortSignal.timeout(this.timeout_ms),
                ...this.fetchOptions,
                body: JSON.stringify(body),
            });
            await raiseForStatus(res, "update repo metadata");
            return res;
        });
    }
    /**
     * Clone a public dataset to your own langsmith tenant.
     * This operation is idempotent. If you already have a dataset with the given name,
     * this function will do nothing.
  
     * @param {string} tokenOrUrl The token of the public dataset to clone.
     * @param {Object} [options] Additional options for cloning the dataset.
     * @param {string} [options.sourceApiUrl] The URL of the langsmith server where the data is hosted. Defaults to the API URL of your current client.
     * @param {string} [options.datasetName] The name of the dataset to create in your tenant. Defaults to the name of the public dataset.
     * @returns {Promise<void>}
     */
    async clonePublicDataset(tokenOrUrl, options = {}) {
        const { sourceApiUrl = this.apiUrl, datasetName } = options;
        const [parsedApiUrl, tokenUuid] = this.parseTokenOrUrl(tokenOrUrl, sourceApiUrl);
        const sourceClient = new Client({
            apiUrl: parsedApiUrl,
            // Placeholder API key not needed anymore in most cases, but
            // some private deployments may have API key-based rate limiting
            // that would cause this to fail if we provide no value.
            apiKey: "placeholder",
        });
        const ds = await sourceClient.readSharedDataset(tokenUuid);
        const finalDatasetName = datasetName || ds.name;
        try {
            if (await this.hasDataset({ datasetId: finalDatasetName })) {
                console.log(`Dataset ${finalDatasetName} already exists in your tenant. Skipping.`);
                return;
            }
        }
        catch (_) {
            // `.hasDataset` will throw an error if the dataset does not exist.
            // no-op in that case
        }
        // Fetch examples first, then create the dataset
        const examples = await sourceClient.listSharedExamples(tokenUuid);
        const dataset = await this.createDataset(finalDatasetName, {
            description: ds.description,
            dataType: ds.data_type || "kv",
            inputsSchema: ds.inputs_schema_definition ?? undefined,
            outputsSchema: ds.outputs_schema_definition ?? undefined,
        });
        try {
            await this.createExamples({
                inputs: examples.map((e) => e.inputs),
                outputs: examples.flatMap((e) => (e.outputs ? [e.outputs] : [])),
                datasetId: dataset.id,
            });
        }
        catch (e) {
            console.error(`An error occurred while creating dataset ${finalDatasetName}. ` +
                "You should delete it manually.");
            throw e;
        }
    }
    parseTokenOrUrl(urlOrToken, apiUrl, numParts = 2, kind = "dataset") {
        // Try parsing as UUID
        try {
            _uuid_assertUuid(urlOrToken); // Will throw if it's not a UUID.
            return [apiUrl, urlOrToken];
        }
        catch (_) {
            // no-op if it's not a uuid
        }
        // Parse as URL
        try {
            const parsedUrl = new URL(urlOrToken);
            const pathParts = parsedUrl.pathname
                .split("/")
                .filter((part) => part !== "");
            if (pathParts.length >= numParts) {
                const tokenUuid = pathParts[pathParts.length - numParts];
                return [apiUrl, tokenUuid];
            }
            else {
                throw new Error(`Invalid public ${kind} URL: ${urlOrToken}`);
            }
        }
        catch (_error) {
            throw new Error(`Invalid public ${kind} URL or token: ${urlOrToken}`);
        }
    }
    /**
     * Cleanup resources held by the client.
     * Stops the cache's background refresh timer.
     */
    cleanup() {
        if (this._promptCache) {
            this._promptCache.stop();
        }
    }
    /**
     * Awaits all pending trace batches. Useful for environments where
     * you need to be sure that all tracing requests finish before execution ends,
     * such as serverless environments.
     *
     * @example
     * ```
     * import { Client } from "langsmith";
     *
     * const client = new Client();
     *
     * try {
     *   // Tracing happens here
     *   ...
     * } finally {
     *   await client.awaitPendingTraceBatches();
     * }
     * ```
     *
     * @returns A promise that resolves once all currently pending traces have sent.
     */
    async awaitPendingTraceBatches() {
        if (this.manualFlushMode) {
            console.warn("[WARNING]: When tracing in manual flush mode, you must call `await client.flush()` manually to submit trace batches.");
            return Promise.resolve();
        }
        /**
         * traceables use a backgrounded promise before updating runs to avoid blocking
         * and to allow waiting for child runs to end. Waiting a small amount of time
         * here ensures that they are able to enqueue their run operation before we await
         * queued run operations below:
         *
         * ```ts
         * const run = await traceable(async () => {
         *   return "Hello, world!";
         * }, { client })();
         *
         * await client.awaitPendingTraceBatches();
         * ```
         */
        await new Promise((resolve) => setTimeout(resolve, 1));
        // Wait for any in-flight drains (whose serialize work may still be
        // in-progress on a worker thread and not yet registered with the
        // batchIngestCaller queue) before checking queue idleness.
        while (this._pendingDrains.size > 0) {
            await Promise.all([...this._pendingDrains]);
        }
        // Send open gzip buffers now. Twice, to catch runs queued during the
        // first send.
        for (let pass = 0; pass < 2; pass++) {
            clearTimeout(this._compressedFlushTimeout);
            this._compressedFlushTimeout = undefined;
            await this._flushCompressedBuffers();
            while (this._pendingDrains.size > 0) {
                await Promise.all([...this._pendingDrains]);
            }
        }
        await Promise.all([
            ...this.autoBatchQueue.items.map(({ itemPromise }) => itemPromise),
            this.batchIngestCaller.queue.onIdle(),
        ]);
        if (this.langSmithToOTELTranslator !== undefined) {
            await getDefaultOTLPTracerComponents()?.DEFAULT_LANGSMITH_SPAN_PROCESSOR?.forceFlush();
        }
    }
    /**
     * Returns a string representation of the Client instance.
     * This method is called when the object is converted to a string
     * or logged, ensuring sensitive information like API keys is not exposed.
     *
     * @returns A string representation of the Client.
     */
    toString() {
        const params = [`apiUrl=${JSON.stringify(this.apiUrl)}`];
        if (this.webUrl !== undefined) {
            params.push(`webUrl=${JSON.stringify(this.webUrl)}`);
        }
        if (this.workspaceId !== undefined) {
            params.push(`workspaceId=${JSON.stringify(this.workspaceId)}`);
        }
        return `[LangSmithClient ${params.join(" ")}]`;
    }
    /**
     * Custom inspect method for Node.js.
     * This method is called when the object is inspected in the Node.js REPL
     * or with console.log, ensuring sensitive information like API keys is not exposed.
     *
     * @returns A string representation of the Client for inspection.
     */
    [Symbol.for("nodejs.util.inspect.custom")]() {
        return this.toString();
    }
}
Object.defineProperty(Client, "_fallbackDirsCreated", {
    enumerable: true,
    configurable: true,
    writable: true,
    value: new Set()
});
function isExampleCreate(input) {
    return "dataset_id" in input || "dataset_name" in input;
}
function getExampleReferenceOutputs(example) {
    if (example.reference_outputs !== undefined &&
        example.outputs !== undefined) {
        throw new Error("Cannot specify both reference_outputs and outputs");
    }
    return example.reference_outputs ?? example.outputs;
}


/***/ })

};
