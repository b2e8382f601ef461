// The driver of a JavaScript run: a module QuickJS-NG evaluates before anything else. It gives
// the program the part of Node.js that programs judged on standard input and test programs use
// (console, process, require of fs, readline, assert and util, timers, Buffer), runs the program
// as a classic script in the global scope, then the harness of the run's mode, then the event
// loop until nothing is pending, as Node does before it exits.
//
// The run's inputs come as `scriptArgs`: the program, the mode (`stdin`, `calls` or `check`),
// the nonce, the mode's payload (JSON) and the source of Node's `util.inspect`. The driver ends
// standard output with a record, `\n` + nonce + JSON, that the host strips: how the program
// ended and what the harness found. The program never sees the nonce, so it cannot forge one;
// everything the record depends on is captured here before the program runs.
import * as std from 'qjs:std';
import * as os from 'qjs:os';

const [program, mode, nonce, payload, inspectSource] = scriptArgs;
delete globalThis.scriptArgs;

const { apply, defineProperty, getPrototypeOf, ownKeys } = Reflect;
const { is, keys: objectKeys, prototype: ObjectPrototype } = Object;
const { isArray } = Array;
const isFiniteNumber = Number.isFinite;
const stringify = JSON.stringify;
const parse = JSON.parse;
const FunctionConstructor = Function;
const PromiseConstructor = Promise;
const MapConstructor = Map;
const SetConstructor = Set;
const DateConstructor = Date;
const RegExpConstructor = RegExp;
const ErrorConstructor = Error;
const SyntaxErrorConstructor = SyntaxError;
const evalScript = std.evalScript;
const stdout = std.out;
const stderr = std.err;
const { puts, flush } = getPrototypeOf(stdout);
const exitProcess = std.exit;
const setHostTimeout = os.setTimeout;
const now = DateConstructor.now;

const promiseThen = PromiseConstructor.prototype.then;
const resolved = PromiseConstructor.resolve();

const write = (file, text) => apply(puts, file, [text]);
const sleep = (ms) => new PromiseConstructor((resolve) => setHostTimeout(resolve, ms));

// Resolves once no promise job is pending, as Node runs every microtask before the next
// macrotask. QuickJS-NG's loop runs one job, then polls (its timers, then its read and write
// handlers), and again; a timer cannot wait for the queue to empty (it fires within a chain of
// jobs, after at least a millisecond, sleeping between jobs until then). A write handler on
// standard output, which is always ready, runs at every poll, that is after every job: it queues
// a marker job behind whatever is pending and looks at the next poll, one job later, whether that
// job was the marker. If it was, nothing else was pending; otherwise it probes again once the
// marker has run. It resolves at the poll after that, once QuickJS has seen the empty queue,
// which is when it reports an unhandled rejection (exit status 1, as Node).
const setWriteHandler = os.setWriteHandler;
function quiet() {
    return new PromiseConstructor((resolve) => {
        let phase = 'probe';
        let markerRan = false;
        let first = true;
        setWriteHandler(1, () => {
            if (phase === 'probe') {
                phase = 'check';
                markerRan = false;
                first = true;
                apply(promiseThen, resolved, [() => (markerRan = true)]);
            } else if (phase === 'check') {
                if (!markerRan) first = false;
                else phase = first ? 'done' : 'probe';
            } else {
                setWriteHandler(1, null);
                resolve();
            }
        });
    });
}

// ---- Formatting: Node's util.format, from node-inspect-extracted, loaded on first need ----

let inspectModule;
function util() {
    if (inspectModule === undefined) {
        // The extracted inspect reads the properties of every built-in namespace; QuickJS-NG's
        // WASI build has no `Atomics`.
        const lacksAtomics = !('Atomics' in globalThis);
        if (lacksAtomics) globalThis.Atomics = {};
        try {
            const module = { exports: {} };
            // It tells URL objects apart; QuickJS-NG has no URL, so nothing is one.
            new FunctionConstructor('exports', 'module', 'URL', inspectSource)(module.exports, module, class URL {});
            inspectModule = module.exports;
        } finally {
            if (lacksAtomics) delete globalThis.Atomics;
        }
    }
    return inspectModule;
}

// What `util.format` prints as `String(value)` does; anything else goes through inspect.
const plainPrintable = (value) =>
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    value === undefined ||
    value === null ||
    (typeof value === 'number' && !is(value, -0));

function format(args) {
    if (args.every(plainPrintable) && !(typeof args[0] === 'string' && args[0].includes('%'))) {
        return args.map(String).join(' ');
    }
    return util().format(...args);
}

