// Sorts seeded random arrays with many kinds of comparator and prints, for each, every call of
// the comparator (hashed), the array after and the value returned: run under Node.js and in the
// sandbox, the two outputs must be the same line for line (sandboxes/tests/all/javascript.rs).
// `SEEDS` (first and last seed) is set by whoever runs it; by hand: `node -e "const SEEDS = [1, 50];
// $(cat sort_sweep.js)"`.

// mulberry32: the same numbers in every engine.
function random(seed) {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

const show = (value) => {
    if (Object.is(value, -0)) return '-0';
    if (typeof value === 'string') return JSON.stringify(value);
    if (typeof value === 'object' && value !== null) return `{${value.k},${value.i}}`;
    return String(value);
};

function dump(array) {
    const parts = [];
    for (let i = 0; i < array.length; i++) parts.push(i in array ? show(array[i]) : '_');
    return `${parts.join(' ')} #${array.length}`;
}

// FNV-1a of the comparator's calls.
function hashed(log) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < log.length; i++) {
        hash ^= log.charCodeAt(i);
        hash = Math.imul(hash, 0x01000193);
    }
    return (hash >>> 0).toString(16);
}

const key = (value) => (typeof value === 'object' && value !== null ? value.k : value);

// The comparators: consistent, boolean, random, throwing, mutating, odd return values.
const COMPARATORS = [
    ['none', () => undefined],
    ['ascending', () => (a, b) => key(a) - key(b)],
    ['descending', () => (a, b) => key(b) - key(a)],
    ['greater', () => (a, b) => key(a) > key(b)],
    ['less', () => (a, b) => key(a) < key(b)],
    ['random', (r) => () => (r() < 0.4 ? -1 : r() < 0.7 ? 1 : 0)],
    ['throws', (r, state) => (a, b) => {
        if (++state.calls > 30) throw new Error(`stop after ${state.calls - 1}`);
        return key(a) - key(b);
    }],
    // It cuts the array short only when it has no holes: a holey array cut short and filled
    // again by index gets a wrong length from QuickJS-NG itself, sorting or not (see
    // docs/verifiers/code.md).
    ['mutates', (r, state, array) => (a, b) => {
        if (++state.calls % 13 === 0) {
            array.push(state.calls);
            array[0] = -state.calls;
        }
        if (state.calls === 50 && Object.keys(array).length === array.length) array.length = 3;
        return key(a) < key(b) ? -1 : 1;
    }],
    ['odd values', (r) => (a, b) => [NaN, '1', '-1', null, -0, { valueOf: () => -2 }, true, 0.5][Math.floor(r() * 8)]],
];

function element(r, kind, i, n) {
    const p = r();
    switch (kind) {
        case 'small ints':
            return Math.floor(r() * 10);
        case 'holes and undefined':
            if (p < 0.1) return HOLE;
            if (p < 0.2) return undefined;
            return Math.floor(r() * n) - 5;
        case 'records':
            return { k: Math.floor(r() * 6), i };
        case 'mixed':
            return p < 0.4 ? Math.floor(r() * 2000) - 1000 : p < 0.8 ? String(Math.floor(r() * 120)) : p < 0.9 ? r() * 10 : -0;
        default:
            return n - i;
    }
}

const HOLE = Symbol('hole');
const KINDS = ['small ints', 'holes and undefined', 'records', 'mixed', 'descending'];

function build(r, kind, n) {
    const array = [];
    for (let i = 0; i < n; i++) {
        const value = element(r, kind, i, n);
        if (value !== HOLE) array[i] = value;
    }
    array.length = n;
    return array;
}

function attempt(run) {
    try {
        return ['', run()];
    } catch (error) {
        return [error instanceof Error && error.message.startsWith('stop') ? error.message : error.name, undefined];
    }
}

for (let seed = SEEDS[0]; seed <= SEEDS[1]; seed++) {
    const r = random(seed);
    const n = Math.floor(r() < 0.25 ? r() * 260 : r() * 70);
    const kind = KINDS[Math.floor(r() * KINDS.length)];
    const [name, make] = COMPARATORS[seed % COMPARATORS.length];
    const original = build(r, kind, n);
    for (const method of ['sort', 'toSorted']) {
        const array = original.slice();
        array.length = n;
        const log = [];
        const state = { calls: 0 };
        const comparator = make(random(seed * 31 + 7), state, array);
        const logged = comparator && ((a, b) => {
            log.push(`${show(a)}:${show(b)}`);
            return comparator(a, b);
        });
        const [error, returned] = attempt(() => array[method](logged));
        const result = returned === array ? 'itself' : returned === undefined ? '-' : dump(returned);
        console.log(`${seed} ${method} ${kind} ${name}: ${log.length} calls ${hashed(log.join(','))} ${error} | ${dump(array)} | ${result}`);
    }
    // Typed arrays: numbers only (NaN and -0 among them), the same comparators.
    const numbers = original.map((value) => (typeof value === 'number' ? value : typeof value === 'object' && value ? value.k : seed % 3 ? NaN : 0));
    for (const Type of [Float64Array, Int32Array]) {
        for (const method of ['sort', 'toSorted']) {
            const array = new Type(numbers.length);
            for (let i = 0; i < numbers.length; i++) array[i] = numbers[i] ?? 0;
            const log = [];
            const state = { calls: 0 };
            const comparator = make(random(seed * 31 + 7), state, []);
            const logged = comparator && ((a, b) => {
                log.push(`${show(a)}:${show(b)}`);
                return comparator(a, b);
            });
            const [error, returned] = attempt(() => array[method](logged));
            const result = returned === array ? 'itself' : returned === undefined ? '-' : `${returned.constructor.name} ${dump(returned)}`;
            console.log(`${seed} ${Type.name} ${method} ${name}: ${log.length} calls ${hashed(log.join(','))} ${error} | ${dump(array)} | ${result}`);
        }
    }
}

// Without a comparator, elements are compared by their strings, each converted at every
// comparison: an object's toString is called as often, and in the same order, as under V8.
const calls = [];
const tagged = (i) => ({ toString: () => (calls.push(i), String((i * 7) % 5)) });
const objects = Array.from({ length: 40 }, (_, i) => tagged(i));
objects.sort();
console.log(`toString calls: ${calls.length} ${hashed(calls.join(','))}`);
console.log(`the issue's example: ${[3, 1, 2, 5, 4].sort((a, b) => a > b).join(',')}`);
