// expect: wrong_answer
process.exit(0);
console.log("ok");