// ---- Errors as Node prints them, and how the run ended ----

class AssertionError extends ErrorConstructor {
    constructor(options = {}) {
        super(options.message ?? 'Failed');
        this.name = 'AssertionError';
        this.code = 'ERR_ASSERTION';
        this.actual = options.actual;
        this.expected = options.expected;
        this.operator = options.operator;
        this.generatedMessage = options.message === undefined;
    }
}

function describe(error) {
    try {
        if (error instanceof ErrorConstructor) {
            const stack = typeof error.stack === 'string' ? error.stack : '';
            return `${error.name}: ${error.message}\n${stack}`;
        }
        return `Uncaught ${util().inspect(error)}`;
    } catch {
        return 'Uncaught exception';
    }
}

function errorName(error) {
    try {
        return error instanceof ErrorConstructor ? String(error.name) : typeof error;
    } catch {
        return 'Error';
    }
}

// Whether `source` fails to parse as a script (the error of a run that never started).
function unparsable(source) {
    try {
        evalScript(source, { compile_only: true });
        return false;
    } catch (error) {
        return error instanceof SyntaxErrorConstructor;
    }
}

// What the host reads, built from null-prototype objects and written by `toJson`, so that a
// program that poisons the built-in prototypes (a setter on Object.prototype, a throwing
// toJSON or array iterator) cannot stop the run from being reported.
const record = { __proto__: null, exit: 0 };

// JSON of plain data the driver built: null-prototype or plain objects, arrays, strings,
// finite numbers, booleans; no toJSON, no iterator, no inherited property is consulted.
function toJson(value) {
    if (value === null || value === undefined) return 'null';
    const kind = typeof value;
    if (kind === 'string' || kind === 'boolean') return stringify(value);
    if (kind === 'number') return isFiniteNumber(value) ? stringify(value) : 'null';
    let out;
    if (isArray(value)) {
        out = '[';
        for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + toJson(value[i]);
        return out + ']';
    }
    out = '{';
    const names = ownKeys(value);
    for (let i = 0; i < names.length; i++) {
        const name = names[i];
        if (typeof name !== 'string' || value[name] === undefined) continue;
        out += (out.length > 1 ? ',' : '') + stringify(name) + ':' + toJson(value[name]);
    }
    return out + '}';
}

function finish(code) {
    record.exit = code;
    write(stdout, `\n${nonce}${toJson(record)}`);
    apply(flush, stdout, []);
    apply(flush, stderr, []);
    exitProcess(code);
}

function fail(error, stage) {
    write(stderr, `${describe(error)}\n`);
    record.exception = errorName(error);
    record.compile_error = stage === 'program' && record.exception === 'SyntaxError' && unparsable(program);
    finish(1);
}

// ---- Timers and the event loop ----

// process.nextTick callbacks: run when the current macrotask (the program, a timer, an input
// event) returns, before the promise jobs it queued, as Node runs them; from a promise job,
// at the next microtask.
let ticks = [];
let tickScheduled = false;
function runTicks() {
    tickScheduled = false;
    while (ticks.length > 0) {
        const batch = ticks;
        ticks = [];
        for (let i = 0; i < batch.length; i++) batch[i]();
    }
}

// Pending timers by id, in a null-prototype object: no method a program could replace.
const timers = { __proto__: null };
let timerSeq = 0;
let immediateQueue = [];
let stdinTasks = [];

// The pending timers in a binary heap by due time, then sequence number, so that finding the
// next one costs a logarithm of their number rather than a scan of them all. An entry holds the
// timer and the (due, seq) it was pushed with; one whose timer has since been cleared, fired or
// rescheduled (a repeat, `refresh`) no longer matches it and is dropped when it reaches the top.
const timerHeap = [];

const entryBefore = (a, b) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

function pushTimer(timer) {
    const entry = { __proto__: null, timer, due: timer.due, seq: timer.seq };
    let at = timerHeap.length;
    while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!entryBefore(entry, timerHeap[parent])) break;
        timerHeap[at] = timerHeap[parent];
        at = parent;
    }
    timerHeap[at] = entry;
}

function popEntry() {
    const last = timerHeap[timerHeap.length - 1];
    timerHeap.length -= 1;
    const size = timerHeap.length;
    if (size === 0) return;
    let at = 0;
    for (;;) {
        let child = 2 * at + 1;
        if (child >= size) break;
        if (child + 1 < size && entryBefore(timerHeap[child + 1], timerHeap[child])) child += 1;
        if (!entryBefore(timerHeap[child], last)) break;
        timerHeap[at] = timerHeap[child];
        at = child;
    }
    timerHeap[at] = last;
}

