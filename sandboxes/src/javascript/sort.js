// Sorting as Node.js sorts: Array.prototype.sort and toSorted, and %TypedArray%.prototype.sort
// and toSorted, called with the comparator in the order V8 calls it and leaving the result V8
// leaves, for any comparator, consistent or not. QuickJS-NG sorts differently, which only shows
// with a comparator that is not a consistent order (`(a, b) => a > b`, a common mistake that
// leaves an array unsorted under Node.js and sorts it under QuickJS) or one that counts, logs or
// throws; a program must do here what it does under Node.js.
//
// Arrays follow V8's `third_party/v8/builtins/array-sort.tq` (TimSort as CPython's listsort:
// natural runs extended to a minimum length by binary insertion, merged with galloping): the
// elements are read into a work list first (holes skipped, undefined counted and put last), the
// list is sorted, and the result written back (then the undefineds, then holes up to the old
// length). Typed arrays follow `src/builtins/typed-array-sort.tq`: with a comparator, a top-down
// merge sort over a copy; without one, numeric order, which leaves the same result whatever the
// algorithm, so the native sort does it.
//
// This file is evaluated first, before the driver reads or captures anything.
function installNodeSort() {
    const { apply, defineProperty, getPrototypeOf } = Reflect;
    const TypeErrorConstructor = TypeError;
    const RangeErrorConstructor = RangeError;
    const ObjectConstructor = Object;
    const ArrayPrototype = Array.prototype;
    const TypedArrayPrototype = getPrototypeOf(Int8Array.prototype);
    const nativeSort = ArrayPrototype.sort;
    const copyWithin = ArrayPrototype.copyWithin;
    const slice = ArrayPrototype.slice;
    const nativeTypedSort = TypedArrayPrototype.sort;
    const typedLength = ObjectConstructor.getOwnPropertyDescriptor(TypedArrayPrototype, 'length').get;
    const typedName = ObjectConstructor.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
    const typedConstructors = { __proto__: null };
    for (const name of ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
        'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']) {
        if (typeof globalThis[name] === 'function') typedConstructors[name] = globalThis[name];
    }
    const MAX_LENGTH = 2 ** 53 - 1;
    const MAX_ARRAY_LENGTH = 2 ** 32 - 1;
    // V8's kMinGallopWins: the wins in a row that start galloping.
    const MIN_GALLOP = 7;

    const badComparator = () => new TypeErrorConstructor('The comparison function must be either a function or undefined');

    function toObject(value) {
        if (value === undefined || value === null) throw new TypeErrorConstructor('Cannot convert undefined or null to object');
        return ObjectConstructor(value);
    }

    function toLength(value) {
        const number = +value;
        if (!(number > 0)) return 0;
        return number >= MAX_LENGTH ? MAX_LENGTH : Math.floor(number);
    }

    // The comparator is called as the spec's SortCompare calls it (with `this` undefined, its
    // value converted by ToNumber once), and NaN counts as 0: every test of a value is written
    // `v < 0`, `!(v < 0)` or `!(v > 0)`, which NaN passes as 0 does.

    // Without a comparator: the elements' strings, compared by UTF-16 code units.
    function defaultCompare(x, y) {
        const xString = `${x}`;
        const yString = `${y}`;
        if (xString < yString) return -1;
        if (yString < xString) return 1;
        return 0;
    }

    // Whether comparing `work`'s elements as strings has no effect that a program could see (no
    // toString of an object, no symbol that throws): then any stable sort by string gives V8's
    // result, and QuickJS's native one is much the faster.
    function plainStrings(work) {
        for (let i = 0; i < work.length; i++) {
            const value = work[i];
            const kind = typeof value;
            if (kind !== 'string' && kind !== 'number' && kind !== 'boolean' && kind !== 'bigint' && value !== null) {
                return false;
            }
        }
        return true;
    }

    // Copies `length` elements from `source` at `from` to `target` at `to`; the ranges may overlap.
    // Long moves within one list are QuickJS's (an interpreted loop costs several times the fuel).
    function copy(source, from, target, to, length) {
        if (source === target && length > 8) {
            apply(copyWithin, target, [to, from, from + length]);
        } else if (from < to) {
            for (let s = from + length - 1, d = to + length - 1; s >= from; ) target[d--] = source[s--];
        } else {
            for (let s = from, d = to, end = from + length; s < end; ) target[d++] = source[s++];
        }
    }

    // TimSort of `work[0..n)` under `compare`, as V8's ArrayTimSortImpl.
    function timSort(work, n, compare) {
        if (n < 2) return;
        let minGallop = MIN_GALLOP;
        // The stack of pending runs: their starts and lengths.
        const runBase = [];
        const runLength = [];

        function binaryInsertionSort(low, start, high) {
            const list = work;
            const cmp = compare;
            if (low === start) start++;
            for (; start < high; ++start) {
                let left = low;
                let right = start;
                const pivot = list[right];
                while (left < right) {
                    const middle = left + ((right - left) >> 1);
                    if (+cmp(pivot, list[middle]) < 0) right = middle;
                    else left = middle + 1;
                }
                if (start - left > 8) apply(copyWithin, list, [left + 1, left, start]);
                else for (let p = start; p > left; --p) list[p] = list[p - 1];
                list[left] = pivot;
            }
        }

        // The length of the run starting at `low` (ascending, or strictly descending and then
        // reversed).
        function countAndMakeRun(low, high) {
            const list = work;
            const cmp = compare;
            const next = low + 1;
            if (next === high) return 1;
            let length = 2;
            const elementNext = list[next];
            let order = +cmp(elementNext, list[low]);
            const descending = order < 0;
            let previous = elementNext;
            for (let i = next + 1; i < high; ++i) {
                const current = list[i];
                order = +cmp(current, previous);
                if (descending) {
                    if (!(order < 0)) break;
                } else if (order < 0) {
                    break;
                }
                previous = current;
                ++length;
            }
            if (descending) {
                for (let a = low, b = low + length - 1; a < b; a++, b--) {
                    const swap = list[a];
                    list[a] = list[b];
                    list[b] = swap;
                }
            }
            return length;
        }

        // Where `key` belongs in the sorted `array[base..base+length)`: left of any equal element.
        function gallopLeft(array, key, base, length, hint) {
            const cmp = compare;
            let lastOffset = 0;
            let offset = 1;
            let order = +cmp(array[base + hint], key);
            if (order < 0) {
                const maxOffset = length - hint;
                while (offset < maxOffset) {
                    order = +cmp(array[base + hint + offset], key);
                    if (!(order < 0)) break;
                    lastOffset = offset;
                    offset = (offset << 1) + 1;
                    if (offset <= 0) offset = maxOffset;
                }
                if (offset > maxOffset) offset = maxOffset;
                lastOffset += hint;
                offset += hint;
            } else {
                const maxOffset = hint + 1;
                while (offset < maxOffset) {
                    order = +cmp(array[base + hint - offset], key);
                    if (order < 0) break;
                    lastOffset = offset;
                    offset = (offset << 1) + 1;
                    if (offset <= 0) offset = maxOffset;
                }
                if (offset > maxOffset) offset = maxOffset;
                const swap = lastOffset;
                lastOffset = hint - offset;
                offset = hint - swap;
            }
            lastOffset++;
            while (lastOffset < offset) {
                const middle = lastOffset + ((offset - lastOffset) >> 1);
                if (+cmp(array[base + middle], key) < 0) lastOffset = middle + 1;
                else offset = middle;
            }
            return offset;
        }

        // Like gallopLeft, but right of any equal element.
        function gallopRight(array, key, base, length, hint) {
            const cmp = compare;
            let lastOffset = 0;
            let offset = 1;
            let order = +cmp(key, array[base + hint]);
            if (order < 0) {
                const maxOffset = hint + 1;
                while (offset < maxOffset) {
                    order = +cmp(key, array[base + hint - offset]);
                    if (!(order < 0)) break;
                    lastOffset = offset;
                    offset = (offset << 1) + 1;
                    if (offset <= 0) offset = maxOffset;
                }
                if (offset > maxOffset) offset = maxOffset;
                const swap = lastOffset;
                lastOffset = hint - offset;
                offset = hint - swap;
            } else {
                const maxOffset = length - hint;
                while (offset < maxOffset) {
                    order = +cmp(key, array[base + hint + offset]);
                    if (order < 0) break;
                    lastOffset = offset;
                    offset = (offset << 1) + 1;
                    if (offset <= 0) offset = maxOffset;
                }
                if (offset > maxOffset) offset = maxOffset;
                lastOffset += hint;
                offset += hint;
            }
            lastOffset++;
            while (lastOffset < offset) {
                const middle = lastOffset + ((offset - lastOffset) >> 1);
                if (+cmp(key, array[base + middle]) < 0) offset = middle;
                else lastOffset = middle + 1;
            }
            return offset;
        }

        // Merges the runs A = [baseA, baseA + lengthA) and B, which follows it, when A is the
        // shorter: A is copied out and the merge runs forwards.
        function mergeLow(baseA, lengthA, baseB, lengthB) {
            const list = work;
            const cmp = compare;
            const temp = apply(slice, list, [baseA, baseA + lengthA]);
            let dest = baseA;
            let cursorTemp = 0;
            let cursorB = baseB;
            let copyB = false;
            list[dest++] = list[cursorB++];
            merge: {
                if (--lengthB === 0) break merge;
                if (lengthA === 1) {
                    copyB = true;
                    break merge;
                }
                let localMinGallop = minGallop;
                for (;;) {
                    let winsA = 0;
                    let winsB = 0;
                    for (;;) {
                        if (+cmp(list[cursorB], temp[cursorTemp]) < 0) {
                            list[dest++] = list[cursorB++];
                            ++winsB;
                            --lengthB;
                            winsA = 0;
                            if (lengthB === 0) break merge;
                            if (winsB >= localMinGallop) break;
                        } else {
                            list[dest++] = temp[cursorTemp++];
                            ++winsA;
                            --lengthA;
                            winsB = 0;
                            if (lengthA === 1) {
                                copyB = true;
                                break merge;
                            }
                            if (winsA >= localMinGallop) break;
                        }
                    }
                    ++localMinGallop;
                    let first = true;
                    while (winsA >= MIN_GALLOP || winsB >= MIN_GALLOP || first) {
                        first = false;
                        localMinGallop = localMinGallop - 1 > 1 ? localMinGallop - 1 : 1;
                        minGallop = localMinGallop;
                        winsA = gallopRight(temp, list[cursorB], cursorTemp, lengthA, 0);
                        if (winsA > 0) {
                            copy(temp, cursorTemp, list, dest, winsA);
                            dest += winsA;
                            cursorTemp += winsA;
                            lengthA -= winsA;
                            if (lengthA === 1) {
                                copyB = true;
                                break merge;
                            }
                            // Impossible for a consistent comparator; not to be assumed.
                            if (lengthA === 0) break merge;
                        }
                        list[dest++] = list[cursorB++];
                        if (--lengthB === 0) break merge;
                        winsB = gallopLeft(list, temp[cursorTemp], cursorB, lengthB, 0);
                        if (winsB > 0) {
                            copy(list, cursorB, list, dest, winsB);
                            dest += winsB;
                            cursorB += winsB;
                            lengthB -= winsB;
                            if (lengthB === 0) break merge;
                        }
                        list[dest++] = temp[cursorTemp++];
                        if (--lengthA === 1) {
                            copyB = true;
                            break merge;
                        }
                    }
                    ++localMinGallop;
                    minGallop = localMinGallop;
                }
            }
            if (copyB) {
                // The last element of A belongs at the end of the merge.
                copy(list, cursorB, list, dest, lengthB);
                list[dest + lengthB] = temp[cursorTemp];
            } else if (lengthA > 0) {
                copy(temp, cursorTemp, list, dest, lengthA);
            }
        }

        // As mergeLow when B is the shorter: B is copied out and the merge runs backwards.
        function mergeHigh(baseA, lengthA, baseB, lengthB) {
            const list = work;
            const cmp = compare;
            const temp = apply(slice, list, [baseB, baseB + lengthB]);
            let dest = baseB + lengthB - 1;
            let cursorTemp = lengthB - 1;
            let cursorA = baseA + lengthA - 1;
            let copyA = false;
            list[dest--] = list[cursorA--];
            merge: {
                if (--lengthA === 0) break merge;
                if (lengthB === 1) {
                    copyA = true;
                    break merge;
                }
                let localMinGallop = minGallop;
                for (;;) {
                    let winsA = 0;
                    let winsB = 0;
                    for (;;) {
                        if (+cmp(temp[cursorTemp], list[cursorA]) < 0) {
                            list[dest--] = list[cursorA--];
                            ++winsA;
                            --lengthA;
                            winsB = 0;
                            if (lengthA === 0) break merge;
                            if (winsA >= localMinGallop) break;
                        } else {
                            list[dest--] = temp[cursorTemp--];
                            ++winsB;
                            --lengthB;
                            winsA = 0;
                            if (lengthB === 1) {
                                copyA = true;
                                break merge;
                            }
                            if (winsB >= localMinGallop) break;
                        }
                    }
                    ++localMinGallop;
                    let first = true;
                    while (winsA >= MIN_GALLOP || winsB >= MIN_GALLOP || first) {
                        first = false;
                        localMinGallop = localMinGallop - 1 > 1 ? localMinGallop - 1 : 1;
                        minGallop = localMinGallop;
                        let k = gallopRight(list, temp[cursorTemp], baseA, lengthA, lengthA - 1);
                        winsA = lengthA - k;
                        if (winsA > 0) {
                            dest -= winsA;
                            cursorA -= winsA;
                            copy(list, cursorA + 1, list, dest + 1, winsA);
                            lengthA -= winsA;
                            if (lengthA === 0) break merge;
                        }
                        list[dest--] = temp[cursorTemp--];
                        if (--lengthB === 1) {
                            copyA = true;
                            break merge;
                        }
                        k = gallopLeft(temp, list[cursorA], 0, lengthB, lengthB - 1);
                        winsB = lengthB - k;
                        if (winsB > 0) {
                            dest -= winsB;
                            cursorTemp -= winsB;
                            copy(temp, cursorTemp + 1, list, dest + 1, winsB);
                            lengthB -= winsB;
                            if (lengthB === 1) {
                                copyA = true;
                                break merge;
                            }
                            // Impossible for a consistent comparator; not to be assumed.
                            if (lengthB === 0) break merge;
                        }
                        list[dest--] = list[cursorA--];
                        if (--lengthA === 0) break merge;
                    }
                    ++localMinGallop;
                    minGallop = localMinGallop;
                }
            }
            if (copyA) {
                // The first element of B belongs at the front of the merge.
                dest -= lengthA;
                cursorA -= lengthA;
                copy(list, cursorA + 1, list, dest + 1, lengthA);
                list[dest] = temp[cursorTemp];
            } else if (lengthB > 0) {
                copy(temp, 0, list, dest - (lengthB - 1), lengthB);
            }
        }

        // Merges the pending runs i and i + 1 (i is the second or third from the top).
        function mergeAt(i) {
            const size = runBase.length;
            let baseA = runBase[i];
            let lengthA = runLength[i];
            const baseB = runBase[i + 1];
            let lengthB = runLength[i + 1];
            runLength[i] = lengthA + lengthB;
            if (i === size - 3) {
                runBase[i + 1] = runBase[i + 2];
                runLength[i + 1] = runLength[i + 2];
            }
            runBase.length = size - 1;
            runLength.length = size - 1;
            // The elements of A before where B's first belongs are in place already.
            const k = gallopRight(work, work[baseB], baseA, lengthA, 0);
            baseA += k;
            lengthA -= k;
            if (lengthA === 0) return;
            // And so are those of B after where A's last belongs.
            lengthB = gallopLeft(work, work[baseA + lengthA - 1], baseB, lengthB, lengthB - 1);
            if (lengthB === 0) return;
            if (lengthA <= lengthB) mergeLow(baseA, lengthA, baseB, lengthB);
            else mergeHigh(baseA, lengthA, baseB, lengthB);
        }

        // Whether run n - 2 is longer than runs n - 1 and n together.
        const invariantHolds = (n) => n < 2 || runLength[n - 2] > runLength[n - 1] + runLength[n];

        function mergeCollapse() {
            while (runBase.length > 1) {
                let n = runBase.length - 2;
                if (!invariantHolds(n + 1) || !invariantHolds(n)) {
                    if (runLength[n - 1] < runLength[n + 1]) --n;
                    mergeAt(n);
                } else if (runLength[n] <= runLength[n + 1]) {
                    mergeAt(n);
                } else {
                    break;
                }
            }
        }

        function mergeForceCollapse() {
            while (runBase.length > 1) {
                let n = runBase.length - 2;
                if (n > 0 && runLength[n - 1] < runLength[n + 1]) --n;
                mergeAt(n);
            }
        }

        // n itself below 64; else between 32 and 64, such that n / minRun is just below a power of 2.
        let minRun = n;
        let shifted = 0;
        while (minRun >= 64) {
            shifted |= minRun & 1;
            minRun >>= 1;
        }
        minRun += shifted;

        let low = 0;
        let remaining = n;
        while (remaining !== 0) {
            let length = countAndMakeRun(low, low + remaining);
            if (length < minRun) {
                const forced = minRun < remaining ? minRun : remaining;
                binaryInsertionSort(low, low + length, low + forced);
                length = forced;
            }
            runBase[runBase.length] = low;
            runLength[runLength.length] = length;
            mergeCollapse();
            low += length;
            remaining -= length;
        }
        mergeForceCollapse();
    }

    // Sorts the work list: natively where nothing could tell the difference, else as V8 does.
    function sortWork(work, comparefn) {
        if (comparefn === undefined && plainStrings(work)) apply(nativeSort, work, []);
        else timSort(work, work.length, comparefn === undefined ? defaultCompare : comparefn);
    }

    // V8's merge sort of a typed array's elements with a comparator: `source` and `target` hold the
    // same elements on entry, the sorted ones end in `target`.
    function typedMergeSort(source, from, to, target, compare) {
        const middle = from + ((to - from) >>> 1);
        if (middle - from > 1) typedMergeSort(target, from, middle, source, compare);
        if (to - middle > 1) typedMergeSort(target, middle, to, source, compare);
        let left = from;
        let right = middle;
        for (let i = from; i < to; ++i) {
            if (left < middle && right >= to) {
                target[i] = source[left++];
            } else if (left < middle) {
                const leftElement = source[left];
                const rightElement = source[right];
                if (!(+compare(leftElement, rightElement) > 0)) {
                    target[i] = leftElement;
                    left++;
                } else {
                    target[i] = rightElement;
                    right++;
                }
            } else {
                target[i] = source[right++];
            }
        }
    }

    // Sorts the typed array `array` of `length` elements in place.
    function sortTyped(array, length, comparefn) {
        if (comparefn === undefined) {
            apply(nativeTypedSort, array, []);
            return;
        }
        const first = [];
        const second = [];
        for (let i = 0; i < length; i++) first[i] = second[i] = array[i];
        typedMergeSort(second, 0, length, first, comparefn);
        for (let i = 0; i < length; i++) array[i] = first[i];
    }

    const methods = {
        sort(comparefn) {
            if (comparefn !== undefined && typeof comparefn !== 'function') throw badComparator();
            const object = toObject(this);
            const length = toLength(object.length);
            if (length < 2) return object;
            const work = [];
            let undefinedCount = 0;
            for (let i = 0; i < length; i++) {
                if (!(i in object)) continue;
                const element = object[i];
                if (element === undefined) undefinedCount++;
                else work[work.length] = element;
            }
            sortWork(work, comparefn);
            const sorted = work.length;
            let i = 0;
            for (; i < sorted; i++) object[i] = work[i];
            for (const end = sorted + undefinedCount; i < end; i++) object[i] = undefined;
            for (; i < length; i++) delete object[i];
            return object;
        },
        toSorted(comparefn) {
            if (comparefn !== undefined && typeof comparefn !== 'function') throw badComparator();
            const object = toObject(this);
            const length = toLength(object.length);
            if (length > MAX_ARRAY_LENGTH) throw new RangeErrorConstructor('Invalid array length');
            const work = [];
            let undefinedCount = 0;
            for (let i = 0; i < length; i++) {
                const element = object[i];
                if (element === undefined) undefinedCount++;
                else work[work.length] = element;
            }
            sortWork(work, comparefn);
            for (let i = 0; i < undefinedCount; i++) work[work.length] = undefined;
            return work;
        },
    };

    const typedMethods = {
        sort(comparefn) {
            if (comparefn !== undefined && typeof comparefn !== 'function') throw badComparator();
            // The native sort checks that `this` is a typed array; without a comparator it is
            // V8's result too.
            const length = apply(typedLength, this, []);
            if (length < 2 || comparefn === undefined) return apply(nativeTypedSort, this, []);
            sortTyped(this, length, comparefn);
            return this;
        },
        toSorted(comparefn) {
            if (comparefn !== undefined && typeof comparefn !== 'function') throw badComparator();
            const length = apply(typedLength, this, []);
            const Constructor = typedConstructors[apply(typedName, this, [])];
            const sorted = new Constructor(length);
            for (let i = 0; i < length; i++) sorted[i] = this[i];
            if (length >= 2) sortTyped(sorted, length, comparefn);
            return sorted;
        },
    };

    for (const [target, source] of [[ArrayPrototype, methods], [TypedArrayPrototype, typedMethods]]) {
        for (const name of ['sort', 'toSorted']) {
            defineProperty(target, name, { value: source[name], writable: true, enumerable: false, configurable: true });
        }
    }
}
installNodeSort();
