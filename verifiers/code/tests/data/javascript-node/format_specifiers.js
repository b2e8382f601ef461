console.log("%s is %d years and %i days, %f%%", "Ada", 36.6, 12.9, 0.5);
console.log("%j %o %O", { a: [1] }, [1, { b: 2 }], { c: { d: { e: { f: 1 } } } });
console.log("%s", { a: 1 }, "extra", 3, "%d");
console.log("no specifiers", "%c styled", "color: red");
console.info("info"); console.debug("debug");
console.log(require("util").format("%s:%s", "a"), require("util").inspect({ x: [1, 2] }));