const current = (entry) => {
    const timer = entry.timer;
    return timers[timer.id] === timer && timer.due === entry.due && timer.seq === entry.seq;
};

class Timeout {
    constructor(id) {
        this.id = id;
    }
    ref() {
        return this;
    }
    unref() {
        return this;
    }
    hasRef() {
        return true;
    }
    refresh() {
        const timer = timers[this.id];
        const due = timer ? now() + timer.delay : 0;
        if (timer && due !== timer.due) {
            timer.due = due;
            pushTimer(timer);
        }
        return this;
    }
    [Symbol.toPrimitive]() {
        return this.id;
    }
}

function addTimer(fn, delay, args, repeat) {
    if (typeof fn !== 'function') {
        throw new TypeError(`The "callback" argument must be of type function. Received ${typeof fn}`);
    }
    delay = Number(delay);
    if (!(delay >= 1 && delay <= 2147483647)) delay = 1;
    const id = ++timerSeq;
    const timer = { __proto__: null, id, fn, args, delay, repeat, due: now() + delay, seq: id };
    timers[id] = timer;
    pushTimer(timer);
    return new Timeout(id);
}

const clearTimer = (timer) => {
    if (timer !== undefined && timer !== null) delete timers[typeof timer === 'object' ? timer.id : Number(timer)];
};

const timerGlobals = {
    setTimeout: (fn, delay, ...args) => addTimer(fn, delay, args, false),
    setInterval: (fn, delay, ...args) => addTimer(fn, delay, args, true),
    clearTimeout: clearTimer,
    clearInterval: clearTimer,
    setImmediate: (fn, ...args) => {
        const immediate = { fn, args, cleared: false };
        immediateQueue.push(immediate);
        return immediate;
    },
    clearImmediate: (immediate) => {
        if (immediate) immediate.cleared = true;
    },
};

// The pending timer that fires first, or undefined.
function earliestTimer() {
    while (timerHeap.length > 0) {
        const entry = timerHeap[0];
        if (current(entry)) return entry.timer;
        popEntry();
    }
    return undefined;
}

// Runs what the program left pending, phase by phase as Node's event loop does (due timers,
// then input events, then immediates, with the microtasks drained after every callback), and
// waits for the next timer when nothing else is left; returns when nothing is pending.
async function eventLoop() {
    for (;;) {
        await quiet();
        let ran = false;
        // The timers due when the phase starts (Node's timers have a granularity of a millisecond).
        const phase = now() + 1;
        for (;;) {
            const timer = earliestTimer();
            if (!timer || timer.due > phase) break;
            popEntry();
            if (timer.repeat) {
                timer.due = now() + timer.delay;
                timer.seq = ++timerSeq;
                pushTimer(timer);
            } else {
                delete timers[timer.id];
            }
            apply(timer.fn, undefined, timer.args);
            runTicks();
            await quiet();
            ran = true;
        }
        if (stdinTasks.length > 0) {
            const tasks = stdinTasks;
            stdinTasks = [];
            for (let i = 0; i < tasks.length; i++) {
                tasks[i]();
                runTicks();
            }
            ran = true;
        }
        if (immediateQueue.length > 0) {
            const queue = immediateQueue;
            immediateQueue = [];
            for (let i = 0; i < queue.length; i++) {
                const immediate = queue[i];
                if (immediate.cleared) continue;
                apply(immediate.fn, undefined, immediate.args);
                runTicks();
            }
            ran = true;
        }
        if (ran) continue;
        const next = earliestTimer();
        if (!next) return;
        await sleep(Math.max(0, next.due - now()));
    }
}

// ---- Standard input, Buffer, fs and readline ----

let stdinText;
const readStdin = () => (stdinText ??= std.in.readAsString() ?? '');

function utf8Encode(text) {
    const bytes = [];
    for (const char of String(text)) {
        let code = char.codePointAt(0);
        if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
        if (code < 0x80) bytes.push(code);
        else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
        else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
        else {
            bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
        }
    }
    return bytes;
}

function utf8Decode(bytes, start = 0, end = bytes.length) {
    let text = '';
    for (let i = start; i < end; ) {
        const byte = bytes[i];
        let code;
        let size;
        if (byte < 0x80) [code, size] = [byte, 1];
        else if (byte >> 5 === 6) [code, size] = [byte & 31, 2];
        else if (byte >> 4 === 14) [code, size] = [byte & 15, 3];
        else if (byte >> 3 === 30) [code, size] = [byte & 7, 4];
        else [code, size] = [0xfffd, 1];
        if (size > 1) {
            if (i + size > end) [code, size] = [0xfffd, end - i];
            else for (let k = 1; k < size; k++) code = (code << 6) | (bytes[i + k] & 63);
        }
        text += String.fromCodePoint(code > 0x10ffff ? 0xfffd : code);
        i += size;
    }
    return text;
}

