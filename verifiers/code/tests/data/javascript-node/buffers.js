const b = Buffer.from("héllo wörld");
console.log(b.length, b.toString(), b.toString("hex"), Buffer.byteLength("€"), Buffer.isBuffer(b));
const c = Buffer.concat([Buffer.from("ab"), Buffer.from("cd")]);
console.log(c.toString(), Buffer.alloc(3).toString("hex"), JSON.stringify(Buffer.from("hi")));
