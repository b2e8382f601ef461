class Point { constructor(x, y) { this.x = x; this.y = y; } }
const nullProto = Object.create(null);
nullProto.a = 1;
console.log([1, 2, 3], { a: 1, b: "two", c: [3, { d: 4 }] }, "text", 42, -0, 0.1 + 0.2, 1e21, 2n ** 70n);
console.log([[1, [2, [3, [4, [5]]]]]], { deep: { a: { b: { c: { d: 1 } } } } });
console.log(new Map([["k", 1], [2, [3]]]), new Set([1, "a", [2]]), new Point(1, 2), nullProto);
console.log([undefined, null, NaN, Infinity, -Infinity], [ , 1, , ], Symbol("s"), typeof Symbol.iterator);
console.log(Array.from({ length: 30 }, (_, i) => i * i));
console.log(Array.from({ length: 120 }, (_, i) => i % 7));
console.log(["it's", "say \"hi\"", "tab\there", "new\nline", ""], "top-level \"quotes\" stay");
console.log(new Uint8Array([1, 2, 255]), new Float64Array(2), [function named() {}, () => 1, class K {}]);
console.log({ "key with space": 1, valid_id: 2, 3: "three", "4x": 4 }, [true, false], { f() {} });
console.log(Array.from({ length: 8 }, (_, i) => "word" + i), Array(3), new Array(5).fill([]));