class Buffer extends Uint8Array {
    static from(value, encoding) {
        if (typeof value === 'string') return Buffer.fromBytes(encoding === 'latin1' || encoding === 'binary'
            ? [...value].map((c) => c.charCodeAt(0) & 255)
            : utf8Encode(value));
        return Buffer.fromBytes(value);
    }
    static fromBytes(bytes) {
        const buffer = new Buffer(bytes.length);
        buffer.set(bytes);
        return buffer;
    }
    static alloc(size, fill = 0) {
        return new Buffer(size).fill(typeof fill === 'number' ? fill : 0);
    }
    static allocUnsafe(size) {
        return new Buffer(size);
    }
    static isBuffer(value) {
        return value instanceof Buffer;
    }
    static byteLength(value) {
        return typeof value === 'string' ? utf8Encode(value).length : value.byteLength;
    }
    static concat(list, total) {
        total ??= list.reduce((sum, b) => sum + b.length, 0);
        const buffer = Buffer.alloc(total);
        let offset = 0;
        for (const b of list) {
            buffer.set(b.subarray(0, Math.max(0, total - offset)), offset);
            offset += b.length;
            if (offset >= total) break;
        }
        return buffer;
    }
    toString(encoding, start = 0, end = this.length) {
        if (encoding === 'latin1' || encoding === 'binary' || encoding === 'ascii') {
            let text = '';
            for (let i = start; i < end; i++) text += String.fromCharCode(this[i]);
            return text;
        }
        if (encoding === 'hex') return [...this.subarray(start, end)].map((b) => b.toString(16).padStart(2, '0')).join('');
        return utf8Decode(this, start, end);
    }
    toJSON() {
        return { type: 'Buffer', data: [...this] };
    }
    equals(other) {
        return this.length === other.length && this.every((b, i) => b === other[i]);
    }
}

const encodingOf = (options) => (typeof options === 'string' ? options : options?.encoding);

function noSuchFile(path, syscall) {
    const error = new ErrorConstructor(`ENOENT: no such file or directory, ${syscall} '${path}'`);
    error.code = 'ENOENT';
    error.errno = -2;
    error.syscall = syscall;
    error.path = path;
    return error;
}

const isStdin = (path) => path === 0 || path === '/dev/stdin' || path === 'php://stdin';

const fs = {
    readFileSync(path, options) {
        if (!isStdin(path)) throw noSuchFile(path, 'open');
        const text = readStdin();
        return encodingOf(options) ? text : Buffer.from(text);
    },
    writeFileSync(path, data) {
        if (path === 1 || path === '/dev/stdout') write(stdout, String(data));
        else if (path === 2 || path === '/dev/stderr') write(stderr, String(data));
        else throw noSuchFile(path, 'open');
    },
    writeSync(fd, data) {
        fs.writeFileSync(fd, data);
    },
    existsSync: () => false,
};

class EventEmitter {
    on(event, listener) {
        this.listeners(event).push(listener);
        this.emit('newListener', event, listener);
        return this;
    }
    addListener(event, listener) {
        return this.on(event, listener);
    }
    once(event, listener) {
        const once = (...args) => {
            this.off(event, once);
            listener(...args);
        };
        return this.on(event, once);
    }
    off(event, listener) {
        const list = this.listeners(event);
        const at = list.indexOf(listener);
        if (at >= 0) list.splice(at, 1);
        return this;
    }
    removeListener(event, listener) {
        return this.off(event, listener);
    }
    removeAllListeners(event) {
        if (event === undefined) this._events = new MapConstructor();
        else this._events?.delete(event);
        return this;
    }
    listeners(event) {
        this._events ??= new MapConstructor();
        if (!this._events.has(event)) this._events.set(event, []);
        return this._events.get(event);
    }
    listenerCount(event) {
        return this.listeners(event).length;
    }
    emit(event, ...args) {
        // A copy, made without the array iterator: the driver emits `exit` after the program,
        // which may have replaced it.
        const listeners = this.listeners(event);
        const list = [];
        for (let i = 0; i < listeners.length; i++) list[i] = listeners[i];
        if (event === 'error' && list.length === 0) throw args[0];
        for (let i = 0; i < list.length; i++) apply(list[i], this, args);
        return list.length > 0;
    }
    setMaxListeners() {
        return this;
    }
}

