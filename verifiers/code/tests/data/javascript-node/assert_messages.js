const assert = require("assert");
try { assert.deepStrictEqual([1, 2], [1, 2]); console.log("deep ok"); } catch (e) { console.log("unexpected", e.name); }
try { assert.strictEqual(1, 2); } catch (e) { console.log(e.name, e.code); }
try { assert.deepEqual({ a: [1, 2] }, { a: [1, 3] }); } catch (e) { console.log(e.name, e.code); }
try { assert(false, "custom message"); } catch (e) { console.log(e.name, e.message); }
try { assert.throws(() => { throw new TypeError("t"); }, TypeError); console.log("throws ok"); } catch (e) { console.log("unexpected", e.name); }
console.log(assert.deepEqual(1, "1") === undefined, (() => { try { assert.deepStrictEqual(1, "1"); } catch (e) { return e.name; } })());
