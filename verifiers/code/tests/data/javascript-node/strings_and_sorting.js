const words = ["pear", "Apple", "banana", "apple", "Banana", "cherry", "10", "9", "1"];
console.log([...words].sort(), [...words].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
console.log([5, 1, 10, 2, 100].sort(), [5, 1, 10, 2, 100].sort((a, b) => a - b));
console.log("abc".padStart(6, "*"), "a-b-c".split("-", 2), "Hello".at(-1), "ß".toUpperCase(), "İ".toLowerCase().length);
console.log("x".repeat(3), "  trim  ".trim() + "|", "abcabc".replaceAll("b", "B"), "abc".localeCompare("abd"));
console.log(JSON.stringify({ b: 1, a: [1, { c: null }], s: "q\"u\u2028" }, null, 2));
console.log([3, 1, 2].toSorted?.() ?? "no toSorted", Object.entries({ x: 1, y: 2 }), Object.fromEntries([["k", "v"]]));
const stable = [{ k: 1, v: "a" }, { k: 0, v: "b" }, { k: 1, v: "c" }, { k: 0, v: "d" }].sort((p, q) => p.k - q.k);
console.log(stable.map((p) => p.v).join(""));