// process.stdin: the whole input is delivered once the program's synchronous code has run, as
// one `data` event, then `end` and `close`.
class Stdin extends EventEmitter {
    constructor() {
        super();
        this.fd = 0;
        this.isTTY = false;
        this.encoding = null;
        this.scheduled = false;
    }
    setEncoding(encoding) {
        this.encoding = encoding;
        return this;
    }
    resume() {
        this.schedule();
        return this;
    }
    pause() {
        return this;
    }
    schedule() {
        if (this.scheduled) return;
        this.scheduled = true;
        stdinTasks.push(() => {
            const text = readStdin();
            if (text.length > 0) this.emit('data', this.encoding ? text : Buffer.from(text));
            this.emit('end');
            this.emit('close');
        });
    }
    on(event, listener) {
        super.on(event, listener);
        if (event === 'data' || event === 'readable' || event === 'end') this.schedule();
        return this;
    }
    read() {
        const text = readStdin();
        if (this.drained || text.length === 0) return null;
        this.drained = true;
        return this.encoding ? text : Buffer.from(text);
    }
    async *[Symbol.asyncIterator]() {
        const text = readStdin();
        if (text.length > 0) yield this.encoding ? text : Buffer.from(text);
    }
}

// readline over the whole input: `line` events (`\n` or `\r\n`, the last line even without
// one), then `close`; or `for await (const line of rl)`.
class Interface extends EventEmitter {
    constructor(input) {
        super();
        this.input = input;
        this.closed = false;
        this.scheduled = false;
    }
    lines() {
        const text = readStdin();
        const lines = text.split(/\r?\n/);
        if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
        return lines;
    }
    schedule() {
        if (this.scheduled) return;
        this.scheduled = true;
        stdinTasks.push(() => {
            for (const line of this.lines()) {
                if (this.closed) return;
                this.emit('line', line);
            }
            this.close();
        });
    }
    on(event, listener) {
        super.on(event, listener);
        if (event === 'line' || event === 'close') this.schedule();
        return this;
    }
    close() {
        if (this.closed) return;
        this.closed = true;
        this.emit('close');
    }
    question(query, callback) {
        write(stdout, String(query));
        const lines = (this.pending ??= this.lines());
        const answer = lines.shift() ?? '';
        if (typeof callback === 'function') stdinTasks.push(() => callback(answer));
        return new PromiseConstructor((resolve) => stdinTasks.push(() => resolve(answer)));
    }
    setPrompt() {}
    prompt() {}
    pause() {
        return this;
    }
    resume() {
        return this;
    }
    async *[Symbol.asyncIterator]() {
        this.scheduled = true;
        for (const line of this.lines()) {
            if (this.closed) return;
            yield line;
        }
        this.close();
    }
}

const readline = {
    createInterface: (options) => new Interface(options?.input ?? options),
    Interface,
};

// ---- assert ----

const kinds = (value) => (value === null ? 'null' : typeof value);

// Node's deepEqual (loose: primitives by ==, prototypes ignored) and deepStrictEqual.
function deepEqual(a, b, strict, seen = new MapConstructor()) {
    if (kinds(a) !== 'object' || kinds(b) !== 'object') {
        if (kinds(a) === 'object' || kinds(b) === 'object') return false;
        return strict ? is(a, b) : a == b || (a !== a && b !== b);
    }
    if (a === b) return true;
    if (strict && getPrototypeOf(a) !== getPrototypeOf(b)) return false;
    if (isArray(a) !== isArray(b)) return false;
    if (seen.get(a) === b) return true;
    seen.set(a, b);
    if (a instanceof DateConstructor || b instanceof DateConstructor) {
        if (!(a instanceof DateConstructor && b instanceof DateConstructor) || a.getTime() !== b.getTime()) return false;
    } else if (a instanceof RegExpConstructor || b instanceof RegExpConstructor) {
        if (!(a instanceof RegExpConstructor && b instanceof RegExpConstructor) || String(a) !== String(b)) return false;
    } else if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
        if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.length !== b.length) return false;
        for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i], strict, seen)) return false;
    } else if (a instanceof MapConstructor || b instanceof MapConstructor) {
        if (!(a instanceof MapConstructor && b instanceof MapConstructor) || a.size !== b.size) return false;
        for (const [key, value] of a) {
            if (b.has(key)) {
                if (!deepEqual(value, b.get(key), strict, seen)) return false;
            } else if (![...b].some(([k, v]) => deepEqual(key, k, strict, seen) && deepEqual(value, v, strict, seen))) {
                return false;
            }
        }
    } else if (a instanceof SetConstructor || b instanceof SetConstructor) {
        if (!(a instanceof SetConstructor && b instanceof SetConstructor) || a.size !== b.size) return false;
        for (const value of a) {
            if (!b.has(value) && ![...b].some((other) => deepEqual(value, other, strict, seen))) return false;
        }
    }
    const aKeys = objectKeys(a);
    const bKeys = objectKeys(b);
    if (aKeys.length !== bKeys.length) return false;
    for (const key of aKeys) {
        if (!ObjectPrototype.hasOwnProperty.call(b, key) || !deepEqual(a[key], b[key], strict, seen)) return false;
    }
    return true;
}

