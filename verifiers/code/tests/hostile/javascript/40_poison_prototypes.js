// expect: wrong_answer
// Node prints `poisoned` and exits 0: the driver's own work after the program must not trip over
// the poisoned prototypes either.
Object.defineProperty(Object.prototype, "then", { get() { throw new Error("poisoned then"); } });
Object.prototype.toJSON = () => { throw new Error("poisoned toJSON"); };
Array.prototype[Symbol.iterator] = function* () { throw new Error("poisoned iterator"); };
console.log("poisoned");
