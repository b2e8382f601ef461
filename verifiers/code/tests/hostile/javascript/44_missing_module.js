// expect: runtime_error
const _ = require("lodash");
console.log(_.identity("ok"));