function assertion(ok, options) {
    if (ok) return;
    if (options.message instanceof ErrorConstructor) throw options.message;
    const shown = (value) => {
        try {
            return util().inspect(value);
        } catch {
            return String(value);
        }
    };
    const generated = `Expected values to be ${options.operator}:\n\n${shown(options.actual)}\n\nshould equal\n\n${shown(options.expected)}`;
    throw new AssertionError({ ...options, message: options.message ?? generated });
}

function matchesExpected(error, expected) {
    if (expected === undefined) return true;
    if (typeof expected === 'function') {
        if (expected.prototype !== undefined && error instanceof expected) return true;
        if (expected === ErrorConstructor || expected.prototype instanceof ErrorConstructor) return false;
        return expected(error) === true;
    }
    if (expected instanceof RegExpConstructor) return expected.test(String(error));
    if (kinds(expected) === 'object') {
        return objectKeys(expected).every((key) =>
            expected[key] instanceof RegExpConstructor && typeof error?.[key] === 'string'
                ? expected[key].test(error[key])
                : deepEqual(error?.[key], expected[key], true),
        );
    }
    return false;
}

function makeAssert(strict) {
    const assert = (value, message) => assertion(value, { actual: value, expected: true, operator: '==', message: message ?? 'The expression evaluated to a falsy value' });
    const equal = strict ? (a, b) => is(a, b) : (a, b) => a == b || (a !== a && b !== b);
    Object.assign(assert, {
        ok: assert,
        equal: (a, b, message) => assertion(equal(a, b), { actual: a, expected: b, operator: strict ? 'strictEqual' : '==', message }),
        notEqual: (a, b, message) => assertion(!equal(a, b), { actual: a, expected: b, operator: strict ? 'notStrictEqual' : '!=', message }),
        strictEqual: (a, b, message) => assertion(is(a, b), { actual: a, expected: b, operator: 'strictEqual', message }),
        notStrictEqual: (a, b, message) => assertion(!is(a, b), { actual: a, expected: b, operator: 'notStrictEqual', message }),
        deepEqual: (a, b, message) => assertion(deepEqual(a, b, strict), { actual: a, expected: b, operator: strict ? 'deepStrictEqual' : 'deepEqual', message }),
        notDeepEqual: (a, b, message) => assertion(!deepEqual(a, b, strict), { actual: a, expected: b, operator: 'notDeepEqual', message }),
        deepStrictEqual: (a, b, message) => assertion(deepEqual(a, b, true), { actual: a, expected: b, operator: 'deepStrictEqual', message }),
        notDeepStrictEqual: (a, b, message) => assertion(!deepEqual(a, b, true), { actual: a, expected: b, operator: 'notDeepStrictEqual', message }),
        fail: (message = 'Failed') => {
            throw message instanceof ErrorConstructor ? message : new AssertionError({ message, operator: 'fail' });
        },
        match: (text, pattern, message) => assertion(pattern.test(text), { actual: text, expected: pattern, operator: 'match', message }),
        doesNotMatch: (text, pattern, message) => assertion(!pattern.test(text), { actual: text, expected: pattern, operator: 'doesNotMatch', message }),
        throws(fn, expected, message) {
            if (typeof expected === 'string') [message, expected] = [expected, undefined];
            try {
                fn();
            } catch (error) {
                if (!matchesExpected(error, expected)) throw error;
                return;
            }
            throw new AssertionError({ message: message ?? 'Missing expected exception.', operator: 'throws' });
        },
        doesNotThrow(fn) {
            fn();
        },
        async rejects(promise, expected, message) {
            if (typeof expected === 'string') [message, expected] = [expected, undefined];
            try {
                await (typeof promise === 'function' ? promise() : promise);
            } catch (error) {
                if (!matchesExpected(error, expected)) throw error;
                return;
            }
            throw new AssertionError({ message: message ?? 'Missing expected rejection.', operator: 'rejects' });
        },
        async doesNotReject(promise) {
            await (typeof promise === 'function' ? promise() : promise);
        },
        ifError: (value) => {
            if (value !== null && value !== undefined) throw value;
        },
        AssertionError,
    });
    return assert;
}

