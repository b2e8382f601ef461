// expect: time_limit
// Node stops at its stack limit (RangeError). QuickJS-NG checks every level for a cycle against
// all the levels above it: quadratic in the depth, this runs out of fuel first.
let a = [];
for (let i = 0; i < 200000; i++) a = [a];
console.log(JSON.stringify(a).length);
