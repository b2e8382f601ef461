console.log("partial");
process.stdout.write("no newline");
process.exitCode = 3;