const assert = makeAssert(false);
assert.strict = makeAssert(true);
assert.strict.strict = assert.strict;
// The tests a program is judged by call these: the program cannot replace them.
Object.freeze(assert.strict);
Object.freeze(assert);
Object.freeze(AssertionError.prototype);

// ---- process, console, require ----

class Output extends EventEmitter {
    constructor(file, fd) {
        super();
        this.file = file;
        this.fd = fd;
        this.isTTY = false;
        this.columns = 80;
    }
    write(chunk, encoding, callback) {
        write(this.file, typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? utf8Decode(chunk) : String(chunk));
        const done = typeof encoding === 'function' ? encoding : callback;
        if (typeof done === 'function') stdinTasks.push(() => done());
        return true;
    }
    end(chunk) {
        if (chunk !== undefined) this.write(chunk);
    }
}

const started = now();
const process = new EventEmitter();
Object.assign(process, {
    argv: ['/usr/local/bin/node', '/main.js'],
    argv0: 'node',
    execArgv: [],
    env: {},
    platform: 'linux',
    arch: 'wasm32',
    pid: 1,
    version: 'v20.0.0',
    versions: { node: '20.0.0' },
    exitCode: undefined,
    stdin: new Stdin(),
    stdout: new Output(stdout, 1),
    stderr: new Output(stderr, 2),
    exit(code) {
        if (code !== undefined) process.exitCode = code;
        process.emit('exit', Number(process.exitCode ?? 0));
        finish(Number(process.exitCode ?? 0) | 0);
    },
    cwd: () => '/',
    uptime: () => (now() - started) / 1000,
    hrtime: Object.assign(
        (previous) => {
            const ns = performance.now() * 1e6;
            const time = [Math.floor(ns / 1e9), Math.floor(ns % 1e9)];
            return previous ? [time[0] - previous[0], time[1] - previous[1]] : time;
        },
        { bigint: () => BigInt(Math.floor(performance.now() * 1e6)) },
    ),
    memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
    nextTick(fn, ...args) {
        ticks.push(() => apply(fn, undefined, args));
        if (!tickScheduled) {
            tickScheduled = true;
            queueMicrotask(runTicks);
        }
    },
});

const counts = new MapConstructor();
const timings = new MapConstructor();
const console = {
    log: (...args) => write(stdout, `${format(args)}\n`),
    info: (...args) => write(stdout, `${format(args)}\n`),
    debug: (...args) => write(stdout, `${format(args)}\n`),
    error: (...args) => write(stderr, `${format(args)}\n`),
    warn: (...args) => write(stderr, `${format(args)}\n`),
    trace: (...args) => write(stderr, `Trace: ${format(args)}\n`),
    dir: (value) => write(stdout, `${util().inspect(value)}\n`),
    table: (...args) => write(stdout, `${format(args)}\n`),
    assert(condition, ...args) {
        if (condition) return;
        const message = args.length > 0 ? `Assertion failed: ${format(args)}` : 'Assertion failed';
        // A test program's failed console.assert fails the check (HumanEval-X's tests use it,
        // and its harness fails a run that writes to standard error).
        if (mode === 'check') throw new AssertionError({ message, operator: 'assert' });
        write(stderr, `${message}\n`);
    },
    count(label = 'default') {
        counts.set(label, (counts.get(label) ?? 0) + 1);
        write(stdout, `${label}: ${counts.get(label)}\n`);
    },
    countReset: (label = 'default') => counts.delete(label),
    time: (label = 'default') => timings.set(label, performance.now()),
    timeEnd(label = 'default') {
        const elapsed = performance.now() - (timings.get(label) ?? performance.now());
        timings.delete(label);
        write(stdout, `${label}: ${elapsed.toFixed(3)}ms\n`);
    },
    timeLog(label = 'default') {
        write(stdout, `${label}: ${(performance.now() - (timings.get(label) ?? performance.now())).toFixed(3)}ms\n`);
    },
    group: () => {},
    groupEnd: () => {},
};

const utilModule = {
    format: (...args) => format(args),
    inspect: (...args) => util().inspect(...args),
    isDeepStrictEqual: (a, b) => deepEqual(a, b, true),
    promisify: (fn) => (...args) => new PromiseConstructor((resolve, reject) => fn(...args, (error, value) => (error ? reject(error) : resolve(value)))),
    TextEncoder: globalThis.TextEncoder,
    TextDecoder: globalThis.TextDecoder,
};

