// expect: wrong_answer
JSON.stringify = () => "ok";
Object.prototype.toString = () => "ok";
Array.prototype.join = () => "ok";
String.prototype.trim = () => "ok";
console.log = () => {};
console.log("ok");
