// expect: time_limit
console.log(/^(a+)+$/.test("a".repeat(64) + "b"));