const modules = {
    fs,
    readline,
    assert,
    'assert/strict': assert.strict,
    util: utilModule,
    events: Object.assign(EventEmitter, { EventEmitter }),
    buffer: { Buffer },
    process,
    timers: timerGlobals,
    'fs/promises': { readFile: async (path, options) => fs.readFileSync(path, options) },
    'readline/promises': {
        createInterface: (options) => {
            const rl = readline.createInterface(options);
            const question = rl.question.bind(rl);
            rl.question = (query) => question(query);
            return rl;
        },
    },
};

function require(name) {
    const key = String(name).replace(/^node:/, '');
    if (ObjectPrototype.hasOwnProperty.call(modules, key)) return modules[key];
    const error = new ErrorConstructor(`Cannot find module '${name}'\nRequire stack:\n- /main.js`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
}

const module = { exports: {}, id: '.', filename: '/main.js', loaded: false, children: [], paths: [] };
require.main = module;

// `require` cannot be replaced either: a test program's `require('assert')` gets the real one.
defineProperty(globalThis, 'require', { value: require, writable: false, configurable: false, enumerable: false });
for (const [name, value] of Object.entries({
    ...timerGlobals,
    console,
    process,
    module,
    exports: module.exports,
    global: globalThis,
    Buffer,
    __filename: '/main.js',
    __dirname: '/',
})) {
    defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

// ---- The run ----

// Encodes a returned value as JSON the host compares, or as `repr` when JSON cannot carry it
// faithfully (undefined, NaN, a Map, a class instance...).
function encode(value) {
    const plain = (v, depth) => {
        if (depth > 100) throw new TypeError('nested too deeply');
        if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
        if (typeof v === 'number') {
            if (!isFiniteNumber(v)) throw new TypeError('not finite');
            return v;
        }
        if (isArray(v)) {
            const out = [];
            for (let i = 0; i < v.length; i++) out[i] = plain(v[i], depth + 1);
            return out;
        }
        if (kinds(v) === 'object' && (getPrototypeOf(v) === ObjectPrototype || getPrototypeOf(v) === null)) {
            const out = { __proto__: null };
            const names = ownKeys(v);
            for (let i = 0; i < names.length; i++) {
                const name = names[i];
                if (typeof name !== 'string') throw new TypeError('symbol key');
                // JSON has no undefined: such an object is shown, not sent as data.
                if (v[name] === undefined) throw new TypeError('undefined member');
                out[name] = plain(v[name], depth + 1);
            }
            return out;
        }
        throw new TypeError('not plain data');
    };
    try {
        return { __proto__: null, value: plain(value, 0) };
    } catch {
        let shown;
        try {
            shown = util().inspect(value);
        } catch {
            shown = '<unprintable>';
        }
        return { __proto__: null, repr: shown.slice(0, 200) };
    }
}

// The function the program defines under `name` (a checked identifier), or undefined.
const lookup = (name) => evalScript(`typeof ${name} === 'function' ? ${name} : undefined`);

async function runCalls(request) {
    const fn = lookup(request.entry_point);
    if (fn === undefined) {
        record.missing = true;
        return;
    }
    const results = [];
    for (let i = 0; i < request.cases.length; i++) {
        try {
            let value = apply(fn, undefined, request.cases[i]);
            if (value instanceof PromiseConstructor) value = await value;
            results[i] = encode(value);
        } catch (error) {
            let shown;
            try {
                shown = `${errorName(error)}: ${error instanceof ErrorConstructor ? error.message : String(error)}`;
            } catch {
                shown = errorName(error);
            }
            results[i] = { __proto__: null, error: shown.slice(0, 300) };
        }
    }
    record.results = results;
}

async function runCheck(request) {
    const before = lookup('check');
    try {
        evalScript(request.program);
    } catch (error) {
        return fail(error, 'check');
    }
    await eventLoop();
    const check = lookup('check');
    if (check !== undefined && check !== before) {
        const candidate = lookup(request.entry_point);
        if (candidate === undefined) {
            record.missing = true;
            return;
        }
        await check(candidate);
    }
    record.checked = true;
}

try {
    evalScript(program);
    runTicks();
} catch (error) {
    fail(error, 'program');
}
try {
    await eventLoop();
    if (mode === 'calls') await runCalls(parse(payload));
    else if (mode === 'check') await runCheck(parse(payload));
    await eventLoop();
} catch (error) {
    fail(error, mode);
}
process.emit('exit', Number(process.exitCode ?? 0));
finish(Number(process.exitCode ?? 0) | 0);
