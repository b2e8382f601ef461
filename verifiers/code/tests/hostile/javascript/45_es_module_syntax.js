// expect: compile_error
import fs from "fs";
console.log("ok");
